#include "pliant/core/hash.hpp"

#include <cstring>

namespace pliant {
namespace {

// 64-bit multiply-xorshift mixing of 8-byte words (the finaliser of MurmurHash3 / splitmix64 style).
// Word-at-a-time so checksumming a 400 MB Green's function block costs well under a second.
constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;

inline std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

}  // namespace

std::uint64_t hash_bytes(const void* data, std::size_t size, std::uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  // Four independent lanes keep the multiplier pipeline busy.
  std::uint64_t lane[4] = {seed ^ kMul, seed + 1, seed ^ (kMul >> 1), seed - 1};
  std::size_t i = 0;
  for (; i + 32 <= size; i += 32) {
    for (int k = 0; k < 4; ++k) {
      std::uint64_t w;
      std::memcpy(&w, p + i + 8 * k, 8);
      lane[k] = mix(lane[k] ^ (w * kMul));
    }
  }
  std::uint64_t h = mix(lane[0] ^ mix(lane[1] + kMul) ^ mix(lane[2] + 2 * kMul) ^ mix(lane[3] + 3 * kMul));
  for (; i + 8 <= size; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = mix(h ^ (w * kMul));
  }
  std::uint64_t tail = 0;
  if (size > i) std::memcpy(&tail, p + i, size - i);  // empty input may come with a null pointer
  return mix(h ^ mix(tail + (static_cast<std::uint64_t>(size) << 3)));
}

}  // namespace pliant
