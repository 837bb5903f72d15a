// GrabSlots, the one generation-slot allocator behind every body's grabs: reuse of the lowest free
// slot with a bumped generation, stale handles refused, iteration in slot order, and a random sequence
// of grabs and releases checked against a plain reference model.
#include "pliant/core/grab_slots.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace pliant {
namespace {

TEST(GrabSlots, FirstGrabsTakeSlotsInOrderAtGenerationOne) {
  GrabSlots<int> slots;
  EXPECT_TRUE(slots.empty());
  const GrabId a = slots.acquire(), b = slots.acquire();
  EXPECT_EQ(a, (GrabId{0, 1}));
  EXPECT_EQ(b, (GrabId{1, 1}));
  EXPECT_TRUE(slots.holds(a));
  EXPECT_TRUE(slots.holds(b));
  EXPECT_EQ(slots.size(), 2u);
}

TEST(GrabSlots, ReleasedHandleIsRefusedAndItsSlotReusedWithTheNextGeneration) {
  GrabSlots<int> slots;
  const GrabId a = slots.acquire();
  const GrabId b = slots.acquire();
  slots[a] = 7;
  EXPECT_TRUE(slots.release(a));
  EXPECT_FALSE(slots.holds(a));
  EXPECT_EQ(slots.find(a), nullptr);
  EXPECT_FALSE(slots.release(a)) << "a second release of the same handle changes nothing";
  EXPECT_EQ(slots.size(), 1u);
  const GrabId c = slots.acquire();
  EXPECT_EQ(c.slot, a.slot) << "the lowest free slot is reused";
  EXPECT_EQ(c.generation, a.generation + 1);
  EXPECT_FALSE(slots.holds(a)) << "the stale handle must not alias the new grab in its slot";
  EXPECT_FALSE(slots.release(a));
  EXPECT_TRUE(slots.holds(c));
  EXPECT_TRUE(slots.holds(b));
}

TEST(GrabSlots, InvalidAndNeverIssuedHandlesAreRefused) {
  GrabSlots<int> slots;
  const GrabId a = slots.acquire();
  EXPECT_FALSE(slots.holds(GrabId{}));
  EXPECT_FALSE(slots.holds(GrabId{-3, 1}));
  EXPECT_FALSE(slots.holds(GrabId{5, 1})) << "a slot beyond the storage";
  EXPECT_FALSE(slots.holds(GrabId{a.slot, a.generation + 1})) << "a generation not issued yet";
  EXPECT_FALSE(slots.holds(GrabId{a.slot, 0}));
  EXPECT_FALSE(slots.release(GrabId{5, 1}));
  EXPECT_TRUE(slots.holds(a));
  EXPECT_FALSE(GrabId{}.valid());
  EXPECT_TRUE(a.valid());
}

TEST(GrabSlots, ForEachVisitsLiveSlotsInSlotOrderAndMayRelease) {
  GrabSlots<int> slots;
  std::vector<GrabId> ids;
  for (int k = 0; k < 5; ++k) {
    ids.push_back(slots.acquire());
    slots[ids.back()] = 10 * k;
  }
  slots.release(ids[1]);
  slots.release(ids[3]);
  const GrabId again = slots.acquire();  // slot 1, after slot 0 but before slots 2 and 4
  slots[again] = 99;
  std::vector<std::pair<GrabId, int>> seen;
  slots.for_each([&](GrabId id, const int& v) { seen.emplace_back(id, v); });
  const std::vector<std::pair<GrabId, int>> expected = {{ids[0], 0}, {again, 99}, {ids[2], 20}, {ids[4], 40}};
  EXPECT_EQ(seen, expected);
  // Releasing while visiting: each live grab once, then none left.
  int visits = 0;
  slots.for_each([&](GrabId id, int&) {
    ++visits;
    EXPECT_TRUE(slots.release(id));
  });
  EXPECT_EQ(visits, 4);
  EXPECT_TRUE(slots.empty());
  int after = 0;
  std::as_const(slots).for_each([&](const int&) { ++after; });
  EXPECT_EQ(after, 0);
}

TEST(GrabSlots, PayloadAndStorageAreKeptSoAWarmedAllocatorReusesThem) {
  GrabSlots<std::vector<double>> slots;
  const GrabId a = slots.acquire();
  slots[a].assign(100, 1.0);
  const double* buffer = slots[a].data();
  const std::vector<double>* where = &slots[a];
  slots.release(a);
  const GrabId b = slots.acquire();
  ASSERT_EQ(b.slot, a.slot);
  EXPECT_EQ(&slots[b], where) << "the slot's storage did not move";
  EXPECT_GE(slots[b].capacity(), 100u) << "the payload keeps its capacity for the next grab";
  slots[b].clear();
  slots[b].resize(50);
  EXPECT_EQ(slots[b].data(), buffer) << "a smaller grab reuses the buffer: no allocation";
}

// A random sequence of grabs and releases (some with stale or foreign handles) against a reference:
// the set of live handles. Every issued handle is new, the live ones are held, the others refused.
TEST(GrabSlots, ManyCyclesMatchAReferenceAndNeverReissueAHandle) {
  GrabSlots<int> slots;
  std::mt19937 rng(12345);
  std::vector<GrabId> live;
  std::set<std::pair<std::int32_t, std::uint32_t>> issued;
  std::vector<GrabId> dead;
  std::size_t most = 0;
  for (int step = 0; step < 20000; ++step) {
    const int op = std::uniform_int_distribution<int>(0, 9)(rng);
    if (op < 5 || live.empty()) {
      const GrabId id = slots.acquire();
      ASSERT_TRUE(issued.insert({id.slot, id.generation}).second) << "handle reissued at step " << step;
      slots[id] = step;
      live.push_back(id);
    } else if (op < 9) {
      const std::size_t k = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
      ASSERT_TRUE(slots.release(live[k]));
      dead.push_back(live[k]);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
    } else if (!dead.empty()) {
      const GrabId stale = dead[std::uniform_int_distribution<std::size_t>(0, dead.size() - 1)(rng)];
      ASSERT_FALSE(slots.release(stale));
      ASSERT_FALSE(slots.holds(stale));
    }
    most = std::max(most, live.size());
    ASSERT_EQ(slots.size(), live.size());
  }
  for (const GrabId id : live) EXPECT_TRUE(slots.holds(id));
  for (const GrabId id : dead) EXPECT_FALSE(slots.holds(id));
  // Slots are reused: none beyond the most grabs live at once.
  std::int32_t highest = -1;
  for (const auto& [slot, generation] : issued) highest = std::max(highest, slot);
  EXPECT_LT(static_cast<std::size_t>(highest), most);
  // for_each visits exactly the live handles, in slot order.
  std::vector<GrabId> visited;
  slots.for_each([&](GrabId id, const int&) { visited.push_back(id); });
  std::sort(live.begin(), live.end(), [](GrabId x, GrabId y) { return x.slot < y.slot; });
  EXPECT_EQ(visited, live);
}

}  // namespace
}  // namespace pliant
