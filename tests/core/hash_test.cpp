#include "pliant/core/hash.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace pliant {
namespace {

TEST(Hash, DeterministicAndSensitiveToEveryByte) {
  std::vector<unsigned char> bytes(1000);
  std::iota(bytes.begin(), bytes.end(), 0);
  const std::uint64_t h = hash_bytes(bytes.data(), bytes.size());
  EXPECT_EQ(h, hash_bytes(bytes.data(), bytes.size()));
  // Flipping any single bit of any byte, in the 32-byte blocks, the 8-byte words or the tail,
  // changes the hash.
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; bit += 3) {
      bytes[i] ^= static_cast<unsigned char>(1u << bit);
      EXPECT_NE(h, hash_bytes(bytes.data(), bytes.size())) << "byte " << i << " bit " << bit;
      bytes[i] ^= static_cast<unsigned char>(1u << bit);
    }
  }
}

TEST(Hash, LengthAndSeedMatter) {
  std::vector<unsigned char> zeros(64, 0);
  for (std::size_t n = 1; n < zeros.size(); ++n) {
    EXPECT_NE(hash_bytes(zeros.data(), n), hash_bytes(zeros.data(), n + 1)) << n;
  }
  EXPECT_NE(hash_bytes(zeros.data(), 16, 1), hash_bytes(zeros.data(), 16, 2));
}

TEST(Hash, HasherChainsRanges) {
  const std::vector<double> a = {1.0, 2.0, 3.0};
  const std::vector<int> b = {7, 8};
  Hasher h;
  h.add(a).add(b);
  EXPECT_EQ(h.value(), hash_bytes(b.data(), b.size() * sizeof(int), hash_bytes(a.data(), 24)));
}

}  // namespace
}  // namespace pliant
