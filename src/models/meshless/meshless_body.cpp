#include "pliant/models/meshless/meshless_body.hpp"

#include "pliant/core/hash.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

namespace pliant::meshless {

namespace {

// The per-body settings, checked before anything is sampled.
Status check_body_settings(const MeshlessBodyDef& def) {
  if (!(def.dt >= 0.0) || !std::isfinite(def.dt))
    return Error{fmt::format("meshless: dt {} s is negative", def.dt)};
  if (!(def.dt_safety > 0.0 && def.dt_safety <= 1.0))
    return Error{fmt::format("meshless: dt_safety {} is outside (0, 1]", def.dt_safety)};
  if (!(def.mass_damping >= 0.0) || !def.gravity.allFinite() || (def.floor && !std::isfinite(*def.floor)))
    return Error{"meshless: mass_damping must be >= 0, gravity and floor finite"};
  return {};
}

}  // namespace

Result<MeshlessBody> MeshlessBody::build(const TriMesh& surface, const MeshlessBodyDef& def) {
  if (Status ok = check_body_settings(def); !ok) return ok.error();
  Result<std::shared_ptr<const MeshlessAsset>> asset =
      MeshlessAsset::build(surface, {.sampling = def.sampling, .mls = def.mls, .binding = def.binding});
  if (!asset) return asset.error();
  return build(std::move(*asset), def);
}

Result<MeshlessBody> MeshlessBody::build(std::shared_ptr<const MeshlessAsset> asset,
                                         const MeshlessBodyDef& def) {
  if (!asset) return Error{"meshless: no asset (a null pointer)"};
  if (Status ok = check_body_settings(def); !ok) return ok.error();
  for (Index i : def.fixed_phyxels)
    if (i < 0 || static_cast<std::size_t>(i) >= asset->phyxels().rest.size())
      return Error{fmt::format("meshless: fixed phyxel {} is outside the asset's {} phyxels", i,
                               asset->phyxels().rest.size())};
  MeshlessBody b;
  b.def_ = def;
  b.def_.sampling = asset->def().sampling;
  b.def_.mls = asset->def().mls;
  b.def_.binding = asset->def().binding;
  b.body_ = std::make_unique<MlsBody>(asset->phyxels());
  b.surface_ = asset->surface();
  b.asset_ = std::move(asset);
  const std::size_t n = b.body_->rest.size();
  b.external_.assign(n, Vec3::Zero());
  b.scratch_.assign(n, Vec3::Zero());
  b.fixed_.assign(n, 0);
  b.model_ = std::make_unique<MlsForceModel>(
      *b.body_, MlsLoads{.gravity = def.gravity, .mass_damping = def.mass_damping, .external = b.external_});
  b.model_->set_tangent(def.tangent);
  b.stable_step_ = symplectic_euler_stable_step(*b.body_, 1.0);
  b.substep_ = def.dt > 0.0 ? def.dt : def.dt_safety * b.stable_step_;
  if (!std::isfinite(b.substep_)) b.substep_ = 1e-3;
  b.control_ = ExplicitStepControl(b.substep_);
  b.integrator_.set_def({.scheme = def.scheme, .dt = b.substep_});
  b.x_surface_.resize(b.surface_.vertex_count());
  b.n_surface_.resize(b.surface_.vertex_count());
  b.surface_.update(b.body_->position, b.x_surface_, b.n_surface_);
  b.released_.reserve(8);
  b.pending_released_.reserve(8);
  for (Index i : def.fixed_phyxels) b.set_fixed(i, true);
  return b;
}

bool MeshlessBody::set_state(std::span<const Vec3> x, std::span<const Vec3> v) {
  const std::size_t n = body_->rest.size();
  if (x.size() != n || v.size() != n) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (!x[i].allFinite() || !v[i].allFinite()) return false;
  std::copy(x.begin(), x.end(), body_->position.begin());
  std::copy(v.begin(), v.end(), body_->velocity.begin());
  // The substep for the new state, before the first one is taken (ExplicitStepControl).
  model_->elastic_forces(body_->position, scratch_);
  if (def_.dt == 0.0 && !dynamics::is_implicit(def_.scheme)) control_.observe(model_->stiffening());
  surface_.update(body_->position, x_surface_, n_surface_);
  return true;
}

void MeshlessBody::set_fixed(Index phyxel, bool fixed) {
  fixed_[static_cast<std::size_t>(phyxel)] = fixed ? 1 : 0;
  body_->set_fixed(phyxel, fixed);
}

GrabId MeshlessBody::grab(Index vertex) {
  if (vertex < 0 || static_cast<std::size_t>(vertex) >= surface_.vertex_count()) return {};
  const GrabId id = grabs_.acquire();
  Grab& g = grabs_[id];
  g.vertex = vertex;
  g.from = g.target = x_surface_[static_cast<std::size_t>(vertex)];
  g.reaction = Vec3::Zero();
  const auto held = surface_.phyxels(vertex);
  g.phyxels.assign(held.begin(), held.end());
  g.offset.clear();
  for (Index j : g.phyxels) {
    g.offset.push_back(body_->position[static_cast<std::size_t>(j)] - g.from);
    body_->inv_mass[static_cast<std::size_t>(j)] = 0.0;
    body_->velocity[static_cast<std::size_t>(j)] = Vec3::Zero();
  }
  return id;
}

void MeshlessBody::move_grab(GrabId id, const Vec3& target) {
  if (Grab* g = grabs_.find(id); g && target.allFinite()) g->target = target;
}

void MeshlessBody::release(GrabId id) {
  if (!grabs_.release(id)) return;
  const Grab& g = grabs_[id];
  for (Index j : g.phyxels) {
    if (!fixed_[static_cast<std::size_t>(j)]) body_->set_fixed(j, false);
  }
  // A phyxel shared with another live grab stays held.
  grabs_.for_each([&](const Grab& other) {
    for (Index j : other.phyxels) body_->inv_mass[static_cast<std::size_t>(j)] = 0.0;
  });
  pending_released_.push_back({id, g.vertex, x_surface_[static_cast<std::size_t>(g.vertex)]});
}

Vec3 MeshlessBody::grab_reaction(GrabId id) const {
  const Grab* g = grabs_.find(id);
  return g ? g->reaction : Vec3::Zero();
}

std::span<const Index> MeshlessBody::grab_phyxels(GrabId id) const {
  const Grab* g = grabs_.find(id);
  return g ? std::span<const Index>(g->phyxels) : std::span<const Index>();
}

std::span<const Index> MeshlessBody::grab_vertices(GrabId id) const {
  const Grab* g = grabs_.find(id);
  return g ? std::span<const Index>(&g->vertex, 1) : std::span<const Index>();
}

Index MeshlessBody::grab_vertex(GrabId id) const {
  const Grab* g = grabs_.find(id);
  return g ? g->vertex : -1;
}

void MeshlessBody::renumber_grabs(std::span<const Index> renumbered) {
  grabs_.for_each([&](Grab& g) {
    if (g.vertex < 0 || static_cast<std::size_t>(g.vertex) >= std::min(renumbered.size(), x_surface_.size()))
      return;
    if (renumbered[static_cast<std::size_t>(g.vertex)] >= 0) {
      g.vertex = renumbered[static_cast<std::size_t>(g.vertex)];
      return;
    }
    // Its vertex was removed (a point no triangle used): the nearest vertex kept stands for it (among
    // those that had positions before the cut; the renumbering also covers the vertices it added).
    const Vec3 at = x_surface_[static_cast<std::size_t>(g.vertex)];
    double best = INFINITY;
    for (std::size_t v = 0; v < std::min(renumbered.size(), x_surface_.size()); ++v) {
      if (renumbered[v] < 0) continue;
      if (const double d = (x_surface_[v] - at).squaredNorm(); d < best) {
        best = d;
        g.vertex = renumbered[v];
      }
    }
  });
}

bool MeshlessBody::cut(const Blade& blade) {
  if (!(swept_area(blade) > 0.0)) return false;
  Aabb blade_box, body_box;
  for (const Vec3& p : {blade.a0, blade.b0, blade.a1, blade.b1}) blade_box.extend(p);
  for (const Vec3& p : body_->position) body_box.extend(p);
  if (!blade_box.overlaps(body_box.inflated(body_->spacing))) return false;
  pending_cuts_.push_back(blade);
  return true;
}

void MeshlessBody::add_surface_force(Index vertex, const Vec3& f) {
  if (vertex < 0 || static_cast<std::size_t>(vertex) >= surface_.vertex_count() || !f.allFinite()) return;
  surface_.scatter_force(vertex, f, external_);
}

double MeshlessBody::largest_stretch() const { return std::sqrt(model_->max_stretch2()); }

double MeshlessBody::elastic_energy() const { return model_->elastic_energy(body_->position); }

void MeshlessBody::step(double dt, Profile& profile) {
  released_.swap(pending_released_);
  pending_released_.clear();
  Stopwatch watch;
  cut_events_.clear();
  if (!pending_cuts_.empty()) {
    for (const Blade& blade : pending_cuts_) {
      // A sweep can cut surface edges and no link (between the surface and the outer phyxels), so
      // both are looked at.
      const Index links = cut_links(*body_, body_->position, blade, def_.mls.max_condition, cut_events_);
      // The surface: refitted, split or slit along the cut (surface_cutter.hpp).
      const SurfaceCutter::Outcome outcome =
          cutter_.sweep(surface_, *body_, body_->position, x_surface_, blade, links > 0);
      if (!outcome.renumbered.empty()) renumber_grabs(outcome.renumbered);
      if (outcome.changed) {  // new vertices get positions at once, for a next blade
        x_surface_.resize(surface_.vertex_count());
        n_surface_.resize(surface_.vertex_count());
        surface_.update(body_->position, x_surface_, n_surface_);
      }
    }
    pending_cuts_.clear();
    profile.record("meshless.cut", watch.ms());
    watch.reset();
  }
  if (dt > 0.0 && std::isfinite(dt)) {
    const bool any_grab = !grabs_.empty();
    // How many live grabs hold each phyxel (zero between steps).
    holders_.resize(body_->position.size(), 0);
    grabs_.for_each([&](const Grab& g) {
      for (Index j : g.phyxels) ++holders_[static_cast<std::size_t>(j)];
    });
    // Equal substeps no longer than the control's substep (the fixed dt when one is given). When the
    // body stiffens during the step (it stretches: ExplicitStepControl), what is left of dt is split
    // again into shorter equal substeps.
    const auto split = [&](double left) {
      const double limit = def_.dt > 0.0 ? def_.dt : control_.substep();
      const double count = std::max(1.0, std::ceil(left / limit * (1.0 - 1e-12)));
      return count > 1e7 ? 10'000'000 : static_cast<int>(count);
    };
    int substeps = split(dt), taken = 0;
    double done = 0.0;  // time advanced (unit: s)
    double h = dt / substeps;
    last_substeps_ = 0;
    last_residual_ = 0.0;
    while (taken < substeps) {
      if (integrator_.def().dt != h) {
        dynamics::IntegratorDef d = integrator_.def();
        d.dt = h;
        integrator_.set_def(d);
      }
      integrator_.step(*model_, body_->position, body_->velocity);
      if (dynamics::is_implicit(integrator_.def().scheme))
        last_residual_ = std::max(last_residual_, integrator_.last_relative_residual());
      ++taken;
      ++last_substeps_;
      done = taken == substeps ? dt : done + h;
      update_plasticity(*body_, body_->position, h);
      if (def_.floor) {
        const double z = *def_.floor + 0.5 * body_->spacing;
        for (std::size_t j = 0; j < body_->position.size(); ++j) {
          if (body_->inv_mass[j] == 0.0 || body_->position[j].z() >= z) continue;
          body_->position[j].z() = z;
          body_->velocity[j].z() = std::max(body_->velocity[j].z(), 0.0);
        }
      }
      if (any_grab) {
        // A phyxel that several grabs hold (neighbouring surface vertices share phyxels) goes to the
        // mean of where each puts it: taking the last grab's would move it between the grabs' frames
        // whenever their targets move apart (contacts caught at different steps), a jump whose velocity,
        // jump/h, pumps energy into the body.
        const double t = done / dt;
        grabs_.for_each([&](const Grab& g) {
          for (Index j : g.phyxels) scratch_[static_cast<std::size_t>(j)] = Vec3::Zero();
        });
        grabs_.for_each([&](const Grab& g) {
          const Vec3 handle = (1.0 - t) * g.from + t * g.target;
          for (std::size_t k = 0; k < g.phyxels.size(); ++k) {
            const auto j = static_cast<std::size_t>(g.phyxels[k]);
            scratch_[j] += (handle + g.offset[k]) / holders_[j];
          }
        });
        grabs_.for_each([&](const Grab& g) {
          for (Index p : g.phyxels) {
            const auto j = static_cast<std::size_t>(p);
            if (holders_[j] < 0) continue;  // moved already, through another grab
            holders_[j] = -holders_[j];
            body_->velocity[j] = (scratch_[j] - body_->position[j]) / h;
            body_->position[j] = scratch_[j];
          }
        });
        grabs_.for_each([&](const Grab& g) {
          for (Index p : g.phyxels)
            holders_[static_cast<std::size_t>(p)] = std::abs(holders_[static_cast<std::size_t>(p)]);
        });
      }
      if (def_.dt == 0.0 && !dynamics::is_implicit(def_.scheme) && control_.observe(model_->stiffening()) &&
          taken < substeps) {
        const double left = dt - done;
        substeps = taken + split(left);
        h = left / (substeps - taken);
      }
    }
    substep_ = h;
    grabs_.for_each([](Grab& g) { g.from = g.target; });
    if (any_grab) {
      // The body's force on each held phyxel, its own weight included (a grab holds it up too), shared
      // equally among the grabs that hold it: neighbouring surface vertices share phyxels, and their
      // reactions must add up to the force holding each phyxel once.
      model_->elastic_forces(body_->position, scratch_);
      grabs_.for_each([&](Grab& g) {
        g.reaction = Vec3::Zero();
        for (Index j : g.phyxels) {
          const auto i = static_cast<std::size_t>(j);
          g.reaction += (scratch_[i] + body_->mass[i] * def_.gravity) / holders_[i];
        }
      });
      grabs_.for_each([&](const Grab& g) {
        for (Index j : g.phyxels) holders_[static_cast<std::size_t>(j)] = 0;
      });
    }
  }
  std::fill(external_.begin(), external_.end(), Vec3::Zero());
  profile.record("meshless.solve", watch.ms());
  watch.reset();
  surface_.update(body_->position, x_surface_, n_surface_);
  profile.record("meshless.surface", watch.ms());
}

void MeshlessBody::volume_change(std::span<double> out) const {
  if (out.size() != surface_.vertex_count()) return;
  for (std::size_t v = 0; v < out.size(); ++v) {
    out[v] = surface_.deformation_gradient(body_->position, static_cast<Index>(v)).determinant() - 1.0;
  }
}

std::uint64_t MeshlessBody::state_hash() const {
  return Hasher().add(body_->position).add(body_->velocity).add(x_surface_).value();
}

}  // namespace pliant::meshless
