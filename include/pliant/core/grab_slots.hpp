// The generation-slot allocator behind every body's grabs: a grab lives in a slot, its handle is
// {slot, generation}, and a released slot is reused by the next grab with the next generation, so a
// handle kept after release() names nothing (holds() is false) instead of someone else's grab.
//
// The lowest free slot is taken, and live slots are visited in slot order: a body that sums its grabs'
// contributions sums them in the same order whatever the history of grabs. A slot keeps its payload
// from its previous use (acquire() does not reset it), so a payload that reuses its vectors' capacity
// makes a warmed body's grab, move and release allocate nothing; only a new slot (more grabs at once
// than ever before) grows the storage.
#pragma once

#include "pliant/core/grab_id.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace pliant {

template <class T>
class GrabSlots {
 public:
  /// Takes the lowest free slot and starts its next generation; its payload is what the slot's last
  /// grab left (reset what you use: operator[] or find).
  GrabId acquire() {
    std::size_t slot = 0;
    while (slot < slots_.size() && slots_[slot].live) ++slot;
    if (slot == slots_.size()) slots_.emplace_back();
    Entry& e = slots_[slot];
    e.live = true;
    ++e.generation;
    ++live_;
    return {static_cast<std::int32_t>(slot), e.generation};
  }

  /// Whether `id` names a live grab: false for an invalid, released or never-issued handle.
  bool holds(GrabId id) const {
    return id.slot >= 0 && static_cast<std::size_t>(id.slot) < slots_.size() &&
           slots_[static_cast<std::size_t>(id.slot)].live &&
           slots_[static_cast<std::size_t>(id.slot)].generation == id.generation;
  }

  /// The payload of a live grab, nullptr otherwise.
  T* find(GrabId id) { return holds(id) ? &slots_[static_cast<std::size_t>(id.slot)].value : nullptr; }
  const T* find(GrabId id) const {
    return holds(id) ? &slots_[static_cast<std::size_t>(id.slot)].value : nullptr;
  }
  /// The payload of a live grab (holds(id) must be true).
  T& operator[](GrabId id) { return slots_[static_cast<std::size_t>(id.slot)].value; }
  const T& operator[](GrabId id) const { return slots_[static_cast<std::size_t>(id.slot)].value; }

  /// Frees the grab's slot for reuse; false (and nothing changes) when `id` is not held. Allowed
  /// inside for_each.
  bool release(GrabId id) {
    if (!holds(id)) return false;
    slots_[static_cast<std::size_t>(id.slot)].live = false;
    --live_;
    return true;
  }

  /// Live grabs.
  std::size_t size() const { return live_; }
  bool empty() const { return live_ == 0; }

  /// Calls f(payload) or f(id, payload) for each live grab, in slot order.
  template <class F>
  void for_each(F&& f) {
    visit(*this, f);
  }
  template <class F>
  void for_each(F&& f) const {
    visit(*this, f);
  }

 private:
  struct Entry {
    T value{};
    std::uint32_t generation = 0;
    bool live = false;
  };

  template <class Self, class F>
  static void visit(Self& self, F& f) {
    for (std::size_t k = 0; k < self.slots_.size(); ++k) {
      auto& e = self.slots_[k];
      if (!e.live) continue;
      if constexpr (std::is_invocable_v<F&, GrabId, decltype(e.value)&>)
        f(GrabId{static_cast<std::int32_t>(k), e.generation}, e.value);
      else
        f(e.value);
    }
  }

  std::vector<Entry> slots_;
  std::size_t live_ = 0;
};

}  // namespace pliant
