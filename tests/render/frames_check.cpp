// `pliant run --render` frames, end to end: scripted tools appear as grey cylinders (the viewer's
// mesh, shared through render/shapes.hpp), the rest frame carries the whole run's colour range (its
// colour bar is the last frame's, not "0 ... 1E-12"), and a run in which nothing moves shows a
// one-value bar. The tests skip when no EGL context can be created.
#include "pliant/render/camera.hpp"
#include "pliant/render/colormap.hpp"
#include "pliant/render/image.hpp"
#include "pliant/render/offscreen.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace pliant::render {
namespace {

namespace fs = std::filesystem;

// A 10 cm mass-spring sheet held on its left edge; `extra` adds interactions.
std::string sheet_scene(const std::string& interactions) {
  return R"({ "pliant": 1, "name": "sheet", "time_step": 0.01, "steps": 20,
    "bodies": [{ "name": "sheet", "family": "springs",
                 "mesh": { "shape": "rect", "size": [0.1, 0.1], "cells": [8, 8] }, "fixed": ["xmin"],
                 "springs": { "method": "dragnet", "stiffness": 100, "damping": 0 } }],
    "interactions": [)" +
         interactions + R"(],
    "output": { "every": 10, "vtu": false, "png": true, "width": 400, "height": 300,
                "color": "displacement" } })";
}

const char* kGrab = R"({ "type": "grab", "body": "sheet", "near": [0.1, 0.05, 0],
    "track": [{ "t": 0, "offset": [0, 0, 0] }, { "t": 0.2, "offset": [0, 0, 0.03] }] })";
// A tool standing beside the sheet (x = 0.13 m), never touching it.
const char* kTool = R"({ "type": "tool", "shape": "cylinder", "start": [0.13, 0.05, 0.0], "axis": [0, 0, 1],
    "radius": 0.006, "length": 0.04, "stiffness": 100, "track": [{ "t": 0, "offset": [0, 0, 0] }] })";

class Frames : public ::testing::Test {
 protected:
  void SetUp() override {
    auto renderer = OffscreenRenderer::create({8, 8, 1});
    if (!renderer.ok()) GTEST_SKIP() << "no EGL offscreen context: " << renderer.message();
    dir = fs::temp_directory_path() / ("pliant_frames_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override {
    if (!dir.empty()) fs::remove_all(dir);
  }
  // Writes the scene, runs it with --render into dir/name, returns the exit status.
  int run(const std::string& name, const std::string& json) {
    const fs::path scene = dir / (name + ".json");
    std::ofstream(scene) << json;
    const std::string command = std::string(PLIANT_EXE) + " run " + scene.string() + " --render -o " +
                                (dir / name).string() + " > " + (dir / (name + ".log")).string() + " 2>&1";
    return WEXITSTATUS(std::system(command.c_str()));
  }
  Image frame(const std::string& name, int index) {
    char file[32];
    std::snprintf(file, sizeof file, "frame_%05d.png", index);
    std::ifstream in(dir / name / file, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    auto img = decode_png(ss.str(), file);
    EXPECT_TRUE(img.ok()) << (img.ok() ? "" : img.message());
    return img.ok() ? std::move(img).value() : Image{};
  }
  fs::path dir;
};

TEST_F(Frames, ScriptedToolsAreDrawnAsGreyCylinders) {
  ASSERT_EQ(run("plain", sheet_scene(kGrab)), 0);
  ASSERT_EQ(run("tool", sheet_scene(std::string(kGrab) + ", " + kTool)), 0);
  // The camera frames the bodies only, and the tool does not touch the sheet: the two runs' frames
  // differ exactly where the tool is drawn, in its grey.
  for (int index : {0, 2}) {
    const Image a = frame("plain", index), b = frame("tool", index);
    ASSERT_EQ(a.width, 400);
    ASSERT_EQ(b.width, 400);
    int differ = 0, grey = 0;
    for (int y = 0; y < a.height; ++y)
      for (int x = 0; x < a.width; ++x) {
        const std::uint8_t *p = a.pixel(x, y), *q = b.pixel(x, y);
        if (std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) <= 6) continue;
        ++differ;
        if (std::abs(q[0] - q[1]) < 30 && std::abs(q[1] - q[2]) < 30 && q[1] > 70) ++grey;
      }
    EXPECT_GT(differ, 100) << "frame " << index << ": no tool drawn";
    EXPECT_GT(grey, 0.8 * differ) << "frame " << index;
  }
}

// A sphere collider left of the sheet (never touching it): the frames with it differ from those without
// inside the sphere's projection through the writer's camera (framed on the bodies' box over the run:
// the sheet, at rest, spans [0, 0.1]² × {0}), in the colliders' slate blue, and nowhere outside it.
TEST_F(Frames, SphereColliderIsDrawnWhereItsProjectionSays) {
  const Vec3 centre(-0.05, 0.05, 0.0);
  const double radius = 0.02;
  std::string with = sheet_scene("");
  const std::string collider = R"("colliders": [{ "name": "ball", "shape": "sphere", "radius": 0.02,
      "position": [-0.05, 0.05, 0.0] }], "output")";
  with.replace(with.find("\"output\""), 8, collider);
  ASSERT_EQ(run("no_ball", sheet_scene("")), 0);
  ASSERT_EQ(run("ball", with), 0);
  Camera camera;
  camera.width = 400;
  camera.height = 300;
  camera.frame(Aabb{Vec3::Zero(), Vec3(0.1, 0.1, 0.0)}, 1.2);
  const Vec3 c = camera.project(centre);
  // The silhouette's radius in pixels: the sphere's angular radius at its distance from the eye.
  const double d = (centre - camera.eye()).norm();
  const double focal = 0.5 * camera.height / std::tan(0.5 * camera.fov_y);
  const double r = focal * std::tan(std::asin(radius / d));
  ASSERT_GT(r, 8.0) << "too small to test";
  const Image a = frame("no_ball", 2), b = frame("ball", 2);
  ASSERT_EQ(b.width, 400);
  int inside = 0, inside_drawn = 0, blue = 0, ring = 0, ring_drawn = 0;
  for (int y = 0; y < b.height; ++y)
    for (int x = 0; x < b.width; ++x) {
      const double rho = std::hypot(x + 0.5 - c.x(), y + 0.5 - c.y());
      const std::uint8_t *p = a.pixel(x, y), *q = b.pixel(x, y);
      const bool differ = std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) > 6;
      if (rho < 0.8 * r) {
        ++inside;
        inside_drawn += differ;
        blue += differ && q[2] > q[0] + 5;    // bluish, lit or in shade
      } else if (rho > 1.2 * r && x < 320) {  // outside (the colour bar right of 0.8·width aside)
        ++ring;
        ring_drawn += differ;
      }
    }
  EXPECT_EQ(inside_drawn, inside) << "centre at " << c.x() << ", " << c.y() << ", radius " << r << " px";
  EXPECT_GT(blue, 0.9 * inside);
  EXPECT_EQ(ring_drawn, 0) << "of " << ring;
}

TEST_F(Frames, TheRestFrameUsesTheWholeRunsColourRange) {
  ASSERT_EQ(run("pulled", sheet_scene(kGrab)), 0);
  const Image first = frame("pulled", 0), last = frame("pulled", 2);
  ASSERT_EQ(first.width, 400);
  // The colour bar and its labels sit right of x = 0.8·width: identical in the rest frame and the
  // last one (same range, same label), while the sheet itself changed.
  int bar_differ = 0, body_differ = 0;
  for (int y = 0; y < first.height; ++y)
    for (int x = 0; x < first.width; ++x) {
      const std::uint8_t *p = first.pixel(x, y), *q = last.pixel(x, y);
      const bool differ = std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) > 6;
      if (differ) ++(x >= 320 ? bar_differ : body_differ);
    }
  EXPECT_EQ(bar_differ, 0);
  EXPECT_GT(body_differ, 500);
}

TEST_F(Frames, ABodyThatNeverMovesGetsAOneValueBar) {
  ASSERT_EQ(run("still", sheet_scene("")), 0);
  const Image img = frame("still", 2);
  ASSERT_EQ(img.width, 400);
  // The bar (at the right edge, 0.2 to 0.8 of the height) is one colour: viridis' low end.
  const Rgb low = sample(ColorMap::viridis, 0.0);
  const int x = 400 - 400 / 30 - 5;
  for (int y = 70; y < 230; ++y) {
    const std::uint8_t* p = img.pixel(x, y);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(p[k], std::lround(255 * low[k]), 2) << "y " << y;
  }
}

}  // namespace
}  // namespace pliant::render
