// Result<T>: the value of a fallible operation or a one-line error message.
//
// Building assets, reading files and parsing scenes can fail because of what a user gave us; those
// functions return Result. The message is a single line meant for a person, naming where the problem
// is ("beam.msh:112: tetrahedron 40 references node 9001, but there are 800 nodes"). Steps never fail
// this way: they report flags in their state instead.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace pliant {

/// A user-facing error: one line, no trailing newline, naming the file/line/element/JSON path at fault.
struct Error {
  std::string message;
};

/// Thrown by Result::value() (and `*`, `->`) on a failed Result: what() is the Result's one-line
/// message, so code that skips the check still fails with a useful error rather than a bad variant
/// access.
class BadResultAccess : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  /// The value; on an error this throws BadResultAccess carrying the error message.
  T& value() & {
    check();
    return *std::get_if<0>(&v_);
  }
  const T& value() const& {
    check();
    return *std::get_if<0>(&v_);
  }
  T&& value() && {
    check();
    return std::move(*std::get_if<0>(&v_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// The error; on a success this throws std::logic_error (there is no error to read).
  const Error& error() const {
    if (ok()) throw std::logic_error("Result::error() called on a success");
    return *std::get_if<1>(&v_);
  }
  const std::string& message() const { return error().message; }

 private:
  void check() const {
    if (!ok()) throw BadResultAccess(std::get_if<1>(&v_)->message);
  }
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
  /// The error; on a success this throws std::logic_error (there is no error to read).
  const Error& error() const {
    if (!error_) throw std::logic_error("Result::error() called on a success");
    return *error_;
  }
  const std::string& message() const { return error().message; }
  /// Throws BadResultAccess carrying the message if this is an error; for code that cannot go on.
  void value() const {
    if (error_) throw BadResultAccess(error_->message);
  }

 private:
  std::optional<Error> error_;
};

using Status = Result<void>;

}  // namespace pliant
