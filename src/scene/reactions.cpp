#include "pliant/scene/reactions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace pliant::scene {
namespace {

// RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

namespace {

// Each collider's row after the grabs' rows: a plain collider has its own, an instrument one row for all
// its colliders (a grasper's two jaws), at its first collider's place.
std::vector<std::size_t> collider_rows(const World& world) {
  const std::size_t colliders = world.colliders().size();
  std::vector<std::size_t> row(colliders);
  std::size_t next = world.scripted_grabs().size();
  for (std::size_t c = 0; c < colliders; ++c) {
    const Index i = world.collider_instrument(static_cast<Index>(c));
    const Index first = i >= 0 ? world.instrument_collider(i) : static_cast<Index>(c);
    row[c] = first == static_cast<Index>(c) ? next++ : row[static_cast<std::size_t>(first)];
  }
  return row;
}

}  // namespace

std::vector<std::string> reaction_names(const World& world) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < world.scripted_grabs().size(); ++i) names.push_back(fmt::format("grab:{}", i));
  const std::span<const Collider> colliders = world.colliders();
  for (std::size_t c = 0; c < colliders.size(); ++c) {
    const Index i = world.collider_instrument(static_cast<Index>(c));
    if (i < 0)
      names.push_back("collider:" + colliders[c].name);
    else if (world.instrument_collider(i) == static_cast<Index>(c))
      names.push_back("instrument:" + world.instruments()[static_cast<std::size_t>(i)].name);
  }
  return names;
}

void reaction_forces(const World& world, std::vector<Vec3>& out) {
  const std::span<const ScriptedGrab> grabs = world.scripted_grabs();
  const std::vector<std::size_t> row = collider_rows(world);
  std::size_t sources = grabs.size();
  for (std::size_t r : row) sources = std::max(sources, r + 1);
  out.assign(sources, Vec3::Zero());
  for (std::size_t i = 0; i < grabs.size(); ++i) {
    const ScriptedGrab& g = grabs[i];
    if (g.body < 0 || static_cast<std::size_t>(g.body) >= world.body_count()) continue;
    const Body& body = world.body(g.body);
    // A grab not yet taken, released, or ended by its body (a torn node) holds nothing: zero, never a
    // stale slot's force.
    if (g.id.valid() && body.holds(g.id)) out[i] = body.grab_reaction(g.id);
  }
  // Newton's third law per pair: the collider takes the opposite of what it applies.
  for (const ContactEvent& e : world.contact_events())
    if (e.collider >= 0 && static_cast<std::size_t>(e.collider) < row.size())
      out[row[static_cast<std::size_t>(e.collider)]] -= e.force;
}

ReactionSeries::ReactionSeries(const World& world) : names_(reaction_names(world)) {}

void ReactionSeries::record(const World& world) {
  reaction_forces(world, scratch_);
  // Sources are matched by position; the grabs come first, so a collider keeps its column when the
  // grab count is unchanged, which is the only case a scene run meets.
  scratch_.resize(names_.size(), Vec3::Zero());
  steps_.push_back(world.step_count());
  times_.push_back(world.time());
  forces_.insert(forces_.end(), scratch_.begin(), scratch_.end());
}

std::vector<ReactionSeries::Stats> ReactionSeries::stats() const {
  const std::size_t k = names_.size();
  std::vector<Stats> out(k);
  for (std::size_t r = 0; r < rows(); ++r) {
    for (std::size_t j = 0; j < k; ++j) {
      const Vec3& f = forces_[r * k + j];
      Stats& s = out[j];
      // stableNorm: a force beyond 1e154 N must read as huge, not overflow to infinity.
      if (const double m = f.stableNorm(); r == 0 || m > s.peak) {
        s.peak = m;
        s.peak_step = steps_[r];
      }
      if (r == 0) continue;
      if (const double jump = (f - forces_[(r - 1) * k + j]).stableNorm(); jump > s.max_jump) {
        s.max_jump = jump;
        s.max_jump_step = steps_[r];
      }
    }
  }
  return out;
}

std::string ReactionSeries::csv() const {
  const std::size_t k = names_.size();
  std::vector<std::string> quoted;
  quoted.reserve(k);
  for (const std::string& n : names_) quoted.push_back(csv_field(n));
  std::string out = "step,time,name,fx,fy,fz\n";
  auto it = std::back_inserter(out);
  for (std::size_t r = 0; r < rows(); ++r)
    for (std::size_t j = 0; j < k; ++j) {
      const Vec3& f = forces_[r * k + j];
      fmt::format_to(it, "{},{},{},{},{},{}\n", steps_[r], times_[r], quoted[j], f.x(), f.y(), f.z());
    }
  return out;
}

}  // namespace pliant::scene
