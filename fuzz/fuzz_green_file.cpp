// libFuzzer harness: the .green asset loader (green_file.hpp). The header's counts and sizes come from
// the file and must never be trusted: every input is read as it is, and inputs whose header passes
// are read a second time with the checksum recomputed, so that the range checks behind the checksum
// (triangle nodes, surface-to-volume map, control elements) are fuzzed too.
#include "fuzz_checks.hpp"
#include "pliant/core/hash.hpp"
#include "pliant/models/green/green_file.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <vector>

namespace {

using pliant::green::GreenAsset;
using pliant::green::GreenFileHeader;

std::uint64_t pad8(std::uint64_t n) { return (n + 7) / 8 * 8; }

// The checksum as green_file.hpp documents it: the header, the block descriptor (version 3), then
// each padded payload section in file order (a dense Green's block as its floats, then its padding; a
// hierarchical one as one range). An independent reading of the format.
std::uint64_t checksum(const std::byte* file, const GreenFileHeader& h) {
  const std::uint64_t ns = h.surface_nodes, ne = h.control_elements;
  const std::uint64_t block_data = h.compressed ? h.block_section_bytes : 4 * GreenAsset::packed_floats(ns);
  const std::uint64_t sections[] = {h.version >= 3 ? 16u : 0u,
                                    24 * ns,
                                    pad8(12 * h.surface_triangles),
                                    pad8(4 * ns),
                                    pad8(ns),
                                    8 * ne,
                                    pad8(4 * h.control_nodes),
                                    13 * 8 * ne,
                                    pad8(block_data),
                                    36 * ns * ne * 4,
                                    pad8(36 * ns)};
  pliant::Hasher hash(0x677265656eULL);  // "green"
  hash.add(file, pliant::green::kGreenHeaderBytes);
  std::uint64_t offset = pliant::green::kGreenHeaderBytes;
  for (int s = 0; s < static_cast<int>(std::size(sections)); ++s) {
    if (s == 8 && !h.compressed) {
      if (block_data > 0) hash.add(file + offset, block_data);
      if (sections[s] > block_data) hash.add(file + offset + block_data, sections[s] - block_data);
    } else if (sections[s] > 0) {
      hash.add(file + offset, sections[s]);
    }
    offset += sections[s];
  }
  return hash.value();
}

void check_asset(const GreenAsset& a, const GreenFileHeader& h) {
  const std::size_t ns = static_cast<std::size_t>(a.surface_node_count());
  if (ns != h.surface_nodes)
    pliant::fuzz::violated("surface node count differs from the header", "fuzz.green");
  pliant::fuzz::check_cells(a.surface().triangles, ns, "green surface triangles");
  for (const pliant::Index v : a.volume_node())
    if (v < 0 || static_cast<std::uint64_t>(v) >= h.volume_nodes)
      pliant::fuzz::violated("surface-to-volume map out of range", "fuzz.green");
  // Touch the ends of the float block, where a wrong size would read past the input.
  if (ns > 0 && a.compressed()) {
    // Every query of the hierarchical block stays inside its tables: read the ends of the surface.
    const pliant::Index last_node = static_cast<pliant::Index>(ns - 1);
    volatile double corner = a.green_block(last_node, 0)(0, 0) + a.green_block(0, last_node)(2, 2);
    std::vector<double> column(3 * ns);
    a.surface_block().add_column(last_node, pliant::Vec3(1, 1, 1), column.data());
    (void)corner;
  }
  if (ns > 0 && !a.compressed()) {
    volatile float first = a.block()[0];
    volatile float last = a.block()[GreenAsset::packed_floats(ns) - 1];
    volatile float response = a.body_force_response()[9 * ns - 1];
    (void)first;
    (void)last;
    (void)response;
  }
}

void read(std::span<const std::byte> bytes) {
  const auto header = pliant::green::read_green_header(bytes, "fuzz.green");
  const auto asset = pliant::green::read_green(bytes, nullptr, "fuzz.green");
  if (!header.ok()) {
    pliant::fuzz::check_error_message(header.message(), "fuzz.green");
    if (asset.ok()) pliant::fuzz::violated("asset read although its header was refused", header.message());
    return;
  }
  if (asset.ok()) {
    check_asset(*asset, *header);
  } else {
    pliant::fuzz::check_error_message(asset.message(), "fuzz.green");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  read(bytes);
  const auto header = pliant::green::read_green_header(bytes, "fuzz.green");
  if (!header.ok()) return 0;
  // The header fits the size exactly, so the checksum is the last 8 bytes.
  std::vector<std::byte> fixed(bytes.begin(), bytes.end());
  const std::uint64_t sum = checksum(fixed.data(), *header);
  std::uint64_t stored;
  std::memcpy(&stored, fixed.data() + size - 8, 8);
  if (sum == stored) {
    // Our reading of the format and the loader's agree: it must not report a checksum mismatch.
    const auto asset = pliant::green::read_green(bytes, nullptr, "fuzz.green");
    if (!asset.ok() && asset.message().find("checksum") != std::string::npos)
      pliant::fuzz::violated("checksum computed from the documented layout is refused", asset.message());
    return 0;
  }
  std::memcpy(fixed.data() + size - 8, &sum, 8);
  read(fixed);
  return 0;
}
