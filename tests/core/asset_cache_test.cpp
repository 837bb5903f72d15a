#include "pliant/core/asset_cache.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace pliant {
namespace {

struct Mesh {
  int nodes = 0;
};
struct Factor {
  int nodes = 0;
};

TEST(AssetCache, SameKeyWhileAliveGivesTheSameObjectBuiltOnce) {
  AssetCache cache;
  int builds = 0;
  auto build = [&]() -> Result<std::shared_ptr<const Mesh>> {
    ++builds;
    return std::make_shared<const Mesh>(Mesh{8});
  };
  Result<std::shared_ptr<const Mesh>> a = cache.get_or_build<Mesh>(42, build);
  Result<std::shared_ptr<const Mesh>> b = cache.get_or_build<Mesh>(42, build);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->get(), b->get());
  EXPECT_EQ(builds, 1);
  EXPECT_EQ(cache.find<Mesh>(42).get(), a->get());
  EXPECT_EQ(cache.live_count(), 1u);

  // Another key, or another type under the same key, is another asset.
  Result<std::shared_ptr<const Mesh>> c = cache.get_or_build<Mesh>(43, build);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(c->get(), a->get());
  EXPECT_EQ(builds, 2);
  Result<std::shared_ptr<const Factor>> f = cache.get_or_build<Factor>(
      42, [] { return Result<std::shared_ptr<const Factor>>(std::make_shared<const Factor>()); });
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(cache.find<Factor>(42).get(), f->get());
  EXPECT_EQ(cache.find<Mesh>(42).get(), a->get());
  EXPECT_EQ(cache.live_count(), 3u);
}

TEST(AssetCache, AnAssetNobodyHoldsIsBuiltAgain) {
  AssetCache cache;
  int builds = 0;
  auto build = [&]() -> Result<std::shared_ptr<const Mesh>> {
    ++builds;
    return std::make_shared<const Mesh>(Mesh{builds});
  };
  { ASSERT_TRUE(cache.get_or_build<Mesh>(7, build).ok()); }
  EXPECT_EQ(cache.find<Mesh>(7), nullptr);
  EXPECT_EQ(cache.live_count(), 0u);
  Result<std::shared_ptr<const Mesh>> again = cache.get_or_build<Mesh>(7, build);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->nodes, 2);
  EXPECT_EQ(builds, 2);
}

TEST(AssetCache, AFailedBuildIsReturnedAndNotStored) {
  AssetCache cache;
  Result<std::shared_ptr<const Mesh>> bad = cache.get_or_build<Mesh>(
      5, [] { return Result<std::shared_ptr<const Mesh>>(Error{"mesh.msh:3: bad node"}); });
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "mesh.msh:3: bad node");
  EXPECT_EQ(cache.find<Mesh>(5), nullptr);
  int builds = 0;
  Result<std::shared_ptr<const Mesh>> good = cache.get_or_build<Mesh>(5, [&] {
    ++builds;
    return Result<std::shared_ptr<const Mesh>>(std::make_shared<const Mesh>());
  });
  EXPECT_TRUE(good.ok());
  EXPECT_EQ(builds, 1);
}

TEST(AssetCache, ConcurrentCallersEachGetAnAssetAndLaterOnesShareOne) {
  AssetCache cache;
  std::atomic<int> builds{0};
  std::vector<std::shared_ptr<const Mesh>> got(8);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < got.size(); ++t)
    threads.emplace_back([&, t] {
      Result<std::shared_ptr<const Mesh>> r = cache.get_or_build<Mesh>(9, [&] {
        ++builds;
        return Result<std::shared_ptr<const Mesh>>(std::make_shared<const Mesh>(Mesh{4}));
      });
      if (r.ok()) got[t] = *r;
    });
  for (std::thread& th : threads) th.join();
  for (const auto& m : got) {
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->nodes, 4);
  }
  EXPECT_GE(builds.load(), 1);
  // Once the racing builds are done, the stored one is what every later caller gets.
  const std::shared_ptr<const Mesh> stored = cache.find<Mesh>(9);
  ASSERT_NE(stored, nullptr);
  Result<std::shared_ptr<const Mesh>> later = cache.get_or_build<Mesh>(
      9, [] { return Result<std::shared_ptr<const Mesh>>(Error{"not built again"}); });
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(later->get(), stored.get());
}

TEST(AssetCache, TheGlobalCacheIsOneObject) { EXPECT_EQ(&AssetCache::global(), &AssetCache::global()); }

}  // namespace
}  // namespace pliant
