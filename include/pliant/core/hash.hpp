// Fast, stable 64-bit hashing of bytes: state hashes for determinism tests, mesh and constraint
// hashes and checksums in asset files. Not cryptographic. The value is the same on every
// little-endian machine and build, so it may be stored in files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace pliant {

/// Hash of a byte range, continuing from `seed` (pass a previous hash to chain ranges).
std::uint64_t hash_bytes(const void* data, std::size_t size, std::uint64_t seed = 0);

/// Incremental hasher: add() ranges in order; value() equals hashing their concatenation's chain.
class Hasher {
 public:
  explicit Hasher(std::uint64_t seed = 0) : h_(seed) {}
  Hasher& add(const void* data, std::size_t size) {
    h_ = hash_bytes(data, size, h_);
    return *this;
  }
  template <class T>
  Hasher& add(std::span<const T> values) {
    return add(values.data(), values.size_bytes());
  }
  template <class T>
  Hasher& add(const std::vector<T>& values) {
    return add(values.data(), values.size() * sizeof(T));
  }
  Hasher& add(std::string_view s) { return add(s.data(), s.size()); }
  template <class T>
  Hasher& add_value(const T& v) {
    return add(&v, sizeof(T));
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_;
};

}  // namespace pliant
