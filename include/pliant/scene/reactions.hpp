// Reactions as data: the force each scripted grab, each collider and each instrument takes from the
// bodies, named and recorded per step, so that a
// scene's grab and contact forces can be read without writing code (`pliant run` writes them to
// forces.csv; Python reads the same arrays).
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/scene/world.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace pliant::scene {

/// The names of a world's reaction sources, in order: one per scripted grab, "grab:I" with I its index
/// in World::scripted_grabs() (the order of the scene's grab interactions), then one per collider,
/// "collider:NAME" with the collider's name (a scene collider without "name" is named for its shape),
/// or "instrument:NAME" for an instrument (World::add_instrument): one source for all its colliders (a
/// grasper's two jaws), at its first collider's place.
std::vector<std::string> reaction_names(const World& world);

/// The force each source takes from the bodies after the last step (unit: N, world frame), in the
/// order of reaction_names, written into `out` (resized to their count). A grab's is its body's
/// Body::grab_reaction while the body holds it, zero before it starts and after its release (or when
/// the body refused it). A collider's is minus the sum of the contact forces it applies to the bodies
/// (ContactEvent::force, held nodes' inertia included), zero while it touches nothing.
void reaction_forces(const World& world, std::vector<Vec3>& out);

/// A time series of reaction_forces: one row per recorded step, one force per source in each.
class ReactionSeries {
 public:
  ReactionSeries() = default;
  /// Takes the sources of `world` as they are now (reaction_names).
  explicit ReactionSeries(const World& world);

  /// Appends the forces after the world's last step. Sources are those the series was made with:
  /// one added to the world since is left out, one removed reads zero.
  void record(const World& world);

  const std::vector<std::string>& names() const { return names_; }
  /// Recorded rows.
  std::size_t rows() const { return steps_.size(); }
  /// World::step_count() of each row.
  std::span<const std::uint64_t> steps() const { return steps_; }
  /// World::time() of each row (unit: s).
  std::span<const double> times() const { return times_; }
  /// Row-major forces (unit: N): row r's force of source k is forces()[r * names().size() + k].
  std::span<const Vec3> forces() const { return forces_; }

  /// Per source, over the rows: the largest |F| and the largest change |F(r) − F(r−1)| between two
  /// consecutive rows, with the step where each happened (the first such step; 0 for no rows).
  struct Stats {
    double peak = 0.0;                ///< (unit: N)
    std::uint64_t peak_step = 0;      ///< World::step_count() of the peak
    double max_jump = 0.0;            ///< (unit: N)
    std::uint64_t max_jump_step = 0;  ///< the step that ends the largest jump
  };
  std::vector<Stats> stats() const;

  /// The series as CSV: the header "step,time,name,fx,fy,fz", then one line per row and source, in
  /// row order and reaction_names order within a row; numbers in the shortest form that reads back
  /// exactly. A name holding a comma or a quote is quoted (RFC 4180).
  std::string csv() const;

 private:
  std::vector<std::string> names_;
  std::vector<std::uint64_t> steps_;
  std::vector<double> times_;
  std::vector<Vec3> forces_;
  std::vector<Vec3> scratch_;
};

}  // namespace pliant::scene
