// The modal writers: a VTU with one point field per mode and a PVD series animating one mode, and their
// one-line refusals (a bad mode, too few frames, a basis of another mesh).
#include "pliant/scene/modal_output.hpp"

#include "models/fem/fem_test_util.hpp"
#include "pliant/models/fem/modal/modal_analysis.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace pliant::scene {
namespace {

namespace test = fem::test;

TEST(ModalOutput, WritesOneFieldPerModeAndAnAnimatedSeries) {
  const TetMesh mesh = test::box(Vec3(0.2, 0.05, 0.05), {4, 1, 1}, meshing::CellSplit::five);
  const materials::Material mat = materials::material_preset("rubber").value();
  auto basis = fem::modal_analysis(mesh, std::span(&mat, 1), test::nodes_at(mesh, 0, 0.0), {.modes = 3});
  ASSERT_TRUE(basis);
  const auto dir = std::filesystem::temp_directory_path() / ("pliant_modes_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto read = [](const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  ASSERT_TRUE(write_mode_shapes_vtu(dir / "modes.vtu", mesh, *basis, 0.01).ok());
  const std::string vtu = read(dir / "modes.vtu");
  char name[64];
  std::snprintf(name, sizeof name, "Name=\"mode_01_%.4gHz\"", basis->frequencies_hz()[0]);
  EXPECT_NE(vtu.find(name), std::string::npos) << name;
  EXPECT_NE(vtu.find("Name=\"mode_03_"), std::string::npos);
  EXPECT_EQ(vtu.find("Name=\"mode_04_"), std::string::npos);
  ASSERT_TRUE(write_mode_animation(dir / "mode1.pvd", mesh, *basis, 0, 8, 0.01).ok());
  const std::string pvd = read(dir / "mode1.pvd");
  EXPECT_NE(pvd.find("mode1_0007.vtu"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir / "mode1_0000.vtu"));
  EXPECT_FALSE(write_mode_animation(dir / "bad.pvd", mesh, *basis, 3, 8, 0.01).ok());
  EXPECT_FALSE(write_mode_animation(dir / "bad.pvd", mesh, *basis, 0, 1, 0.01).ok());
  const TetMesh other = test::box(Vec3(0.2, 0.05, 0.05), {5, 1, 1}, meshing::CellSplit::five);
  EXPECT_FALSE(write_mode_shapes_vtu(dir / "bad.vtu", other, *basis).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pliant::scene
