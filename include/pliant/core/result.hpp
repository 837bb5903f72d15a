// Result<T>: the value of a fallible operation or a one-line error message.
//
// Building assets, reading files and parsing scenes can fail because of what a user gave us; those
// functions return Result. The message is a single line meant for a person, naming where the problem
// is ("beam.msh:112: tetrahedron 40 references node 9001, but there are 800 nodes"). Steps never fail
// this way: they report flags in their state instead.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace pliant {

/// A user-facing error: one line, no trailing newline, naming the file/line/element/JSON path at fault.
struct Error {
  std::string message;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  /// The value; calling this on an error is a programming error.
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// The error; calling this on a success is a programming error.
  const Error& error() const { return std::get<1>(v_); }
  const std::string& message() const { return error().message; }

 private:
  std::variant<T, Error> v_;
};

/// Success or an error, for operations without a value.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return *error_; }
  const std::string& message() const { return error_->message; }

 private:
  std::optional<Error> error_;
};

using Status = Result<void>;

}  // namespace pliant
