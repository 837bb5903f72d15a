// .green files: round trip, and every kind of damage or staleness is detected.
#include "pliant/models/green/green_file.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/green/green_body.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace pliant::green {
namespace {

struct Built {
  TetMesh mesh;
  materials::Material material;
  std::vector<Index> fixed;
  std::vector<ControlElementSpec> controls;
  GreenAsset asset;
};

Built build() {
  Built b;
  meshing::BoxDef def;
  def.size = Vec3(0.6, 0.2, 0.2);
  def.cells = {6, 2, 2};
  b.mesh = meshing::box_mesh(def).value();
  b.material = materials::material_from_young_poisson(2e5, 0.35).value();
  ControlElementSpec end;
  for (std::size_t i = 0; i < b.mesh.node_count(); ++i) {
    if (b.mesh.positions[i].x() < 1e-9) b.fixed.push_back(static_cast<Index>(i));
    if (b.mesh.positions[i].x() > 0.6 - 1e-9) end.nodes.push_back(static_cast<Index>(i));
  }
  b.controls.push_back(end);
  b.asset = build_green_asset(b.mesh, b.material, b.fixed, b.controls).value();
  return b;
}

std::string serialise(const GreenAsset& asset) {
  std::ostringstream out;
  EXPECT_TRUE(write_green(asset, out).ok());
  return out.str();
}

Result<GreenAsset> parse(const std::string& bytes) {
  auto copy = std::make_shared<std::string>(bytes);
  return read_green(std::as_bytes(std::span(copy->data(), copy->size())), copy, "test.green");
}

TEST(GreenFile, RoundTripKeepsEverything) {
  const Built b = build();
  const std::string bytes = serialise(b.asset);
  auto back = parse(bytes);
  ASSERT_TRUE(back.ok()) << back.message();
  const GreenAsset& a = b.asset;
  const GreenAsset& r = *back;
  ASSERT_EQ(a.surface_node_count(), r.surface_node_count());
  EXPECT_EQ(a.surface().triangles, r.surface().triangles);
  EXPECT_EQ(a.volume_node(), r.volume_node());
  EXPECT_EQ(a.constrained(), r.constrained());
  EXPECT_EQ(a.mesh_hash, r.mesh_hash);
  EXPECT_EQ(a.constraint_hash, r.constraint_hash);
  EXPECT_EQ(a.material.lambda, r.material.lambda);
  ASSERT_EQ(r.control_elements().size(), 1u);
  EXPECT_EQ(a.control_elements()[0].volume_nodes, r.control_elements()[0].volume_nodes);
  EXPECT_EQ(a.control_elements()[0].sum_outer, r.control_elements()[0].sum_outer);
  const std::size_t ns = static_cast<std::size_t>(a.surface_node_count());
  EXPECT_EQ(0, std::memcmp(a.block(), r.block(), 4 * GreenAsset::packed_floats(ns)));
  EXPECT_EQ(0, std::memcmp(a.control_response(0), r.control_response(0), 4 * 36 * ns));
  EXPECT_EQ(0, std::memcmp(a.body_force_response(), r.body_force_response(), 4 * 9 * ns));
  // The header alone decodes too.
  auto h = read_green_header(std::as_bytes(std::span(bytes.data(), bytes.size())), "test.green");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->surface_nodes, ns);
  EXPECT_EQ(h->block_bytes(), 4 * GreenAsset::packed_floats(ns));
  EXPECT_TRUE(
      check_green_matches(r, mesh_hash(b.mesh), b.material, constraint_hash(b.fixed, b.controls), "t").ok());
}

TEST(GreenFile, MappedFileGivesTheSameRuntimeResult) {
  const Built b = build();
  const auto path =
      std::filesystem::temp_directory_path() / ("green_file_test_" + std::to_string(::getpid()) + ".green");
  {
    std::ofstream out(path, std::ios::binary);
    ASSERT_TRUE(write_green(b.asset, out).ok());
  }
  auto loaded = load_green_file(path);
  std::filesystem::remove(path);  // the mapping stays valid after unlink
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  GreenBody original(std::make_shared<GreenAsset>(b.asset));
  GreenBody mapped(std::make_shared<GreenAsset>(std::move(loaded).value()));
  Index node = 0;
  while (b.asset.constrained()[static_cast<std::size_t>(node)]) ++node;
  const std::vector<Grab> grabs = {
      {node, b.asset.surface().positions[static_cast<std::size_t>(node)] + Vec3(0, 0.01, 0)}};
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  T(2, 3) = 0.02;
  for (GreenBody* body : {&original, &mapped}) {
    ASSERT_TRUE(body->set_grabs(grabs).ok());
    body->set_control(0, T);
    body->update();
  }
  EXPECT_EQ(original.state().positions, mapped.state().positions);
}

TEST(GreenFile, EveryCorruptedByteIsDetected) {
  const Built b = build();
  const std::string bytes = serialise(b.asset);
  // Flip one byte at a spread of offsets through header, payload and checksum.
  for (std::size_t offset = 0; offset < bytes.size(); offset += bytes.size() / 97 + 1) {
    std::string bad = bytes;
    bad[offset] = static_cast<char>(bad[offset] ^ 0x5a);
    auto r = parse(bad);
    EXPECT_FALSE(r.ok()) << "offset " << offset;
    if (!r.ok()) {
      EXPECT_EQ(r.message().rfind("test.green: ", 0), 0u) << r.message();
      EXPECT_EQ(r.message().find('\n'), std::string::npos);
    }
  }
}

TEST(GreenFile, TruncatedAndForeignFilesAreDetected) {
  const Built b = build();
  const std::string bytes = serialise(b.asset);
  for (std::size_t keep :
       {std::size_t{0}, std::size_t{10}, std::size_t{120}, bytes.size() / 2, bytes.size() - 1}) {
    auto r = parse(bytes.substr(0, keep));
    ASSERT_FALSE(r.ok()) << keep;
    EXPECT_TRUE(r.message().find("truncated") != std::string::npos) << r.message();
  }
  auto longer = parse(bytes + "x");
  EXPECT_FALSE(longer.ok());
  std::string magic = bytes;
  magic[0] = 'X';
  EXPECT_NE(parse(magic).message().find("wrong magic"), std::string::npos);
  std::string version = bytes;
  version[8] = 7;
  EXPECT_NE(parse(version).message().find("version 7"), std::string::npos);
  // A version-1 file (before the body-force responses) is refused with the way out.
  version[8] = 1;
  EXPECT_NE(parse(version).message().find("rebuild it with pliant precompute"), std::string::npos);
  // A lying header that claims a huge surface is refused before any allocation.
  std::string huge = bytes;
  const std::uint64_t ns = std::uint64_t{1} << 40;
  std::memcpy(huge.data() + 72, &ns, 8);
  EXPECT_FALSE(parse(huge).ok());
}

TEST(GreenFile, StaleAssetsAreDetected) {
  const Built b = build();
  const auto mh = mesh_hash(b.mesh);
  const auto ch = constraint_hash(b.fixed, b.controls);
  TetMesh moved = b.mesh;
  moved.positions[3].x() += 1e-6;
  auto s1 = check_green_matches(b.asset, mesh_hash(moved), b.material, ch, "a.green");
  ASSERT_FALSE(s1.ok());
  EXPECT_NE(s1.message().find("stale"), std::string::npos);
  const auto other = materials::material_from_young_poisson(3e5, 0.35).value();
  EXPECT_FALSE(check_green_matches(b.asset, mh, other, ch, "a.green").ok());
  std::vector<Index> fewer = b.fixed;
  fewer.pop_back();
  EXPECT_FALSE(
      check_green_matches(b.asset, mh, b.material, constraint_hash(fewer, b.controls), "a.green").ok());
  // Order and duplicates of the fixed list do not matter.
  std::vector<Index> shuffled(b.fixed.rbegin(), b.fixed.rend());
  shuffled.push_back(b.fixed.front());
  EXPECT_TRUE(
      check_green_matches(b.asset, mh, b.material, constraint_hash(shuffled, b.controls), "a.green").ok());
}

}  // namespace
}  // namespace pliant::green
