// Writers: write, read back with the readers, compare; and decode the VTU field arrays.
#include "formats.hpp"
#include "io/base64.hpp"
#include "pliant/io/mesh_file.hpp"
#include "pliant/io/pvd.hpp"
#include "pliant/io/surface_writers.hpp"
#include "pliant/io/vtu.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace pliant::io {
namespace {

std::filesystem::path temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("pliant_io_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Decodes the inline binary DataArray named `name` of a file we wrote (UInt64 header, two base64 runs).
std::vector<double> field_values(const std::string& xml, const std::string& name) {
  const std::size_t tag = xml.find("Name=\"" + name + "\"");
  if (tag == std::string::npos) return {};
  std::size_t begin = xml.find('>', tag) + 1;
  while (std::isspace(static_cast<unsigned char>(xml[begin]))) ++begin;
  const std::size_t end = xml.find('<', begin);
  std::string text = xml.substr(begin, end - begin);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  std::size_t bad = 0;
  const auto header = detail::base64_decode(text.substr(0, 12), bad);
  const auto data = detail::base64_decode(text.substr(12), bad);
  if (!header || !data) return {};
  std::uint64_t n = 0;
  std::memcpy(&n, header->data(), 8);
  EXPECT_EQ(n, data->size());
  std::vector<double> v(data->size() / 8);
  std::memcpy(v.data(), data->data(), v.size() * 8);
  return v;
}

TEST(VtuWriter, TetMeshWithScalarAndVectorFieldsRoundTrips) {
  const auto s = testing::cube_sample();
  const TetMesh mesh{s.positions, s.tets};
  std::vector<double> u, temp, stress;
  for (std::size_t i = 0; i < mesh.node_count(); ++i) {
    u.insert(u.end(), {0.1 * i, -1.0 / (i + 1), 1e-300 * i});
    temp.push_back(273.15 + i / 7.0);
  }
  for (std::size_t t = 0; t < mesh.tet_count(); ++t) stress.push_back(1e6 * t + 0.5);
  const auto dir = temp_dir("vtu");
  const auto path = dir / "m.vtu";
  ASSERT_TRUE(
      write_vtu(path, mesh, {{"displacement", 3, u}, {"temperature", 1, temp}}, {{"stress", 1, stress}})
          .ok());
  const auto back = read_tet_mesh(path);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->positions, mesh.positions);
  EXPECT_EQ(back->tets, mesh.tets);
  const std::string xml = slurp(path);
  EXPECT_EQ(field_values(xml, "displacement"), u);
  EXPECT_EQ(field_values(xml, "temperature"), temp);
  EXPECT_EQ(field_values(xml, "stress"), stress);
  EXPECT_NE(xml.find("<PointData Scalars=\"temperature\" Vectors=\"displacement\">"), std::string::npos);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1) << "no temporary left behind";
}

TEST(VtuWriter, TriMeshRoundTripsAndFieldSizesAreChecked) {
  const auto s = testing::cube_sample();
  const TriMesh mesh{s.positions, s.triangles};
  const auto path = temp_dir("vtu_tri") / "s.vtu";
  ASSERT_TRUE(write_vtu(path, mesh, {}, {{"id", 1, {1.0, 2.0}}}).ok());
  const auto back = read_mesh_file(path);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->positions, mesh.positions);
  EXPECT_EQ(back->triangles, mesh.triangles);
  EXPECT_TRUE(back->tets.empty());
  const Status bad = write_vtu(path, mesh, {{"u", 3, {1.0, 2.0}}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("point field 'u' has 2 values, expected 8 × 3 = 24"), std::string::npos);
  TriMesh broken = mesh;
  broken.triangles.push_back({0, 1, 99});
  EXPECT_FALSE(write_vtu(path, broken).ok());
}

TEST(PvdWriter, ListsFramesInOrderWithExactTimes) {
  const auto path = temp_dir("pvd") / "series.pvd";
  ASSERT_TRUE(write_pvd(path, {{0.0, "f0.vtu"}, {0.1, "frames/f1.vtu"}, {1.0 / 3.0, "a&b.vtu"}}).ok());
  const std::string xml = slurp(path);
  EXPECT_NE(xml.find("type=\"Collection\""), std::string::npos);
  const std::size_t a = xml.find("timestep=\"0\" group=\"\" part=\"0\" file=\"f0.vtu\"");
  const std::size_t b = xml.find("timestep=\"0.1\" group=\"\" part=\"0\" file=\"frames/f1.vtu\"");
  const std::size_t c =
      xml.find("timestep=\"0.3333333333333333\" group=\"\" part=\"0\" file=\"a&amp;b.vtu\"");
  ASSERT_NE(a, std::string::npos);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(c, std::string::npos);
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
}

// Shortest round-trip output and a correctly rounding reader: values come back bit for bit, subnormals
// included.
TEST(ObjWriter, RoundTripExactly) {
  auto s = testing::cube_sample();
  s.positions[3] = Vec3(1e-310, -123456.789012345678, 3.0e200);
  const TriMesh mesh{s.positions, {{0, 1, 3}, {0, 3, 2}, {4, 5, 6}}};
  const auto path = temp_dir("obj") / "s.obj";
  ASSERT_TRUE(write_obj(path, mesh).ok());
  const auto back = read_mesh_file(path);
  ASSERT_TRUE(back.ok()) << back.message();
  ASSERT_EQ(back->positions.size(), mesh.positions.size());
  for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      const double want = mesh.positions[i][k];
      EXPECT_EQ(back->positions[i][k], want) << "node " << i;
    }
  }
  EXPECT_EQ(back->triangles, mesh.triangles);
}

TEST(StlWriter, BinaryRoundTripMergesCornersAtFloatPrecision) {
  const auto s = testing::cube_sample();
  const TriMesh mesh{s.positions, {{0, 1, 3}, {0, 3, 2}, {4, 5, 7}, {4, 7, 6}}};
  const auto path = temp_dir("stl") / "s.stl";
  ASSERT_TRUE(write_stl(path, mesh).ok());
  EXPECT_EQ(std::filesystem::file_size(path), 84u + 50u * 4u);
  const auto back = read_tri_mesh(path);
  ASSERT_TRUE(back.ok()) << back.message();
  ASSERT_EQ(back->positions.size(), 8u);
  ASSERT_EQ(back->triangles.size(), 4u);
  for (std::size_t t = 0; t < 4; ++t) {
    for (int c = 0; c < 3; ++c) {
      const Vec3& want = mesh.positions[mesh.triangles[t][c]];
      const Vec3& got = back->positions[back->triangles[t][c]];
      for (int k = 0; k < 3; ++k) EXPECT_EQ(got[k], static_cast<double>(static_cast<float>(want[k])));
    }
  }
}

TEST(StlWriter, AsciiRoundTripIsExact) {
  const auto s = testing::cube_sample();
  const TriMesh mesh{s.positions, {{0, 1, 3}, {0, 3, 2}}};
  const auto path = temp_dir("stl_ascii") / "s.stl";
  ASSERT_TRUE(write_stl(path, mesh, StlEncoding::ascii).ok());
  const auto back = read_tri_mesh(path);
  ASSERT_TRUE(back.ok()) << back.message();
  ASSERT_EQ(back->positions.size(), 4u);
  for (std::size_t t = 0; t < 2; ++t) {
    for (int c = 0; c < 3; ++c)
      EXPECT_EQ(back->positions[back->triangles[t][c]], mesh.positions[mesh.triangles[t][c]]);
  }
}

TEST(Writers, MissingDirectoryIsAnErrorNotACrash) {
  const auto s = testing::cube_sample();
  const Status st = write_obj("/nonexistent_dir/x.obj", TriMesh{s.positions, s.triangles});
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("does not exist"), std::string::npos);
}

}  // namespace
}  // namespace pliant::io
