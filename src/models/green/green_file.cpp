// .green serialisation and memory-mapped loading (format in green_file.hpp).
#include "pliant/models/green/green_file.hpp"

#include "pliant/core/hash.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace pliant::green {

static_assert(std::endian::native == std::endian::little, "the .green format is little-endian");

namespace {

constexpr char kMagic[8] = {'P', 'L', 'G', 'R', 'E', 'E', 'N', '\0'};
constexpr std::uint64_t kChecksumSeed = 0x677265656eULL;  // "green"
constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 31;
// Since version 3, a 16-byte block descriptor follows the header: u64 storage (0 dense packed,
// 1 hierarchical), u64 bytes of the block section.
constexpr std::uint64_t kDescriptorBytes = 16;

std::uint64_t pad8(std::uint64_t n) { return (n + 7) / 8 * 8; }

// Section sizes (padded) in file order, from the header counts; false on overflow.
struct Layout {
  std::uint64_t descriptor, positions, triangles, volume_node, constrained, control_counts, control_nodes,
      control_moments, block, control, body_force;
  std::uint64_t total() const {
    return descriptor + positions + triangles + volume_node + constrained + control_counts + control_nodes +
           control_moments + block + control + body_force;
  }
};

bool make_layout(const GreenFileHeader& h, Layout& l) {
  // Bounds keep every product below 2^63: Ns < 2^27 (a 2^56-byte block), elements < 2^20.
  if (h.surface_nodes >= (std::uint64_t{1} << 27) || h.control_elements >= (std::uint64_t{1} << 20) ||
      h.surface_nodes >= kMaxCount || h.surface_triangles >= kMaxCount || h.control_elements >= kMaxCount ||
      h.control_nodes >= kMaxCount || h.volume_nodes >= kMaxCount || h.tets >= kMaxCount)
    return false;
  const std::uint64_t ns = h.surface_nodes;
  l.positions = 24 * ns;
  l.triangles = pad8(12 * h.surface_triangles);
  l.volume_node = pad8(4 * ns);
  l.constrained = pad8(ns);
  l.control_counts = 8 * h.control_elements;
  l.control_nodes = pad8(4 * h.control_nodes);
  l.control_moments = 13 * 8 * h.control_elements;
  l.descriptor = h.version >= 3 ? kDescriptorBytes : 0;
  l.block = h.compressed ? pad8(h.block_section_bytes) : pad8(4 * GreenAsset::packed_floats(ns));
  if (h.compressed && h.block_section_bytes >= (std::uint64_t{1} << 60)) return false;
  l.control = 36 * ns * h.control_elements * 4;
  l.body_force = pad8(36 * ns);
  return static_cast<long double>(l.total()) < 1e18L;
}

template <class T>
void put(std::vector<char>& buf, const T& v) {
  const char* p = reinterpret_cast<const char*>(&v);
  buf.insert(buf.end(), p, p + sizeof(T));
}

template <class T>
T get(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// Writes `bytes` bytes from `data`, then zero padding to `padded`, feeding both to the checksum.
bool write_section(std::ostream& out, Hasher& h, const void* data, std::uint64_t bytes,
                   std::uint64_t padded) {
  if (padded == 0) return static_cast<bool>(out);
  std::vector<char> section(static_cast<std::size_t>(padded), 0);
  if (bytes > 0) std::memcpy(section.data(), data, static_cast<std::size_t>(bytes));
  h.add(section.data(), section.size());
  out.write(section.data(), static_cast<std::streamsize>(section.size()));
  return static_cast<bool>(out);
}

}  // namespace

std::uint64_t GreenFileHeader::block_bytes() const {
  return compressed ? block_section_bytes : 4 * GreenAsset::packed_floats(surface_nodes);
}

Status write_green(const GreenAsset& asset, std::ostream& out) {
  const std::uint64_t ns = static_cast<std::uint64_t>(asset.surface_node_count());
  const auto& elements = asset.control_elements();
  std::uint64_t control_nodes = 0;
  for (const auto& e : elements) control_nodes += e.volume_nodes.size();

  GreenFileHeader h;
  h.version = kGreenFormatVersion;
  h.value_bytes = 4;
  h.mesh_hash = asset.mesh_hash;
  h.constraint_hash = asset.constraint_hash;
  h.material = asset.material;
  h.volume_nodes = static_cast<std::uint64_t>(asset.volume_node_count);
  h.tets = static_cast<std::uint64_t>(asset.tet_count);
  h.surface_nodes = ns;
  h.surface_triangles = asset.surface().triangles.size();
  h.control_elements = elements.size();
  h.control_nodes = control_nodes;
  h.precompute_seconds = asset.precompute_seconds;
  h.compressed = asset.compressed();
  std::vector<std::byte> hbytes;
  if (h.compressed) hbytes = asset.surface_block().hierarchical()->to_bytes();
  h.block_section_bytes = h.compressed ? hbytes.size() : 4 * GreenAsset::packed_floats(ns);
  Layout l{};
  if (!make_layout(h, l)) return Error{"green: asset too large to write"};
  h.payload_bytes = l.total();

  std::vector<char> header;
  header.insert(header.end(), kMagic, kMagic + 8);
  put(header, h.version);
  put(header, h.value_bytes);
  put(header, h.mesh_hash);
  put(header, h.constraint_hash);
  put(header, h.material.lambda);
  put(header, h.material.mu);
  put(header, h.material.density);
  put(header, h.volume_nodes);
  put(header, h.tets);
  put(header, h.surface_nodes);
  put(header, h.surface_triangles);
  put(header, h.control_elements);
  put(header, h.control_nodes);
  put(header, h.precompute_seconds);
  put(header, h.payload_bytes);
  if (header.size() != kGreenHeaderBytes) return Error{"green: internal error: header size"};

  Hasher hash(kChecksumSeed);
  hash.add(header.data(), header.size());
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  const std::uint64_t descriptor[2] = {h.compressed ? 1u : 0u, h.block_section_bytes};
  hash.add(descriptor, sizeof descriptor);
  out.write(reinterpret_cast<const char*>(descriptor), sizeof descriptor);

  std::vector<std::uint64_t> counts;
  std::vector<Index> nodes;
  std::vector<double> moments;
  for (const auto& e : elements) {
    counts.push_back(e.volume_nodes.size());
    nodes.insert(nodes.end(), e.volume_nodes.begin(), e.volume_nodes.end());
    moments.push_back(e.count);
    for (int r = 0; r < 3; ++r) moments.push_back(e.sum[r]);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) moments.push_back(e.sum_outer(r, c));
  }
  bool ok =
      write_section(out, hash, asset.surface().positions.data(), 24 * ns, l.positions) &&
      write_section(out, hash, asset.surface().triangles.data(), 12 * h.surface_triangles, l.triangles) &&
      write_section(out, hash, asset.volume_node().data(), 4 * ns, l.volume_node) &&
      write_section(out, hash, asset.constrained().data(), ns, l.constrained) &&
      write_section(out, hash, counts.data(), 8 * counts.size(), l.control_counts) &&
      write_section(out, hash, nodes.data(), 4 * nodes.size(), l.control_nodes) &&
      write_section(out, hash, moments.data(), 8 * moments.size(), l.control_moments);
  // The block can be a gigabyte: stream it in chunks without copying, hashing the same way the
  // reader does (one range for the whole padded section).
  if (ok && h.compressed) {
    ok = write_section(out, hash, hbytes.data(), hbytes.size(), l.block);
  } else if (ok) {
    const std::uint64_t bytes = 4 * GreenAsset::packed_floats(ns);
    const char* p = reinterpret_cast<const char*>(asset.block());
    if (bytes > 0) hash.add(p, static_cast<std::size_t>(bytes));
    out.write(p, static_cast<std::streamsize>(bytes));
    const char zeros[8] = {};
    if (l.block > bytes) {
      hash.add(zeros, static_cast<std::size_t>(l.block - bytes));
      out.write(zeros, static_cast<std::streamsize>(l.block - bytes));
    }
  }
  if (ok) {
    const char* c = reinterpret_cast<const char*>(asset.control_response(0));
    if (l.control > 0) {
      hash.add(c, static_cast<std::size_t>(l.control));
      out.write(c, static_cast<std::streamsize>(l.control));
    }
    ok = static_cast<bool>(out) &&
         write_section(out, hash, asset.body_force_response(), 36 * ns, l.body_force);
  }
  const std::uint64_t checksum = hash.value();
  out.write(reinterpret_cast<const char*>(&checksum), sizeof checksum);
  if (!ok || !out) return Error{"green: writing the asset failed"};
  return {};
}

Result<GreenFileHeader> read_green_header(std::span<const std::byte> bytes, const std::string& name) {
  if (bytes.size() < kGreenHeaderBytes + 8)
    return Error{name + ": not a .green file (" + std::to_string(bytes.size()) +
                 " bytes, truncated or empty)"};
  if (std::memcmp(bytes.data(), kMagic, 8) != 0) return Error{name + ": not a .green file (wrong magic)"};
  const std::byte* p = bytes.data() + 8;
  GreenFileHeader h;
  h.version = get<std::uint32_t>(p);
  h.value_bytes = get<std::uint32_t>(p + 4);
  if (h.version != kGreenFormatVersion && h.version != 2)
    return Error{name + ": .green format version " + std::to_string(h.version) +
                 ", this build reads version " + std::to_string(kGreenFormatVersion) +
                 " (rebuild it with pliant precompute)"};
  if (h.value_bytes != 4) return Error{name + ": unsupported value size " + std::to_string(h.value_bytes)};
  p += 8;
  h.mesh_hash = get<std::uint64_t>(p);
  h.constraint_hash = get<std::uint64_t>(p + 8);
  h.material.lambda = get<double>(p + 16);
  h.material.mu = get<double>(p + 24);
  h.material.density = get<double>(p + 32);
  h.volume_nodes = get<std::uint64_t>(p + 40);
  h.tets = get<std::uint64_t>(p + 48);
  h.surface_nodes = get<std::uint64_t>(p + 56);
  h.surface_triangles = get<std::uint64_t>(p + 64);
  h.control_elements = get<std::uint64_t>(p + 72);
  h.control_nodes = get<std::uint64_t>(p + 80);
  h.precompute_seconds = get<double>(p + 88);
  h.payload_bytes = get<std::uint64_t>(p + 96);
  if (h.version >= 3) {
    const std::byte* d = bytes.data() + kGreenHeaderBytes;  // fits: the size was checked above
    if (bytes.size() < kGreenHeaderBytes + kDescriptorBytes + 8)
      return Error{name + ": damaged or truncated: no block descriptor"};
    const std::uint64_t kind = get<std::uint64_t>(d);
    if (kind > 1)
      return Error{name + ": damaged header (unknown block storage " + std::to_string(kind) + ")"};
    h.compressed = kind == 1;
    h.block_section_bytes = get<std::uint64_t>(d + 8);
    if (!h.compressed && h.block_section_bytes != 4 * GreenAsset::packed_floats(h.surface_nodes) &&
        h.surface_nodes < (std::uint64_t{1} << 27))
      return Error{name + ": damaged header (dense block size does not match counts)"};
  } else {
    h.block_section_bytes = 4 * GreenAsset::packed_floats(h.surface_nodes);
  }
  Layout l{};
  if (!make_layout(h, l)) return Error{name + ": damaged header (impossible counts)"};
  if (l.total() != h.payload_bytes)
    return Error{name + ": damaged header (payload size does not match counts)"};
  const std::uint64_t expected = kGreenHeaderBytes + h.payload_bytes + 8;
  if (bytes.size() != expected)
    return Error{name + ": damaged or truncated: " + std::to_string(bytes.size()) + " bytes, header says " +
                 std::to_string(expected)};
  if (h.compressed) {
    // The tolerance is the hierarchical section's f64 at byte 40 (see linalg's HMatrix::to_bytes).
    const std::uint64_t at = kGreenHeaderBytes + l.descriptor + l.positions + l.triangles + l.volume_node +
                             l.constrained + l.control_counts + l.control_nodes + l.control_moments;
    if (l.block < 48) return Error{name + ": damaged: hierarchical block too short"};
    h.tolerance = get<double>(bytes.data() + at + 40);
  }
  return h;
}

Result<GreenAsset> read_green(std::span<const std::byte> bytes, std::shared_ptr<const void> keep_alive,
                              const std::string& name) {
  auto header = read_green_header(bytes, name);
  if (!header) return header.error();
  const GreenFileHeader& h = *header;
  Layout l{};
  make_layout(h, l);
  const std::uint64_t sections[] = {l.descriptor,  l.positions,      l.triangles,     l.volume_node,
                                    l.constrained, l.control_counts, l.control_nodes, l.control_moments,
                                    l.block,       l.control,        l.body_force};
  constexpr int kSections = static_cast<int>(std::size(sections));
  Hasher hash(kChecksumSeed);
  hash.add(bytes.data(), kGreenHeaderBytes);
  std::uint64_t offset = kGreenHeaderBytes;
  std::uint64_t starts[kSections];
  for (int s = 0; s < kSections; ++s) {
    starts[s] = offset;
    if (s == 8 && !h.compressed) {
      // The block is hashed as written: its floats, then the padding (if any) as a second range.
      const std::uint64_t data = 4 * GreenAsset::packed_floats(h.surface_nodes);
      if (data > 0) hash.add(bytes.data() + offset, static_cast<std::size_t>(data));
      if (sections[s] > data)
        hash.add(bytes.data() + offset + data, static_cast<std::size_t>(sections[s] - data));
    } else if (sections[s] > 0) {
      hash.add(bytes.data() + offset, static_cast<std::size_t>(sections[s]));
    }
    offset += sections[s];
  }
  if (hash.value() != get<std::uint64_t>(bytes.data() + offset))
    return Error{name + ": damaged: checksum mismatch (rebuild it with pliant precompute)"};

  const std::size_t ns = static_cast<std::size_t>(h.surface_nodes);
  const std::size_t nt = static_cast<std::size_t>(h.surface_triangles);
  const std::size_t ne = static_cast<std::size_t>(h.control_elements);
  TriMesh surface;
  surface.positions.resize(ns);
  if (ns) std::memcpy(static_cast<void*>(surface.positions.data()), bytes.data() + starts[1], 24 * ns);
  surface.triangles.resize(nt);
  if (nt) std::memcpy(surface.triangles.data(), bytes.data() + starts[2], 12 * nt);
  std::vector<Index> volume_node(ns);
  if (ns) std::memcpy(volume_node.data(), bytes.data() + starts[3], 4 * ns);
  std::vector<std::uint8_t> constrained(ns);
  if (ns) std::memcpy(constrained.data(), bytes.data() + starts[4], ns);
  for (const Vec3& x : surface.positions)
    if (!x.allFinite()) return Error{name + ": damaged: non-finite surface position"};
  for (const Tri& t : surface.triangles)
    for (Index v : t)
      if (v < 0 || static_cast<std::size_t>(v) >= ns)
        return Error{name + ": damaged: triangle node out of range"};
  for (Index v : volume_node)
    if (v < 0 || static_cast<std::uint64_t>(v) >= h.volume_nodes)
      return Error{name + ": damaged: surface-to-volume map out of range"};

  std::vector<ControlElement> elements(ne);
  std::uint64_t node_offset = 0;
  for (std::size_t e = 0; e < ne; ++e) {
    const std::uint64_t count = get<std::uint64_t>(bytes.data() + starts[5] + 8 * e);
    if (count > h.control_nodes - node_offset) return Error{name + ": damaged: control node counts"};
    elements[e].volume_nodes.resize(static_cast<std::size_t>(count));
    if (count)
      std::memcpy(elements[e].volume_nodes.data(), bytes.data() + starts[6] + 4 * node_offset,
                  static_cast<std::size_t>(4 * count));
    node_offset += count;
    for (Index v : elements[e].volume_nodes)
      if (v < 0 || static_cast<std::uint64_t>(v) >= h.volume_nodes)
        return Error{name + ": damaged: control node out of range"};
    const std::byte* m = bytes.data() + starts[7] + 13 * 8 * e;
    elements[e].count = get<double>(m);
    for (int r = 0; r < 3; ++r) elements[e].sum[r] = get<double>(m + 8 * (1 + r));
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) elements[e].sum_outer(r, c) = get<double>(m + 8 * (4 + 3 * r + c));
  }
  if (node_offset != h.control_nodes) return Error{name + ": damaged: control node counts"};

  // The block and responses (contiguous, in that order) are used in place when 4-byte aligned (always
  // for an mmap), else copied.
  const std::byte* block_bytes = bytes.data() + starts[8];
  std::shared_ptr<const void> storage = std::move(keep_alive);
  std::optional<linalg::HMatrix> hblock;
  if (h.compressed) {
    auto hm =
        linalg::HMatrix::from_bytes(std::span(block_bytes, static_cast<std::size_t>(l.block)), storage, name);
    if (!hm) return hm.error();
    if (hm->dofs_per_point() != 3 || static_cast<std::uint64_t>(hm->tree().point_count()) != ns)
      return Error{name + ": damaged: hierarchical block does not match the surface"};
    hblock.emplace(std::move(hm).value());
  }
  const std::byte* first = h.compressed ? block_bytes + l.block : block_bytes;
  const std::uint64_t floats_bytes = (h.compressed ? 0 : l.block) + l.control + l.body_force;
  const float* block = nullptr;
  if (reinterpret_cast<std::uintptr_t>(first) % alignof(float) == 0) {
    block = reinterpret_cast<const float*>(first);
  } else {
    auto copy = std::make_shared<std::vector<float>>(floats_bytes / 4);
    std::memcpy(copy->data(), first, static_cast<std::size_t>(floats_bytes));
    block = copy->data();
    if (hblock) {
      storage = std::make_shared<std::pair<std::shared_ptr<const void>, std::shared_ptr<const void>>>(storage,
                                                                                                      copy);
    } else {
      storage = copy;
    }
  }
  const float* control = h.compressed ? block : block + l.block / 4;
  const float* body_force = control + l.control / 4;
  for (std::size_t k = 0; k < 9 * ns; ++k)
    if (!std::isfinite(body_force[k])) return Error{name + ": damaged: non-finite body-force response"};
  GreenAsset asset =
      hblock ? GreenAsset::from_parts(std::move(surface), std::move(volume_node), std::move(constrained),
                                      std::move(elements), std::move(storage), std::move(*hblock), control,
                                      body_force)
             : GreenAsset::from_parts(std::move(surface), std::move(volume_node), std::move(constrained),
                                      std::move(elements), std::move(storage), block, control, body_force);
  asset.mesh_hash = h.mesh_hash;
  asset.constraint_hash = h.constraint_hash;
  asset.material = h.material;
  asset.volume_node_count = static_cast<Index>(h.volume_nodes);
  asset.tet_count = static_cast<Index>(h.tets);
  asset.precompute_seconds = h.precompute_seconds;
  return asset;
}

namespace {

struct Mapping {
  void* address = nullptr;
  std::size_t size = 0;
  ~Mapping() {
    if (address) munmap(address, size);
  }
};

}  // namespace

Result<GreenAsset> load_green_file(const std::filesystem::path& path) {
  const std::string name = path.string();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{name + ": cannot open: " + std::strerror(errno)};
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Error{name + ": not a regular file"};
  }
  auto mapping = std::make_shared<Mapping>();
  mapping->size = static_cast<std::size_t>(st.st_size);
  if (mapping->size == 0) {
    ::close(fd);
    return Error{name + ": not a .green file (0 bytes, truncated or empty)"};
  }
  void* address = mmap(nullptr, mapping->size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (address == MAP_FAILED) return Error{name + ": cannot map: " + std::strerror(errno)};
  mapping->address = address;
  const std::span<const std::byte> bytes(static_cast<const std::byte*>(address), mapping->size);
  return read_green(bytes, mapping, name);
}

Status check_green_matches(const GreenAsset& asset, std::uint64_t mesh_hash,
                           const materials::Material& material, std::uint64_t constraint_hash,
                           const std::string& name) {
  if (asset.mesh_hash != mesh_hash) return Error{name + ": stale: built for a different mesh"};
  if (asset.material.lambda != material.lambda || asset.material.mu != material.mu)
    return Error{name + ": stale: built for a different material (E " +
                 std::to_string(asset.material.youngs_modulus()) + " Pa, nu " +
                 std::to_string(asset.material.poisson_ratio()) + ")"};
  if (asset.constraint_hash != constraint_hash)
    return Error{name + ": stale: built for different fixed nodes or control elements"};
  return {};
}

}  // namespace pliant::green
