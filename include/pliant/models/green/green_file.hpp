// The .green asset file: serialisation of a GreenAsset, memory-mapped loading, staleness checks.
//
// Layout (little-endian, every section padded to 8 bytes so that the float block can be used in
// place from a page-aligned mapping):
//   header (120 bytes): magic "PLGREEN\0", u32 format version, u32 bytes per stored value (4 = float),
//     u64 mesh hash, u64 constraint hash, f64 λ, f64 μ, f64 ρ (Pa, Pa, kg/m³), u64 volume nodes,
//     u64 tets, u64 surface nodes Ns, u64 surface triangles, u64 control elements, u64 control nodes
//     (all elements together), f64 precompute seconds, u64 payload bytes
//   payload: surface rest positions (3·Ns f64), triangles (3·Nt i32), surface -> volume node
//     (Ns i32), constrained flags (Ns u8), control node counts (u64 each), control nodes (i32),
//     control moments (13 f64 each: count, Σ X, Σ X Xᵀ row-major), Green block
//     (9·Ns(Ns+1)/2 f32, packed lower triangle of 3×3 node blocks), control responses (36·Ns f32 each),
//     body-force responses (9·Ns f32: 3·Ns per unit force density along x, y, z; since version 2)
//   checksum (u64): core hash_bytes chained over the header and then each payload section.
// Version 3 adds, right after the header, a 16-byte block descriptor (u64 storage: 0 dense packed,
// 1 hierarchical; u64 bytes of the block section); a hierarchical block section holds linalg's
// HMatrix::to_bytes (tree, block table, float factors; see hmatrix.hpp) and is hashed as one range.
// Version 2 files (no descriptor, dense block) are still read.
// The library only reads and writes bytes (a std::ostream, a memory span) and maps files with POSIX
// mmap; atomic writing (write then rename) belongs to the caller (the CLI uses io's
// write_file_atomically), because families do not depend on the io module.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/green/green_asset.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <ostream>
#include <span>
#include <string>

namespace pliant::green {

inline constexpr std::uint32_t kGreenFormatVersion = 3;
inline constexpr std::size_t kGreenHeaderBytes = 120;

/// The decoded header of a .green file.
struct GreenFileHeader {
  std::uint32_t version = 0;
  std::uint32_t value_bytes = 0;  ///< bytes per stored Green's value (4: float)
  std::uint64_t mesh_hash = 0;
  std::uint64_t constraint_hash = 0;
  materials::Material material;
  std::uint64_t volume_nodes = 0;
  std::uint64_t tets = 0;
  std::uint64_t surface_nodes = 0;
  std::uint64_t surface_triangles = 0;
  std::uint64_t control_elements = 0;
  std::uint64_t control_nodes = 0;
  double precompute_seconds = 0;  ///< (unit: s)
  std::uint64_t payload_bytes = 0;
  bool compressed = false;                ///< the block is hierarchical (version 3)
  std::uint64_t block_section_bytes = 0;  ///< bytes of the block section before padding
  double tolerance = 0;                   ///< compression tolerance (dimensionless; 0: dense)

  /// Bytes of the stored Green's block (for `pliant info`).
  std::uint64_t block_bytes() const;
};

/// Writes the asset (header, payload, checksum) to a stream. Fails when the stream fails.
Status write_green(const GreenAsset& asset, std::ostream& out);

/// Decodes and checks the header against the size of `bytes` (magic, version, counts that fit the
/// size exactly, no overflow). `name` is used in messages ("FILE: ...").
Result<GreenFileHeader> read_green_header(std::span<const std::byte> bytes, const std::string& name);

/// Reads a whole file image: header, checksum, index ranges. The asset refers to `bytes` in place
/// when they are suitably aligned (keep `keep_alive` owning them) and copies otherwise.
Result<GreenAsset> read_green(std::span<const std::byte> bytes, std::shared_ptr<const void> keep_alive,
                              const std::string& name);

/// Maps a .green file read-only (POSIX mmap) and reads it with read_green; the mapping lives as
/// long as the asset.
Result<GreenAsset> load_green_file(const std::filesystem::path& path);

/// Fails with "NAME: stale: ..." when the asset was built for another mesh, material or constraint
/// set than the given ones.
Status check_green_matches(const GreenAsset& asset, std::uint64_t mesh_hash,
                           const materials::Material& material, std::uint64_t constraint_hash,
                           const std::string& name);

}  // namespace pliant::green
