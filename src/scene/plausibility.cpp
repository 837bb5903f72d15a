#include "pliant/scene/plausibility.hpp"

#include "pliant/core/quality.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/scene/capabilities.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace pliant::scene {
namespace {

// A modulus with its SI prefix: "5 Pa", "1.4 kPa", "206 GPa".
std::string pascals(double p) {
  static constexpr std::array<const char*, 5> prefix = {"Pa", "kPa", "MPa", "GPa", "TPa"};
  std::size_t k = 0;
  while (k + 1 < prefix.size() && std::abs(p) >= 1000.0) {
    p /= 1000.0;
    ++k;
  }
  return fmt::format("{:.3g} {}", p, prefix[k]);
}

// A length in m, or in mm below a centimetre.
std::string metres(double m) {
  return m < 0.01 ? fmt::format("{:.3g} mm", m * 1e3) : fmt::format("{:.3g} m", m);
}

// The extent of `points` along the unit direction `d` (unit: m).
double extent_along(std::span<const Vec3> points, const Vec3& d) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Vec3& p : points) {
    const double s = p.dot(d);
    lo = std::min(lo, s);
    hi = std::max(hi, s);
  }
  return points.empty() ? 0.0 : hi - lo;
}

// The preset whose elastic constants `m` has (density aside: a scene may change it), or empty.
std::string preset_of(const materials::Material& m) {
  for (const std::string& name : materials::material_preset_names()) {
    const Result<materials::Material> p = materials::material_preset(name);
    if (p.ok() && std::abs(p->lambda - m.lambda) <= 1e-12 * std::abs(p->lambda) &&
        std::abs(p->mu - m.mu) <= 1e-12 * p->mu)
      return name;
  }
  return {};
}

// The widest a body of a tissue preset plausibly is (unit: m): organs up to 0.5 m (an adult liver is
// about 0.2 m across, a brain 0.17 m), other tissues up to a limb's or a torso's 2.5 m; 0 for the other
// presets (rubbers, silicones, steel), which come in any size.
double widest_for_preset(const std::string& preset) {
  static constexpr std::array<const char*, 5> organs = {"liver", "kidney", "brain", "brain_white",
                                                        "brain_gray"};
  static constexpr std::array<const char*, 4> tissues = {"muscle", "fat", "skin", "cartilage"};
  for (const char* o : organs)
    if (preset == o) return 0.5;
  for (const char* t : tissues)
    if (preset == t) return 2.5;
  return 0.0;
}

constexpr double kSmallestBody = 1e-3;     // m: below, a mesh in metres was probably read as mm
constexpr double kSoftestModulus = 100.0;  // Pa: a tenth of the softest tissue preset
constexpr double kStiffestModulus = 2e12;  // Pa: diamond's is about 1.1e12
constexpr double kLightestDensity = 10.0;  // kg/m³: aerogels and foams lie above
constexpr double kHeaviestDensity = 25e3;  // kg/m³: osmium, the densest element, has 22,590

const char* kUnitsHint = "if the mesh file is not in metres, give the body's mesh \"units\" (\"cm\", \"mm\")";

}  // namespace

std::vector<PlausibilityWarning> check_plausibility(const World& world) {
  std::vector<PlausibilityWarning> out;
  for (std::size_t b = 0; b < world.body_count(); ++b) {
    const Body& body = world.body(static_cast<Index>(b));
    const std::span<const Vec3> rest = body.surface_rest_positions();
    if (rest.empty()) continue;
    Vec3 lo = rest[0], hi = rest[0];
    for (const Vec3& p : rest) {
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
    const double size = (hi - lo).maxCoeff();
    const auto warn = [&](const char* kind, std::string message) {
      out.push_back({body.name(), kind, fmt::format("body \"{}\": {}", body.name(), message)});
    };
    if (size < kSmallestBody)
      warn("size",
           fmt::format("it is only {} across: check its mesh's \"units\" and \"scale\" (a file in metres "
                       "read with \"units\": \"mm\" comes out a thousand times too small)",
                       metres(size)));

    const DescribesPhysics* described = capability<DescribesPhysics>(body);
    if (!described) continue;
    const BodyPhysics physics = described->physics();
    if (physics.materials.empty()) continue;
    double softest = std::numeric_limits<double>::infinity(), densest = 0.0;
    for (const materials::Material& m : physics.materials) {
      const double E = m.youngs_modulus();
      softest = std::min(softest, E);
      densest = std::max(densest, m.density);
      if (const std::string preset = preset_of(m); !preset.empty()) {
        if (const double widest = widest_for_preset(preset); widest > 0.0 && size > widest)
          warn("size", fmt::format("it is {} across, wider than any body of \"{}\" (up to {}); {}",
                                   metres(size), preset, metres(widest), kUnitsHint));
      }
      if (E < kSoftestModulus)
        warn("material", fmt::format("Young's modulus E = {} is softer than any tissue (the softest preset, "
                                     "\"brain_gray\", has 1.4 kPa); E is in Pa: write kPa values times 1000",
                                     pascals(E)));
      if (E > kStiffestModulus)
        warn("material",
             fmt::format("Young's modulus E = {} is stiffer than diamond (about 1.1 TPa); E is in "
                         "Pa: did the value get a factor of 1000 too many?",
                         pascals(E)));
      if (m.density < kLightestDensity || m.density > kHeaviestDensity)
        warn("material", fmt::format("density {:.4g} kg/m³ lies outside what solids have ({:.0f} to {:.0f} "
                                     "kg/m³; water has 1000); density is in kg/m³",
                                     m.density, kLightestDensity, kHeaviestDensity));
    }
    const double g = physics.gravity.stableNorm();  // stable: a 1e300 m/s² gravity must not overflow to inf
    if (g > 0.0 && std::isfinite(g) && softest > 0.0) {
      const double height = extent_along(rest, physics.gravity / g);
      const double sag = densest * g * height * height / (2.0 * softest);
      if (height > 0.0 && sag > height)
        warn("sag",
             fmt::format("its own weight would squash it by about {} (ρ g L² / 2E with ρ = {:.4g} kg/m³, "
                         "g = {:.3g} m/s², E = {}, L = {} along gravity), more than its height; {}, "
                         "or stiffen the material",
                         metres(sag), densest, g, pascals(softest), metres(height), kUnitsHint));
    }
  }
  return out;
}

std::optional<PlausibilityWarning> check_tet_quality(std::string_view body, const TetMesh& mesh) {
  Index flat = 0, worst = -1;
  double worst_deg = std::numeric_limits<double>::infinity();
  const auto n = static_cast<Index>(mesh.positions.size());
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    const Tet& tet = mesh.tets[t];
    if (std::any_of(tet.begin(), tet.end(), [n](Index i) { return i < 0 || i >= n; })) continue;
    const TetQuality q = tet_quality(
        mesh.positions[static_cast<std::size_t>(tet[0])], mesh.positions[static_cast<std::size_t>(tet[1])],
        mesh.positions[static_cast<std::size_t>(tet[2])], mesh.positions[static_cast<std::size_t>(tet[3])]);
    if (!(q.min_dihedral_deg >= kFlatTetDegrees)) {
      ++flat;
      if (!(q.min_dihedral_deg >= worst_deg)) {
        worst_deg = q.min_dihedral_deg;
        worst = static_cast<Index>(t);
      }
    }
  }
  if (flat == 0) return std::nullopt;
  return PlausibilityWarning{
      std::string(body), "tet_quality",
      fmt::format(
          "body \"{}\": {} of {} tets are nearly flat (smallest dihedral angle below {:g}°; the worst, "
          "tet {}, has {:.3g}°): they make the stiffness ill-conditioned and an explicit step tiny; "
          "remesh the surface (`pliant mesh SURFACE -o MESH.vtu` reports the smallest angle it reached)",
          body, flat, mesh.tets.size(), kFlatTetDegrees, worst, worst_deg)};
}

std::optional<PlausibilityWarning> check_realtime(double simulated_s, double wall_s, int steps,
                                                  std::span<const StageTime> stages) {
  if (steps < 5 || !(simulated_s > 0.0) || !(wall_s > simulated_s)) return std::nullopt;
  const StageTime* slowest = nullptr;
  double step_ms = 0.0;
  for (const StageTime& s : stages) {
    if (s.name == "solve") continue;  // the sum of the bodies' own stages, listed beside it
    step_ms += s.mean_ms;
    if (!slowest || s.mean_ms > slowest->mean_ms) slowest = &s;
  }
  std::string where;
  if (slowest && step_ms > 0.0)
    where = fmt::format("; stage {} takes {:.0f} % of a step ({:.3g} ms)", slowest->name,
                        100.0 * slowest->mean_ms / step_ms, slowest->mean_ms);
  return PlausibilityWarning{
      {},
      "realtime",
      fmt::format(
          "the scene ran {:.3g}× slower than real time ({:.4g} s simulated in {:.4g} s of stepping){}; "
          "to keep up, coarsen the slow body, lengthen the time step or use more threads (--threads)",
          wall_s / simulated_s, simulated_s, wall_s, where)};
}

}  // namespace pliant::scene
