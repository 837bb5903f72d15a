// `pliant info FILE.green`: describes a Green's function asset (header, sizes, material) after
// checking it completely (magic, version, size, checksum).
#include "cli.hpp"

#if PLIANT_HAS_GREEN
#include "pliant/models/green/green_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace pliant::cli {
namespace {

std::string info_green(const std::string& path, bool json) {
  const green::GreenAsset asset = unwrap(green::load_green_file(path));
  std::size_t control_nodes = 0;
  for (const auto& e : asset.control_elements()) control_nodes += e.volume_nodes.size();
  std::size_t constrained = 0;
  for (auto c : asset.constrained()) constrained += c;
  const std::size_t ns = static_cast<std::size_t>(asset.surface_node_count());
  const std::size_t dense_bytes = 4 * green::GreenAsset::packed_floats(ns);
  const std::size_t block_bytes = asset.surface_block().stored_bytes();
  // Compression ratio: the dense packed lower triangle in float over what is stored.
  const double ratio =
      static_cast<double>(dense_bytes) / static_cast<double>(std::max<std::size_t>(block_bytes, 1));
  const auto file_bytes = std::filesystem::file_size(path);
  if (json) {
    nlohmann::json j = {{"file", path},
                        {"format", "pliant green"},
                        {"version", green::kGreenFormatVersion},
                        {"precision", "float32"},
                        {"volume_nodes", asset.volume_node_count},
                        {"tets", asset.tet_count},
                        {"surface_nodes", ns},
                        {"surface_triangles", asset.surface().triangles.size()},
                        {"constrained_surface_nodes", constrained},
                        {"control_elements", asset.control_elements().size()},
                        {"control_nodes", control_nodes},
                        {"youngs_modulus_pa", asset.material.youngs_modulus()},
                        {"poisson_ratio", asset.material.poisson_ratio()},
                        {"block_bytes", block_bytes},
                        {"compressed", asset.compressed()},
                        {"compress_tolerance", asset.compress_tolerance()},
                        {"compression_ratio", ratio},
                        {"file_bytes", file_bytes},
                        {"precompute_s", asset.precompute_seconds},
                        {"mesh_hash", fmt::format("{:016x}", asset.mesh_hash)},
                        {"constraint_hash", fmt::format("{:016x}", asset.constraint_hash)}};
    return j.dump(2) + "\n";
  }
  std::string out;
  out += fmt::format("{}: Pliant Green's function asset, format version {}, float32, checksum ok\n", path,
                     green::kGreenFormatVersion);
  out += fmt::format("  volume mesh      {} nodes, {} tets (hash {:016x})\n", asset.volume_node_count,
                     asset.tet_count, asset.mesh_hash);
  out += fmt::format("  surface          {} nodes ({} constrained), {} triangles\n", ns, constrained,
                     asset.surface().triangles.size());
  out += fmt::format("  constraints      {} control elements ({} nodes) (hash {:016x})\n",
                     asset.control_elements().size(), control_nodes, asset.constraint_hash);
  out += fmt::format("  material         E = {:.6g} Pa, nu = {:.4g} (lambda {:.6g} Pa, mu {:.6g} Pa)\n",
                     asset.material.youngs_modulus(), asset.material.poisson_ratio(), asset.material.lambda,
                     asset.material.mu);
  if (asset.compressed()) {
    const linalg::HMatrix& h = *asset.surface_block().hierarchical();
    out += fmt::format(
        "  Green's block    {:.1f} MiB hierarchical (tolerance {:.3g}; {} blocks, {} low-rank, max rank {}); "
        "dense would be {:.1f} MiB: compression ratio {:.1f}; file {:.1f} MiB\n",
        block_bytes / 1048576.0, asset.compress_tolerance(), h.blocks().size(), h.low_rank_blocks(),
        h.max_rank(), dense_bytes / 1048576.0, ratio, static_cast<double>(file_bytes) / 1048576.0);
  } else {
    out += fmt::format("  Green's block    {:.1f} MiB packed (4.5 Ns^2 floats); file {:.1f} MiB\n",
                       block_bytes / 1048576.0, static_cast<double>(file_bytes) / 1048576.0);
  }
  out += fmt::format("  precomputed in   {:.2f} s\n", asset.precompute_seconds);
  return out;
}

}  // namespace
PLIANT_REGISTER_INFO(".green", info_green);
}  // namespace pliant::cli
#endif
