// The headless run as a library function (headless/headless_run.hpp): what it returns agrees with what it
// writes and with the World it stepped; failures come back as one-line errors, never as exceptions.
#include "pliant/headless/headless_run.hpp"

#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>
#include <filesystem>

#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace pliant::headless {
namespace {

namespace fs = std::filesystem;

// A small clamped spring membrane pulled at its free edge: a second of simulated time in 20 steps.
constexpr const char* kSheet = R"({
  "pliant": 1, "name": "sheet", "time_step": 0.01, "steps": 20,
  "bodies": [ { "name": "sheet", "family": "springs",
                "mesh": { "shape": "rect", "size": [0.03, 0.03], "cells": [6, 6] }, "fixed": ["xmin"],
                "springs": { "method": "dragnet_mass_spring", "stiffness": 50, "damping": 0.02,
                             "mass_density": 50 } } ],
  "interactions": [
    { "type": "grab", "body": "sheet", "near": [0.03, 0.015, 0],
      "track": [ { "t": 0, "offset": [0, 0, 0] }, { "t": 0.1, "offset": [0.003, 0, 0.002] } ] } ],
  "output": { "every": 5 }
})";

class Headless : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        fmt::format("pliant_headless_{}_{}", ::testing::UnitTest::GetInstance()->current_test_info()->name(),
                    static_cast<long>(::getpid()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static scene::Scene sheet() { return scene::parse_scene(kSheet, "sheet.json").value(); }
  static std::string read(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
};

TEST_F(Headless, TheReportRepeatsTheSummaryWrittenAndTheWorldStepped) {
  scene::Scene scene = sheet();
  RunOptions options;
  options.out_dir = dir_ / "nested" / "out";  // parents are created
  const Result<RunReport> report = run_scene(scene, options);
  ASSERT_TRUE(report.ok()) << report.message();
  EXPECT_EQ(read(options.out_dir / "summary.json"), report->summary_json);
  const nlohmann::json summary = nlohmann::json::parse(report->summary_json);
  EXPECT_EQ(report->steps, 20);
  EXPECT_EQ(summary["steps"].get<int>(), report->steps);
  EXPECT_DOUBLE_EQ(report->time_s, scene.world->time());
  EXPECT_NEAR(report->time_s, 0.2, 1e-12);
  EXPECT_FALSE(report->interrupted);
  EXPECT_EQ(report->state_hash, fmt::format("{:016x}", scene.world->state_hash()));
  EXPECT_EQ(summary["state_hash"].get<std::string>(), report->state_hash);
  // Frames at steps 0, 5, 10, 15 and 20: as many .vtu files on disk as the report counts.
  int vtu = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(options.out_dir))
    vtu += e.path().extension() == ".vtu" ? 1 : 0;
  EXPECT_EQ(vtu, 5);
  EXPECT_EQ(report->vtu_files, vtu);
  EXPECT_EQ(report->png_files, 0);
  EXPECT_TRUE(fs::exists(options.out_dir / "sheet.pvd"));
  EXPECT_TRUE(fs::exists(options.out_dir / "forces.csv"));
}

TEST_F(Headless, StepsOverrideTheScenesAndStopRequestedEndsTheRunEarly) {
  scene::Scene scene = sheet();
  RunOptions options;
  options.out_dir = dir_;
  options.steps = 12;
  int asked = 0;
  options.stop_requested = [&asked] { return ++asked == 7; };
  const Result<RunReport> report = run_scene(scene, options);
  ASSERT_TRUE(report.ok()) << report.message();
  EXPECT_TRUE(report->interrupted);
  EXPECT_EQ(report->steps, 7);
  EXPECT_NEAR(scene.world->time(), 0.07, 1e-12);
  const nlohmann::json summary = nlohmann::json::parse(read(dir_ / "summary.json"));
  EXPECT_TRUE(summary["interrupted"].get<bool>());
  EXPECT_EQ(summary["last_good_step"].get<int>(), 7);
}

TEST_F(Headless, AnUnwritableDirectoryIsAnErrorNamingIt) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "file") << "not a directory\n";
  scene::Scene scene = sheet();
  RunOptions options;
  options.out_dir = dir_ / "file" / "out";
  const Result<RunReport> report = run_scene(scene, options);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.message().find((dir_ / "file" / "out").string()), std::string::npos) << report.message();
  EXPECT_NE(report.message().find("cannot create output directory"), std::string::npos) << report.message();
  EXPECT_EQ(report.message().find('\n'), std::string::npos);
  EXPECT_EQ(scene.world->time(), 0.0);  // nothing stepped
  const Result<void> direct = prepare_output_directory(options.out_dir);
  ASSERT_FALSE(direct.ok());
  EXPECT_EQ(direct.message(), report.message());
}

TEST_F(Headless, AnUnstableBodyFailsWithOneLineAndKeepsTheSummaryOfTheStepsBefore) {
  // The grab jumps 1e300 m at t = 0.06 s: the sheet's nodes go with it.
  scene::Scene scene =
      scene::load_scene(fs::path(PLIANT_TESTS_DATA_DIR) / "scenes" / "unstable_springs.json").value();
  RunOptions options;
  options.out_dir = dir_;
  const Result<RunReport> report = run_scene(scene, options);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.message().find("body \"sheet\""), std::string::npos) << report.message();
  EXPECT_EQ(report.message().find('\n'), std::string::npos);
  const nlohmann::json summary = nlohmann::json::parse(read(dir_ / "summary.json"));
  EXPECT_EQ(summary["failure"].get<std::string>(), report.message());
  const int last_good = summary["last_good_step"].get<int>();
  EXPECT_GE(last_good, 5);  // the steps before the jump were fine
  EXPECT_LT(last_good, 20);
  EXPECT_NE(report.message().find(fmt::format("step {}:", last_good + 1)), std::string::npos)
      << report.message();
}

TEST(HeadlessRange, PhysicalRangeIsMeasuredAgainstTheBodysSize) {
  const std::vector<Vec3> rest = {Vec3(0, 0, 0), Vec3(1, 0, 0)};  // size 1 m
  std::vector<Vec3> x = rest;
  EXPECT_EQ(physical_range_problem(x, rest), "");
  x[1].x() = 0.9e6;  // under 1e6 times the size
  EXPECT_EQ(physical_range_problem(x, rest), "");
  x[1].x() = 2e6;
  EXPECT_NE(physical_range_problem(x, rest).find("left any physical range"), std::string::npos);
  x[1].x() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(physical_range_problem(x, rest), "became unstable (non-finite positions)");
}

}  // namespace
}  // namespace pliant::headless
