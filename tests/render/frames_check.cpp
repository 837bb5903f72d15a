// `pliant run --render` frames, end to end: scripted tools appear as grey cylinders (the viewer's
// mesh, shared through render/shapes.hpp), the rest frame carries the whole run's colour range (its
// colour bar is the last frame's, not "0 ... 1E-12"), and a run in which nothing moves shows a
// one-value bar. The tests skip when no EGL context can be created.
#include "pliant/render/camera.hpp"
#include "pliant/render/colormap.hpp"
#include "pliant/render/framing.hpp"
#include "pliant/render/image.hpp"
#include "pliant/render/offscreen.hpp"
#include "pliant/render/shapes.hpp"

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
// the sheet, at rest, spans [0, 0.1]² × {0}, in the part the colour bar leaves free), in the colliders'
// slate blue, and nowhere outside it.
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
  camera.frame_region(Aabb{Vec3::Zero(), Vec3(0.1, 0.1, 0.0)}, 0.0, 0.0, color_bar_left(400, 300), 300, 1.2);
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

// Pixels of `img` left of the colour bar that are not the background (the top-left corner's time
// label aside).
int body_pixels(const Image& img) {
  const std::uint8_t* bg = img.pixel(img.width / 2, img.height - 1);
  int n = 0;
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < static_cast<int>(color_bar_left(img.width, img.height)); ++x) {
      if (x < img.width / 3 && y < img.height / 10) continue;
      const std::uint8_t* p = img.pixel(x, y);
      n += std::abs(p[0] - bg[0]) + std::abs(p[1] - bg[1]) + std::abs(p[2] - bg[2]) > 6;
    }
  return n;
}

// A sheet with a small separate triangle beside it (3 of its 124 surface nodes, under 5 %), as a cut
// leaves a fragment: under gravity the triangle falls about 1.2 m in 0.5 s while the held sheet only
// sags. The camera frames the sheet, not the fragment's path: the sheet fills as many pixels as in
// the same run without the fragment (a camera widened to the fragment's 1.2 m fall would shrink the
// sheet about 9× across), and its colour range is the sheet's.
TEST_F(Frames, AFallingFragmentDoesNotShrinkTheBody) {
  const auto write_obj = [&](const std::string& name, bool fragment) {
    std::ofstream obj(dir / name);
    for (int j = 0; j <= 10; ++j)
      for (int i = 0; i <= 10; ++i) obj << "v " << 0.01 * i << " " << 0.01 * j << " 0\n";
    for (int j = 0; j < 10; ++j)
      for (int i = 0; i < 10; ++i) {
        const int a = 1 + j * 11 + i, b = a + 1, c = a + 11, d = c + 1;
        obj << "f " << a << " " << b << " " << d << "\nf " << a << " " << d << " " << c << "\n";
      }
    if (fragment) obj << "v 0.12 0.05 0\nv 0.125 0.05 0\nv 0.12 0.055 0\nf 122 123 124\n";
  };
  write_obj("sheet.obj", false);
  write_obj("sheet_fragment.obj", true);
  const auto scene = [](const std::string& mesh) {
    return R"({ "pliant": 1, "name": "sheet", "time_step": 0.005, "steps": 100,
      "bodies": [{ "name": "sheet", "family": "springs", "mesh": { "file": ")" +
           mesh + R"(" }, "fixed": ["xmin"],
                   "springs": { "stiffness": 200, "damping": 0.5, "gravity": [0, -9.81, 0] } }],
      "output": { "every": 50, "vtu": false, "png": true, "width": 400, "height": 300,
                  "color": "displacement" } })";
  };
  ASSERT_EQ(run("whole", scene("sheet.obj")), 0);
  ASSERT_EQ(run("fragment", scene("sheet_fragment.obj")), 0);
  for (int index : {0, 2}) {
    const int whole = body_pixels(frame("whole", index)), with = body_pixels(frame("fragment", index));
    EXPECT_GT(whole, 4000) << "frame " << index;
    EXPECT_GT(with, 0.8 * whole) << "frame " << index;
    EXPECT_LT(with, 1.25 * whole) << "frame " << index;
  }
  // Nor does the fragment's fall set the colour range: the bar and its labels are the same pixels in
  // both runs (with the fragment's 1.2 m in the range the top label would read 1.2).
  const Image a = frame("whole", 2), b = frame("fragment", 2);
  int bar_differ = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = static_cast<int>(color_bar_left(a.width, a.height)); x < a.width; ++x) {
      const std::uint8_t *p = a.pixel(x, y), *q = b.pixel(x, y);
      bar_differ += std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) > 6;
    }
  EXPECT_EQ(bar_differ, 0);
}

// The simulated time in the top-left corner ("T = 0.100 S"): drawn over the background there, and
// different between frames.
TEST_F(Frames, TheTimeIsDrawnInTheTopLeftCorner) {
  ASSERT_EQ(run("clock", sheet_scene("")), 0);
  const Image first = frame("clock", 0), last = frame("clock", 2);
  ASSERT_EQ(first.width, 400);
  const std::uint8_t* bg = first.pixel(first.width / 2, first.height - 1);
  int light = 0, differ = 0;
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 100; ++x) {
      const std::uint8_t *p = first.pixel(x, y), *q = last.pixel(x, y);
      light += p[0] > 200 && p[1] > 200 && p[2] > 200 && bg[0] < 100;
      differ += std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) > 6;
    }
  EXPECT_GT(light, 40);   // the label's white glyphs
  EXPECT_GT(differ, 10);  // "T = 0.000 S" and "T = 0.200 S" differ (one glyph, drawn 2× at least)
}

// A held grab is a magenta marker at its point, projected through the writer's camera (the sheet at
// rest, held where it is: the box is the sheet's), with no arrow while its reaction is zero; a
// pulling grab has a labelled reaction arrow in the same colour.
TEST_F(Frames, AHeldGrabIsAMarkerAtItsPoint) {
  const char* hold = R"({ "type": "grab", "body": "sheet", "near": [0.1, 0.05, 0],
      "track": [{ "t": 0, "offset": [0, 0, 0] }] })";
  ASSERT_EQ(run("held", sheet_scene(hold)), 0);
  Camera camera;
  camera.width = 400;
  camera.height = 300;
  camera.frame_region(Aabb{Vec3::Zero(), Vec3(0.1, 0.1, 0.0)}, 0.0, 0.0, color_bar_left(400, 300), 300, 1.2);
  const Vec3 at = camera.project(Vec3(0.1, 0.05, 0.0));
  const Image img = frame("held", 2);
  ASSERT_EQ(img.width, 400);
  // kGrabColor lit or in shade; the sheet's viridis low end (68, 1, 84) is far darker.
  const auto magenta = [](const std::uint8_t* p) { return p[0] > 120 && p[2] > 110 && p[1] < 0.6 * p[0]; };
  int near = 0;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      near += magenta(img.pixel(static_cast<int>(at.x()) + dx, static_cast<int>(at.y()) + dy));
  EXPECT_GE(near, 20) << "at " << at.x() << ", " << at.y();
  int far = 0;
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x)
      if (std::hypot(x - at.x(), y - at.y()) > 25) far += magenta(img.pixel(x, y));
  EXPECT_EQ(far, 0);
  // Pulled out of the plane: the reaction arrow reaches well beyond the marker.
  ASSERT_EQ(run("pulled", sheet_scene(kGrab)), 0);
  const Image pulled = frame("pulled", 2);
  int arrow = 0;
  for (int y = 0; y < pulled.height; ++y)
    for (int x = 0; x < pulled.width; ++x) arrow += magenta(pulled.pixel(x, y));
  EXPECT_GT(arrow, 3 * near);
}

}  // namespace
}  // namespace pliant::render
