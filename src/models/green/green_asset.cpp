// Precomputation of the surface Green's function (Nikitina et al. 2003; Bro-Nielsen & Cotin 1996). See
// green_asset.hpp for the maths; this file is the factor-once, solve-in-blocks driver.
#include "pliant/models/green/green_asset.hpp"

#include "pliant/core/geometry.hpp"

#include "pliant/core/hash.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/linalg/hmatrix_build.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/materials/material_hash.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <string>

namespace pliant::green {

Mat3 GreenAsset::green_block(Index i, Index j) const { return surface_block_->node_block(i, j); }

GreenAsset GreenAsset::from_parts(TriMesh surface, std::vector<Index> volume_node,
                                  std::vector<std::uint8_t> constrained,
                                  std::vector<ControlElement> control_elements,
                                  std::shared_ptr<const void> storage, const float* block,
                                  const float* control, const float* body_force) {
  GreenAsset a;
  a.surface_ = std::move(surface);
  a.volume_node_ = std::move(volume_node);
  a.constrained_ = std::move(constrained);
  a.control_elements_ = std::move(control_elements);
  a.storage_ = std::move(storage);
  a.block_ = block;
  a.control_ = control;
  a.body_force_ = body_force;
  a.surface_block_ = std::make_shared<PackedSurfaceBlock>(block, a.surface_node_count());
  return a;
}

GreenAsset GreenAsset::from_parts(TriMesh surface, std::vector<Index> volume_node,
                                  std::vector<std::uint8_t> constrained,
                                  std::vector<ControlElement> control_elements,
                                  std::shared_ptr<const void> storage, linalg::HMatrix block,
                                  const float* control, const float* body_force) {
  GreenAsset a = from_parts(std::move(surface), std::move(volume_node), std::move(constrained),
                            std::move(control_elements), std::move(storage), nullptr, control, body_force);
  a.surface_block_ = std::make_shared<CompressedSurfaceBlock>(std::move(block));
  return a;
}

std::uint64_t mesh_hash(const TetMesh& mesh) {
  Hasher h(0x6d657368ULL);
  const std::uint64_t counts[2] = {mesh.node_count(), mesh.tet_count()};
  h.add(counts, sizeof counts);
  h.add(mesh.positions);
  h.add(mesh.tets);
  return h.value();
}

std::uint64_t constraint_hash(std::span<const Index> fixed_nodes,
                              std::span<const ControlElementSpec> controls) {
  auto sorted = [](std::span<const Index> v) {
    std::vector<Index> s(v.begin(), v.end());
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    return s;
  };
  Hasher h(0x636f6e73ULL);
  const auto fixed = sorted(fixed_nodes);
  h.add_value(fixed.size()).add(fixed);
  h.add_value(controls.size());
  for (const auto& c : controls) {
    const auto n = sorted(c.nodes);
    h.add_value(n.size()).add(n);
  }
  return h.value();
}

std::uint64_t asset_key(const TetMesh& mesh, const materials::Material& material,
                        std::span<const Index> fixed_nodes, std::span<const ControlElementSpec> controls,
                        const GreenBuildSettings& settings) {
  Hasher key(0x72616e6bULL);
  key.add_value(mesh_hash(mesh)).add_value(constraint_hash(fixed_nodes, controls));
  materials::add_to_hash(key, material);
  key.add_value(settings.compress_tolerance).add_value(settings.block_columns);
  return key.value();
}

std::size_t estimate_build_bytes(const TetMesh& mesh, std::size_t surface_nodes, std::size_t controls,
                                 int threads, int block_columns) {
  const double n = static_cast<double>(mesh.node_count());
  const double stored = 4.0 * (static_cast<double>(GreenAsset::packed_floats(surface_nodes)) +
                               36.0 * static_cast<double>(surface_nodes) * static_cast<double>(controls) +
                               9.0 * static_cast<double>(surface_nodes));
  // Supernodal Cholesky of a 3D tet stiffness: nnz(L) grows like n^(4/3); 9 · n · 12 n^(1/3) doubles
  // over-estimates what we measured on beams and tubes, which is the safe side for a refusal.
  const double factor = 8.0 * 9.0 * n * 12.0 * std::cbrt(std::max(n, 1.0));
  const double rhs = 2.0 * 8.0 * 3.0 * n * block_columns;
  const double t = std::max(threads, 1);
  return static_cast<std::size_t>(stored + t * (factor + rhs) + 200.0 * n);
}

namespace {

std::vector<Index> sorted_unique(std::span<const Index> v) {
  std::vector<Index> s(v.begin(), v.end());
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

}  // namespace

Result<GreenAsset> build_green_asset(const TetMesh& mesh, const materials::Material& material,
                                     std::span<const Index> fixed_nodes,
                                     std::span<const ControlElementSpec> controls,
                                     const GreenBuildSettings& settings) {
  auto built = build_green_asset(mesh, material, fixed_nodes, controls, settings, linalg::single_process());
  if (!built) return Error{built.message()};
  return std::move(**built);
}

Result<std::optional<GreenAsset>> build_green_asset(const TetMesh& mesh, const materials::Material& material,
                                                    std::span<const Index> fixed_nodes,
                                                    std::span<const ControlElementSpec> controls,
                                                    const GreenBuildSettings& settings,
                                                    linalg::Communicator& processes) {
  Stopwatch clock;
  const int rank = processes.rank(), ranks = processes.size();
  // Ranks that read different inputs would deadlock later (one fails, the others wait): compare first.
  {
    if (!processes.all_equal(asset_key(mesh, material, fixed_nodes, controls, settings)))
      return Error{"green: the " + std::to_string(ranks) +
                   " processes disagree on the mesh, material, constraints or settings (every rank must run "
                   "the same command on the same files)"};
  }
  // Every rank stops when one fails, with the lowest failing rank's message.
  const auto agree = [&](std::string error) -> std::string {
    const int failed = processes.first_failed(error.empty());
    if (failed < 0) return {};
    processes.broadcast(error, failed);
    return ranks > 1 ? "rank " + std::to_string(failed) + ": " + error : error;
  };
  const auto cancelled = [&] { return settings.cancel && settings.cancel->load(std::memory_order_relaxed); };
  const double tol = settings.compress_tolerance;
  if (!(tol >= 0.0 && tol <= 1.0))
    return Error{"green: compression tolerance " + std::to_string(tol) + " must be in (0, 1] (0: dense)"};
  const bool compress = tol > 0.0;
  if (Status s = materials::validate(material); !s) return Error{"green: " + s.message()};
  auto assembler = fem::StiffnessAssembler::build(mesh);
  if (!assembler) return Error{"green: " + assembler.message()};
  const Index nodes = static_cast<Index>(mesh.node_count());

  // Constrained set: fixed nodes plus every control element's nodes, which must not overlap.
  std::vector<int> owner(static_cast<std::size_t>(nodes), -2);  // -2 free, -1 fixed, e >= 0 element
  for (Index n : fixed_nodes) {
    if (n < 0 || n >= nodes)
      return Error{"green: fixed node " + std::to_string(n) + " out of range (mesh has " +
                   std::to_string(nodes) + " nodes)"};
    owner[static_cast<std::size_t>(n)] = -1;
  }
  std::vector<ControlElement> elements(controls.size());
  for (std::size_t e = 0; e < controls.size(); ++e) {
    const auto ns = sorted_unique(controls[e].nodes);
    if (ns.empty()) return Error{"green: control element " + std::to_string(e) + " has no nodes"};
    for (Index n : ns) {
      if (n < 0 || n >= nodes)
        return Error{"green: control element " + std::to_string(e) + ": node " + std::to_string(n) +
                     " out of range (mesh has " + std::to_string(nodes) + " nodes)"};
      int& o = owner[static_cast<std::size_t>(n)];
      if (o != -2)
        return Error{"green: control element " + std::to_string(e) + ": node " + std::to_string(n) +
                     (o == -1 ? " is also fixed" : " also belongs to control element " + std::to_string(o))};
      o = static_cast<int>(e);
      const Vec3& x = mesh.positions[static_cast<std::size_t>(n)];
      elements[e].count += 1;
      elements[e].sum += x;
      elements[e].sum_outer += x * x.transpose();
    }
    elements[e].volume_nodes = ns;
  }
  std::vector<Index> constrained_nodes;
  for (Index n = 0; n < nodes; ++n)
    if (owner[static_cast<std::size_t>(n)] != -2) constrained_nodes.push_back(n);
  if (constrained_nodes.empty())
    return Error{"green: no fixed nodes and no control elements: the body could move rigidly (use --fix)"};
  auto dofs = fem::DofMap::from_fixed_nodes(mesh, constrained_nodes);
  if (!dofs) return Error{"green: " + dofs.message()};

  fem::SparseMatrix K;
  assembler->assemble(mesh, material, K);
  const fem::SparseMatrix A = dofs->restrict_matrix(K);

  BoundarySurface boundary = extract_boundary(mesh);
  const std::size_t ns = boundary.volume_node.size();
  std::vector<std::uint8_t> constrained(ns, 0);
  for (std::size_t i = 0; i < ns; ++i)
    constrained[i] = owner[static_cast<std::size_t>(boundary.volume_node[i])] != -2 ? 1 : 0;

  // Free surface nodes are the columns we solve for; reduced row of each surface DOF (-1 if fixed).
  std::vector<Index> column_nodes;
  std::vector<Index> surface_row(3 * ns, -1);
  for (std::size_t i = 0; i < ns; ++i) {
    for (int c = 0; c < 3; ++c) surface_row[3 * i + c] = dofs->reduced_index(3 * boundary.volume_node[i] + c);
    if (!constrained[i]) column_nodes.push_back(static_cast<Index>(i));
  }

  auto storage = std::make_shared<std::vector<float>>();
  const std::size_t packed = compress ? 0 : GreenAsset::packed_floats(ns);
  storage->assign(packed + 36 * ns * controls.size() + 9 * ns, 0.0f);
  float* block = storage->data();
  float* control = block + packed;
  float* body_force = control + 36 * ns * controls.size();

  // Threads from the library-wide policy (set_threads > OMP_NUM_THREADS > cores), BLAS at one thread
  // under them: each OpenMP thread already solves its own right-hand sides.
  const int threads = settings.threads > 0 ? settings.threads : solver_threads();
  apply_blas_threads();
  const int per_block_nodes = std::max(1, settings.block_columns / 3);
  const std::size_t node_blocks =
      compress ? 0 : (column_nodes.size() + per_block_nodes - 1) / per_block_nodes;
  const std::size_t total_tasks = node_blocks + controls.size();

  // One factor per thread: a CHOLMOD factor object keeps its workspace, so threads cannot share one.
  std::vector<std::optional<linalg::SparseCholesky>> factors(static_cast<std::size_t>(threads));
  std::string factor_error;
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (int t = 0; t < threads; ++t) {
    auto f = linalg::SparseCholesky::factor(A);
    if (f) {
      factors[static_cast<std::size_t>(t)].emplace(std::move(f).value());
    } else {
#pragma omp critical
      factor_error = f.message();
    }
  }
  if (std::string e = agree(factor_error); !e.empty()) return Error{"green: " + e};
  if (settings.progress) settings.progress(0.0);

  const Eigen::Index nfree = A.rows();
  // Tasks are dealt round-robin over the ranks (every rank's share mixes near and far columns).
  const auto mine = [&](std::size_t task) {
    return static_cast<int>(task % static_cast<std::size_t>(ranks)) == rank;
  };
  std::size_t my_tasks = 0;
  for (std::size_t task = 0; task < total_tasks; ++task) my_tasks += mine(task) ? 1 : 0;
  std::atomic<std::size_t> done{0};
#pragma omp parallel num_threads(threads)
  {
    const linalg::SparseCholesky& factor = *factors[static_cast<std::size_t>(omp_get_thread_num())];
    Eigen::MatrixXd rhs;
    Eigen::MatrixXd x;
#pragma omp for schedule(dynamic, 1)
    for (std::size_t task = 0; task < total_tasks; ++task) {
      if (!mine(task) || cancelled()) continue;  // no break in omp for
      if (task < node_blocks) {
        // Unit loads on the free surface nodes [first, last): columns of A⁻¹ restricted to the surface.
        const std::size_t first = task * per_block_nodes;
        const std::size_t last = std::min(column_nodes.size(), first + per_block_nodes);
        const Eigen::Index cols = static_cast<Eigen::Index>(3 * (last - first));
        rhs.setZero(nfree, cols);
        for (std::size_t k = first; k < last; ++k)
          for (int c = 0; c < 3; ++c)
            rhs(surface_row[3 * column_nodes[k] + c], static_cast<Eigen::Index>(3 * (k - first) + c)) = 1.0;
        x = factor.solve(rhs);
        for (std::size_t k = first; k < last; ++k) {
          const std::size_t j = static_cast<std::size_t>(column_nodes[k]);
          const Eigen::Index col0 = static_cast<Eigen::Index>(3 * (k - first));
          for (std::size_t i = j; i < ns; ++i) {
            if (constrained[i]) continue;
            float* out = block + 9 * (i * (i + 1) / 2 + j);
            for (int r = 0; r < 3; ++r)
              for (int c = 0; c < 3; ++c)
                out[3 * r + c] = static_cast<float>(x(surface_row[3 * i + r], col0 + c));
          }
        }
      } else {
        // Control element e: right-hand sides −B b^(k) for its 12 basis motions.
        const std::size_t e = task - node_blocks;
        rhs.setZero(nfree, 12);
        Eigen::VectorXd b_full = Eigen::VectorXd::Zero(3 * nodes);
        for (int k = 0; k < 12; ++k) {
          b_full.setZero();
          for (Index n : elements[e].volume_nodes) {
            const Vec3& X = mesh.positions[static_cast<std::size_t>(n)];
            for (int r = 0; r < 3; ++r) {
              double v = 0;
              if (k < 3)
                v = (r == k) ? 1.0 : 0.0;
              else if ((k - 3) / 3 == r)
                v = X[(k - 3) % 3];
              b_full[3 * n + r] = v;
            }
          }
          rhs.col(k) = dofs->reduced_rhs(K, Eigen::VectorXd::Zero(3 * nodes), b_full);
        }
        x = factor.solve(rhs);
        float* out = control + 36 * ns * e;
        for (std::size_t i = 0; i < ns; ++i) {
          const Index vn = boundary.volume_node[i];
          const int o = owner[static_cast<std::size_t>(vn)];
          const Vec3& X = mesh.positions[static_cast<std::size_t>(vn)];
          for (int k = 0; k < 12; ++k)
            for (int r = 0; r < 3; ++r) {
              double v = 0;
              if (o == -2)
                v = x(surface_row[3 * i + r], k);
              else if (o == static_cast<int>(e))
                v = k < 3 ? (r == k ? 1.0 : 0.0) : ((k - 3) / 3 == r ? X[(k - 3) % 3] : 0.0);
              out[static_cast<std::size_t>(k) * 3 * ns + 3 * i + r] = static_cast<float>(v);
            }
        }
      }
      const std::size_t finished = ++done;
      if (omp_get_thread_num() == 0 && settings.progress)
        settings.progress(static_cast<double>(finished) /
                          static_cast<double>(std::max<std::size_t>(my_tasks, 1)));
    }
  }
  if (!agree(cancelled() ? "precomputation cancelled" : "").empty())
    return Error{"green: precomputation cancelled"};
  // Rank 0 collects every rank's columns: each value was written by one rank, zero bits elsewhere.
  if (ranks > 1) processes.gather_or(std::as_writable_bytes(std::span(*storage)));

  // Compressed: the columns of one leaf cluster of surface nodes per solve block (a panel over all
  // surface rows), handed to the hierarchical builder a batch at a time, so at most one batch of
  // panels exists besides the compressed blocks (never the dense block).
  std::optional<linalg::HMatrix> hblock;
  if (compress) {
    linalg::HMatrixPanelBuilder builder(boundary.mesh.positions, 3,
                                        {.tolerance = tol, .leaf_size = per_block_nodes, .threads = threads});
    const std::vector<Index>& leaves = builder.leaves();
    // A round gives each rank `threads` leaves; rank 0 adds the round's panels in leaf order, so the
    // blocks see the same panels in the same order as in one process.
    const std::size_t batch = static_cast<std::size_t>(threads);
    const std::size_t round = batch * static_cast<std::size_t>(ranks);
    std::vector<Eigen::MatrixXd> panels(round);
    for (std::size_t first = 0; first < leaves.size(); first += round) {
      if (!agree(cancelled() ? "precomputation cancelled" : "").empty())
        return Error{"green: precomputation cancelled"};
      const std::size_t count = std::min(round, leaves.size() - first);
      const auto share_begin = [&](int r) { return std::min(count, batch * static_cast<std::size_t>(r)); };
      const std::size_t own = share_begin(rank), own_end = share_begin(rank + 1);
#pragma omp parallel for num_threads(threads) schedule(static, 1)
      for (std::size_t k = own; k < own_end; ++k) {
        const linalg::SparseCholesky& factor = *factors[static_cast<std::size_t>(omp_get_thread_num())];
        const std::vector<Index> cols = builder.leaf_columns(leaves[first + k]);  // surface DOFs
        const Eigen::Index w = static_cast<Eigen::Index>(cols.size());
        Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(nfree, w);
        for (Eigen::Index c = 0; c < w; ++c) {
          const Index row = surface_row[static_cast<std::size_t>(cols[static_cast<std::size_t>(c)])];
          if (row >= 0 && !constrained[static_cast<std::size_t>(cols[static_cast<std::size_t>(c)] / 3)])
            rhs(row, c) = 1.0;
        }
        const Eigen::MatrixXd x = factor.solve(rhs);
        Eigen::MatrixXd& panel = panels[k];
        panel.setZero(static_cast<Eigen::Index>(3 * ns), w);
        for (Eigen::Index c = 0; c < w; ++c) {
          if (!constrained[static_cast<std::size_t>(cols[static_cast<std::size_t>(c)] / 3)])
            for (std::size_t i = 0; i < ns; ++i) {
              if (constrained[i]) continue;
              for (int r = 0; r < 3; ++r)
                panel(static_cast<Eigen::Index>(3 * i + r), c) = x(surface_row[3 * i + r], c);
            }
        }
      }
      for (int r = 1; r < ranks; ++r)
        for (std::size_t k = share_begin(r); k < share_begin(r + 1); ++k) {
          if (rank == 0)
            panels[k].resize(static_cast<Eigen::Index>(3 * ns),
                             static_cast<Eigen::Index>(builder.leaf_columns(leaves[first + k]).size()));
          if (rank == 0 || rank == r)
            processes.send_to_root(r, std::span(panels[k].data(), panels[k].size()));
        }
      if (rank == 0)
        builder.add_panels(std::span(leaves).subspan(first, count), std::span(panels).first(count));
      if (settings.progress)
        settings.progress(static_cast<double>(first + count) / static_cast<double>(leaves.size() + 1));
    }
    if (rank == 0) hblock.emplace(builder.finish());
  }
  // Only rank 0 holds every column: it alone solves the body forces and returns the asset.
  if (rank != 0) return std::optional<GreenAsset>();

  // Unit body-force densities along x, y, z: node loads V_n e_k (a quarter of each incident tet's volume).
  {
    std::vector<double> node_volume(static_cast<std::size_t>(nodes), 0.0);
    for (const Tet& t : mesh.tets) {
      const auto at = [&](int c) -> const Vec3& { return mesh.positions[static_cast<std::size_t>(t[c])]; };
      const double v = std::abs(signed_volume(at(0), at(1), at(2), at(3)));
      for (Index a : t) node_volume[static_cast<std::size_t>(a)] += 0.25 * v;
    }
    Eigen::MatrixXd rhs(nfree, 3);
    const Eigen::VectorXd none = Eigen::VectorXd::Zero(3 * nodes);
    Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * nodes);
    for (int k = 0; k < 3; ++k) {
      f.setZero();
      for (Index n = 0; n < nodes; ++n) f[3 * n + k] = node_volume[static_cast<std::size_t>(n)];
      rhs.col(k) = dofs->reduced_rhs(K, f, none);
    }
    const Eigen::MatrixXd x = factors.front()->solve(rhs);
    for (std::size_t i = 0; i < ns; ++i) {
      if (constrained[i]) continue;
      for (int k = 0; k < 3; ++k)
        for (int r = 0; r < 3; ++r)
          body_force[static_cast<std::size_t>(k) * 3 * ns + 3 * i + r] =
              static_cast<float>(x(surface_row[3 * i + r], k));
    }
  }
  if (settings.progress) settings.progress(1.0);

  const float* block_ptr = block;
  const float* control_ptr = control;
  const float* body_force_ptr = body_force;
  GreenAsset asset =
      compress ? GreenAsset::from_parts(std::move(boundary.mesh), std::move(boundary.volume_node),
                                        std::move(constrained), std::move(elements), std::move(storage),
                                        std::move(*hblock), control_ptr, body_force_ptr)
               : GreenAsset::from_parts(std::move(boundary.mesh), std::move(boundary.volume_node),
                                        std::move(constrained), std::move(elements), std::move(storage),
                                        block_ptr, control_ptr, body_force_ptr);
  asset.mesh_hash = mesh_hash(mesh);
  asset.constraint_hash = constraint_hash(fixed_nodes, controls);
  asset.material = material;
  asset.volume_node_count = nodes;
  asset.tet_count = static_cast<Index>(mesh.tet_count());
  asset.precompute_seconds = clock.seconds();
  return std::optional<GreenAsset>(std::move(asset));
}

}  // namespace pliant::green
