// What the World publishes for the haptic loop after each step: per bound grab, its target, reaction
// and contact stiffness, exchanged through a lock-free triple buffer so that the device thread never
// reads the world during a step.
#pragma once

#include "pliant/core/types.hpp"

#include <atomic>
#include <cstdint>

namespace pliant::scene {

/// What the device thread needs of the last completed step, for one bound grab or instrument.
struct HapticContact {
  bool active = false;            ///< a grab is bound to this contact
  Vec3 position = Vec3::Zero();   ///< grab target used by the last step (unit: m)
  Vec3 force = Vec3::Zero();      ///< force on the device at that position (unit: N)
  Mat3 stiffness = Mat3::Zero();  ///< ∂force/∂position at the contact (unit: N/m), symmetric ≤ 0
  /// Whether `stiffness` is the body's exact linearisation (a Green body's compliance) rather than a
  /// secant estimate from the last steps.
  bool stiffness_exact = false;
  int contacts = 0;  ///< surface nodes the grab or instrument holds (a grab: 1)
};

/// Most grabs a World publishes to haptic devices at once.
inline constexpr int kMaxHapticContacts = 4;

struct HapticSnapshot {
  std::uint64_t step = 0;  ///< simulation step that produced it
  double time = 0.0;       ///< simulation time (unit: s)
  /// Contact c is World::bind_haptic_grab(c, ...)'s grab; HapticLoop renders contact 0.
  HapticContact contacts[kMaxHapticContacts];
};

/// Single-writer, single-reader snapshot exchange: the simulation publishes, the device thread reads
/// the latest complete snapshot. A triple buffer (writer slot, reader slot, and a middle slot swapped
/// atomically): neither side ever blocks or sees a half-written snapshot, and there is no data race.
class SnapshotBuffer {
 public:
  /// Writer side (the simulation thread).
  void publish(const HapticSnapshot& snapshot);
  /// Reader side (the device thread): the latest published snapshot.
  const HapticSnapshot& read();

 private:
  static constexpr unsigned kFresh = 4;  // set in middle_ when it holds a snapshot not yet read
  HapticSnapshot slots_[3];
  std::atomic<unsigned> middle_{1};
  unsigned write_ = 0;  // owned by the writer
  unsigned read_ = 2;   // owned by the reader
};

/// The force rendered at device position x from a snapshot (unit: N).
inline Vec3 haptic_force(const HapticContact& c, const Vec3& x) {
  return c.force + c.stiffness * (x - c.position);
}

}  // namespace pliant::scene
