// pliant-view and `pliant view` end to end under Xvfb: a scripted left-drag on the body grabs and
// moves it (the image changes where the body is), the same run without the drag leaves the image
// unchanged, screenshots are valid PNGs, the program exits 0 after --after frames, and bad options, a
// bad scene or no display give one error line and exit status 2.
//
// The tests skip only when xvfb-run is not installed (./dev installs it); with CI set in the
// environment its absence is a failure instead.
#include "pliant/render/framing.hpp"
#include "pliant/render/image.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace pliant::render {
namespace {

namespace fs = std::filesystem;

struct ViewRun {
  int status = -1;
  std::string output;
};

ViewRun run_exe(const std::string& exe, const std::string& arguments, bool under_xvfb) {
  const fs::path log = fs::temp_directory_path() / ("pliant_view_" + std::to_string(::getpid()) + ".log");
  std::string command = exe + " " + arguments;
  // -a takes the first free display from -n up; starting the search at a number drawn from the
  // process id keeps test processes that ctest runs in parallel from racing for the same one.
  if (under_xvfb)
    command = "xvfb-run -a -n " + std::to_string(99 + ::getpid() % 400) + " -s \"-screen 0 1024x768x24\" " +
              command;
  const int raw = std::system((command + " >" + log.string() + " 2>&1").c_str());
  ViewRun r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream in(log);
  std::stringstream ss;
  ss << in.rdbuf();
  r.output = ss.str();
  fs::remove(log);
  return r;
}

ViewRun run(const std::string& arguments, bool under_xvfb) {
  return run_exe(PLIANT_VIEW_EXE, arguments, under_xvfb);
}

bool have_xvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

// Skips the calling test when there is no xvfb-run, except on CI, where that is a failure.
#define REQUIRE_XVFB()                                                                               \
  do {                                                                                               \
    if (!have_xvfb()) {                                                                              \
      if (std::getenv("CI") != nullptr) FAIL() << "xvfb-run is missing on CI (./dev installs xvfb)"; \
      GTEST_SKIP() << "xvfb-run is not installed";                                                   \
    }                                                                                                \
  } while (false)

Image load(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  auto img = decode_png(ss.str(), path.string());
  EXPECT_TRUE(img.ok()) << (img.ok() ? "" : img.message());
  return img.ok() ? std::move(img).value() : Image{};
}

// Pixels whose colour differs by more than a few levels in some channel.
int changed_pixels(const Image& a, const Image& b) {
  if (a.width != b.width || a.height != b.height) return -1;
  int n = 0;
  for (std::size_t i = 0; i + 3 < a.rgba.size(); i += 4)
    for (int k = 0; k < 3; ++k)
      if (std::abs(a.rgba[i + k] - b.rgba[i + k]) > 8) {
        ++n;
        break;
      }
  return n;
}

// Pixels coloured from the upper half of viridis (green to yellow), left of the colour bar; white
// labels and the red force arrow do not count.
int high_field_pixels(const Image& img) {
  int n = 0;
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width * 3 / 4; ++x) {
      const std::uint8_t* p = img.pixel(x, y);
      if (p[1] > 120 && p[2] < 160) ++n;
    }
  return n;
}

// Pixels of the red force arrow (0.95, 0.3, 0.15), lit: strongly red, unlike the sphere's flesh
// colour (green about 0.78 of red) and viridis (never red-dominant).
int arrow_pixels(const Image& img) {
  int n = 0;
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const std::uint8_t* p = img.pixel(x, y);
      if (p[0] > 120 && p[1] < 0.55 * p[0] && p[2] < 0.45 * p[0]) ++n;
    }
  return n;
}

class ViewerXvfb : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_XVFB();
    dir = fs::temp_directory_path() / ("pliant_view_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override {
    if (!dir.empty()) fs::remove_all(dir);
  }
  fs::path dir;
};

TEST_F(ViewerXvfb, ScriptedDragMovesTheBody) {
  const fs::path first = dir / "first.png", last = dir / "last.png";
  // 640×480 window, the sphere auto-framed at its centre: drag from the centre up and right.
  const ViewRun r =
      run("--width 640 --height 480 --no-panel --field displacement --first-screenshot " + first.string() +
              " --screenshot " + last.string() + " --after 30 --script-drag 320,240,420,170,12",
          true);
  ASSERT_EQ(r.status, 0) << r.output;
  const Image a = load(first), b = load(last);
  ASSERT_EQ(a.width, 640);
  ASSERT_EQ(a.height, 480);
  const int changed = changed_pixels(a, b);
  EXPECT_GT(changed, 640 * 480 / 50) << "the drag did not visibly deform the body";
  // The dragged side bulges: pixels up and right of the sphere's old silhouette now show surface.
  const std::uint8_t* bg = a.pixel(2, 2);
  int grown = 0;
  for (int y = 100; y < 240; ++y)
    for (int x = 320; x < 520; ++x) {
      const bool was_bg = std::abs(a.pixel(x, y)[0] - bg[0]) <= 2 && std::abs(a.pixel(x, y)[2] - bg[2]) <= 2;
      const bool now_bg = std::abs(b.pixel(x, y)[0] - bg[0]) <= 2 && std::abs(b.pixel(x, y)[2] - bg[2]) <= 2;
      if (was_bg && !now_bg) ++grown;
    }
  EXPECT_GT(grown, 200);
}

TEST_F(ViewerXvfb, WithoutADragTheImageStaysStill) {
  const fs::path first = dir / "first.png", last = dir / "last.png";
  const ViewRun r = run("--width 320 --height 240 --no-panel --first-screenshot " + first.string() +
                            " --screenshot " + last.string() + " --after 10",
                        true);
  ASSERT_EQ(r.status, 0) << r.output;
  const Image a = load(first), b = load(last);
  EXPECT_EQ(changed_pixels(a, b), 0);
}

// At the default 1024×720 window the panel takes the left side and the colour bar the right: the
// sphere is framed in the rest of the window, whole (its visible silhouette is as wide as tall) and centred
// there.
TEST_F(ViewerXvfb, ThePanelDoesNotCoverTheBody) {
  const fs::path shot = dir / "panel.png";
  // (The red X axis would count as flesh: axes off.)
  const ViewRun r = run("--no-axes --first-screenshot " + shot.string() + " --after 2", true);
  ASSERT_EQ(r.status, 0) << r.output;
  const Image img = load(shot);
  ASSERT_EQ(img.width, 1024);
  ASSERT_EQ(img.height, 720);
  // The sphere's flesh colour (0.80, 0.62, 0.55), lit: red above blue; the panel and the background
  // are grey or blue.
  int left = img.width, right = -1, top = img.height, bottom = -1;
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const std::uint8_t* p = img.pixel(x, y);
      if (p[0] > 60 && p[0] > p[2] + 25) {
        left = std::min(left, x);
        right = std::max(right, x);
        top = std::min(top, y);
        bottom = std::max(bottom, y);
      }
    }
  ASSERT_GT(right, left);
  const int panel_right = 8 + 390;
  EXPECT_GT(left, panel_right) << "the panel covers part of the body";
  EXPECT_NEAR(right - left, bottom - top, 6) << "the visible silhouette is cut";
  // Centred between the panel and the colour bar's value labels (the pull model has a field).
  EXPECT_NEAR(0.5 * (left + right), 0.5 * (panel_right + 8 + color_bar_left(1024, 720)), 6);
  EXPECT_NEAR(0.5 * (top + bottom), 360, 6);
}

// The pull test model has no physics: dragging it deforms it but shows no force arrow or value.
TEST_F(ViewerXvfb, AModelWithoutPhysicsShowsNoForceArrow) {
  const fs::path first = dir / "first.png", last = dir / "last.png";
  // (Axes off: the red X axis is not a force arrow.)
  const ViewRun r = run("--width 640 --height 480 --no-panel --no-axes --first-screenshot " + first.string() +
                            " --screenshot " + last.string() + " --after 30 --script-drag 320,240,420,170,12",
                        true);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_GT(changed_pixels(load(first), load(last)), 640 * 480 / 50) << "the drag did not grab the body";
  EXPECT_EQ(arrow_pixels(load(last)), 0);
}

TEST(ViewerErrors, BadOptionsGiveOneErrorLine) {
  const ViewRun drag = run("--script-drag 1,2,3", false);
  EXPECT_EQ(drag.status, 2);
  EXPECT_NE(drag.output.find("pliant-view: error: --script-drag '1,2,3'"), std::string::npos) << drag.output;
  const ViewRun missing = run("/nonexistent/organ.msh", false);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.output.find("pliant-view: error: "), std::string::npos) << missing.output;
  EXPECT_NE(missing.output.find("organ.msh"), std::string::npos) << missing.output;
}

#ifdef PLIANT_EXE
// `pliant view` on a scene file: the demo pipe (a Green body, fixed at z = 0) seen from the
// default camera has its free end at the left; a drag from its wall near that end, up and right,
// bends the pipe. Scripted grabs are off in the viewer, so any change is the mouse's doing.
TEST_F(ViewerXvfb, PliantViewDragsThePipeScene) {
  const fs::path first = dir / "first.png", last = dir / "last.png";
  const std::string scene = std::string(PLIANT_SOURCE_DIR) + "/examples/scenes/pipe_drag.json";
  const ViewRun r =
      run_exe(PLIANT_EXE,
              // Axes and fixed-node markers off: the green Y axis and the yellow markers
              // would read as field colours, the red X axis as an arrow.
              "view " + scene +
                  " --width 640 --height 480 --no-panel --no-axes --no-fixed-markers --field displacement" +
                  " --first-screenshot " + first.string() + " --screenshot " + last.string() +
                  " --after 24 --script-drag 260,260,330,200,12",
              true);
  ASSERT_EQ(r.status, 0) << r.output;
  ASSERT_TRUE(fs::exists(last));
  const Image a = load(first), b = load(last);
  ASSERT_EQ(a.width, 640);
  const int changed = changed_pixels(a, b);
  EXPECT_GT(changed, 640 * 480 / 50) << "the drag did not visibly move the pipe";
  // And it moved because it was grabbed, not because the drag missed and orbited the camera: the
  // displacement colours (viridis' green and yellow end) appear on the body, left of the colour bar.
  EXPECT_EQ(high_field_pixels(a), 0);
  EXPECT_GT(high_field_pixels(b), 1000);
  // A simulated body pulls back: the reaction arrow is drawn.
  EXPECT_EQ(arrow_pixels(a), 0);
  EXPECT_GT(arrow_pixels(b), 20);
}

// Without --field a scene opens coloured by its output field (the demo membrane: "stress"), exactly as
// with --field stress, and not as with --field displacement (whose colour bar label differs).
TEST_F(ViewerXvfb, AScenesOutputFieldColoursItFromTheStart) {
  const std::string common = "view --scene membrane_tear --width 480 --height 360 --no-panel --after 2";
  const fs::path plain = dir / "plain.png", stress = dir / "stress.png", disp = dir / "disp.png";
  ASSERT_EQ(run_exe(PLIANT_EXE, common + " --screenshot " + plain.string(), true).status, 0);
  ASSERT_EQ(run_exe(PLIANT_EXE, common + " --field stress --screenshot " + stress.string(), true).status, 0);
  ASSERT_EQ(run_exe(PLIANT_EXE, common + " --field displacement --screenshot " + disp.string(), true).status,
            0);
  EXPECT_EQ(changed_pixels(load(plain), load(stress)), 0);
  EXPECT_GT(changed_pixels(load(plain), load(disp)), 0);
}

// On a terminal `pliant view` says what it builds and when the scene is ready (the pipe takes many
// seconds); `script` gives the program a terminal.
TEST_F(ViewerXvfb, PliantViewReportsTheBuildOnATerminal) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1)";
  const fs::path shot = dir / "shot.png";
  const ViewRun r =
      run_exe("script -qec \"" + std::string(PLIANT_EXE) +
                  " view --scene membrane_tear --width 320 --height 240 --after 2 --screenshot " +
                  shot.string() + "\" /dev/null",
              "", true);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("membrane_tear"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ready: membrane_tear"), std::string::npos) << r.output;
  // A script (no terminal) sees nothing but errors.
  const ViewRun quiet = run_exe(
      PLIANT_EXE,
      "view --scene membrane_tear --width 320 --height 240 --after 2 --screenshot " + shot.string(), true);
  ASSERT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.output.find("ready"), std::string::npos) << quiet.output;
}

// The demo scenes without a file: the membrane (a mass-spring body) is dragged at its centre; the
// same run without a drag leaves it still (no scripted grab plays, nothing else moves it).
TEST_F(ViewerXvfb, PliantViewDemoMembraneMovesOnlyWhenDragged) {
  const fs::path first = dir / "first.png", dragged = dir / "dragged.png", still = dir / "still.png";
  const std::string common =
      "view --scene membrane_tear --width 480 --height 360 --no-panel --field displacement"
      " --after 30 --first-screenshot " +
      first.string();
  const ViewRun r1 = run_exe(
      PLIANT_EXE, common + " --screenshot " + dragged.string() + " --script-drag 240,180,300,140,10", true);
  ASSERT_EQ(r1.status, 0) << r1.output;
  const Image a = load(first), b = load(dragged);
  EXPECT_GT(changed_pixels(a, b), 480 * 360 / 100) << "the drag did not visibly move the membrane";
  const ViewRun r2 = run_exe(PLIANT_EXE, common + " --screenshot " + still.string(), true);
  ASSERT_EQ(r2.status, 0) << r2.output;
  EXPECT_EQ(changed_pixels(load(first), load(still)), 0);
}

// A wide sheet (0.3 m × 0.05 m, springs) held on its left edge, for the guides and the colour bar.
fs::path write_sheet_scene(const fs::path& dir) {
  const fs::path file = dir / "sheet.json";
  std::ofstream(file) << R"({ "pliant": 1, "name": "sheet", "time_step": 0.01, "steps": 10,
    "bodies": [{ "name": "sheet", "family": "springs",
                 "mesh": { "shape": "rect", "size": [0.3, 0.05], "cells": [24, 4] }, "fixed": ["xmin"],
                 "springs": { "method": "dragnet", "stiffness": 100, "damping": 0 } }],
    "output": { "color": "displacement" } })";
  return file;
}

// In a tall window (300 × 400) the sheet framed on the whole width would reach under the colour bar's
// value labels (from x = 243); framed clear of it, the band between the body and the bar, between the
// bar's top and bottom labels, stays background.
TEST_F(ViewerXvfb, TheColourBarDoesNotCoverTheBody) {
  const fs::path scene = write_sheet_scene(dir), shot = dir / "bar.png";
  const ViewRun r = run_exe(PLIANT_EXE,
                            "view " + scene.string() +
                                " --width 300 --height 400 --no-panel --no-grid --no-axes --no-fixed-markers"
                                " --after 2 --screenshot " +
                                shot.string(),
                            true);
  ASSERT_EQ(r.status, 0) << r.output;
  const Image img = load(shot);
  ASSERT_EQ(img.width, 300);
  const std::uint8_t* bg = img.pixel(2, img.height - 2);
  int body_right = -1, covered = 0;
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const std::uint8_t* p = img.pixel(x, y);
      const bool background = std::abs(p[0] - bg[0]) + std::abs(p[1] - bg[1]) + std::abs(p[2] - bg[2]) <= 6;
      if (y > 100 && y < 290 && x >= 243 && x < 280) covered += !background;
      if (y > 100 && y < 290 && x < 243 && !background) body_right = std::max(body_right, x);
    }
  EXPECT_GT(body_right, 150) << "no body drawn";
  EXPECT_EQ(covered, 0);
}

// The floor grid (grey, below the sheet), the axes (red, green and blue arrows) and the fixed nodes'
// markers (yellow, on the sheet's left edge) are each drawn by default and gone with their flag.
TEST_F(ViewerXvfb, FloorGridAxesAndFixedMarkersToggle) {
  const fs::path scene = write_sheet_scene(dir);
  const std::string common =
      "view " + scene.string() + " --width 480 --height 360 --no-panel --after 2 --screenshot ";
  const auto shoot = [&](const std::string& name, const std::string& flags) {
    const fs::path shot = dir / (name + ".png");
    const ViewRun r = run_exe(PLIANT_EXE, common + shot.string() + " " + flags, true);
    EXPECT_EQ(r.status, 0) << r.output;
    return load(shot);
  };
  const Image all = shoot("all", ""), no_grid = shoot("no_grid", "--no-grid"),
              no_axes = shoot("no_axes", "--no-axes"), no_fixed = shoot("no_fixed", "--no-fixed-markers");
  ASSERT_EQ(all.width, 480);
  // Per toggle: the pixels that differ, and how many of them have the guide's colour.
  const auto differing = [&](const Image& without, const auto& is_guide) {
    int n = 0, guide = 0;
    for (int y = 0; y < all.height; ++y)
      for (int x = 0; x < all.width; ++x) {
        const std::uint8_t *p = all.pixel(x, y), *q = without.pixel(x, y);
        if (std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) <= 6) continue;
        ++n;
        guide += is_guide(p) ? 1 : 0;
      }
    return std::pair{n, guide};
  };
  const auto [grid, grey] = differing(no_grid, [](const std::uint8_t* p) {
    return std::abs(p[0] - p[1]) < 20 && std::abs(p[1] - p[2]) < 25 && p[1] > 60;
  });
  EXPECT_GT(grid, 300);
  EXPECT_GT(grey, 0.7 * grid);
  const auto [axes, coloured] = differing(no_axes, [](const std::uint8_t* p) {
    const int hi = std::max({p[0], p[1], p[2]}), lo = std::min({p[0], p[1], p[2]});
    return hi - lo > 60;  // saturated red, green or blue (the white X/Y/Z labels aside)
  });
  EXPECT_GT(axes, 100);
  EXPECT_GT(coloured, 0.5 * axes);
  const auto [fixed, yellow] = differing(
      no_fixed, [](const std::uint8_t* p) { return p[0] > 140 && p[1] > 110 && p[2] < 0.6 * p[1]; });
  EXPECT_GT(fixed, 20);
  EXPECT_GT(yellow, 0.6 * fixed);
}

// Pixels of the instruments' colliders: render::kColliderColor (0.42, 0.50, 0.66), lit, whose
// channel ratios no viridis colour, background, label or arrow has.
bool collider_pixel(const std::uint8_t* p) {
  return p[2] > 90 && p[0] > 0.55 * p[2] && p[0] < 0.75 * p[2] && p[1] > 0.68 * p[2] && p[1] < 0.86 * p[2];
}

// The mean row of the colliders' pixels, or -1 when fewer than 100 show.
double collider_row(const Image& img) {
  double sum = 0;
  int n = 0;
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x)
      if (collider_pixel(img.pixel(x, y))) {
        sum += y;
        ++n;
      }
  return n > 100 ? sum / n : -1.0;
}

bool white_pixel(const std::uint8_t* p) { return p[0] > 225 && p[1] > 225 && p[2] > 225; }

// Pixels left of the colour bar and its labels that are white (the bitmap font of labels) in `after`
// but not in `before`: new labels.
int new_label_pixels(const Image& before, const Image& after) {
  int n = 0;
  for (int y = 0; y < after.height; ++y)
    for (int x = 0; x < color_bar_left(after.width, after.height); ++x)
      if (white_pixel(after.pixel(x, y)) && !white_pixel(before.pixel(x, y))) ++n;
  return n;
}

// viridis' low end (a dark purple, lit): a body at rest coloured by displacement.
bool low_end_pixel(const std::uint8_t* p) { return p[1] < 40 && p[2] > p[0] && p[2] > 50; }

// Body pixels in the low end's colour in `rest` that show a higher field value in `after` (not the
// low end, and neither a collider, an arrow nor a label drawn over them).
int recoloured_pixels(const Image& rest, const Image& after) {
  int n = 0;
  for (int y = 0; y < after.height; ++y)
    for (int x = 0; x < after.width; ++x) {
      const std::uint8_t* p = after.pixel(x, y);
      const bool arrow = p[0] > 120 && p[1] < 0.55 * p[0] && p[2] < 0.45 * p[0];
      if (low_end_pixel(rest.pixel(x, y)) && !low_end_pixel(p) && !collider_pixel(p) && !arrow &&
          !white_pixel(p))
        ++n;
    }
  return n;
}

// Instrument mode: tests/data/scenes/probe_pad_viewer.json has a probe (no track: it stays put on its
// own) hanging just above a soft Green pad, the pad framed in the window's middle. A scripted drag
// 30 pixels down from the middle pushes the probe into the pad: the pad takes displacement colours,
// the probe is drawn lower, and the bodies' force on it shows as a red arrow with a white label. The
// same drag without instrument mode grabs the pad as before (the probe stays where it was), and
// without the drag nothing moves.
TEST_F(ViewerXvfb, InstrumentModeDragsTheProbeIntoThePad) {
  const std::string scene = std::string(PLIANT_SOURCE_DIR) + "/tests/data/scenes/probe_pad_viewer.json";
  const std::string common = "view " + scene +
                             " --width 640 --height 480 --no-panel --no-axes --no-grid --no-fixed-markers"
                             " --field displacement --after 30 ";
  const std::string drag = " --script-drag 320,240,320,270,12";
  const fs::path first = dir / "first.png", still = dir / "still.png", pushed = dir / "pushed.png",
                 grabbed = dir / "grabbed.png";
  ViewRun r = run_exe(
      PLIANT_EXE,
      common + "--instrument-mode --first-screenshot " + first.string() + " --screenshot " + still.string(),
      true);
  ASSERT_EQ(r.status, 0) << r.output;
  r = run_exe(PLIANT_EXE, common + "--instrument-mode --screenshot " + pushed.string() + drag, true);
  ASSERT_EQ(r.status, 0) << r.output;
  r = run_exe(PLIANT_EXE, common + "--screenshot " + grabbed.string() + drag, true);
  ASSERT_EQ(r.status, 0) << r.output;
  const Image a = load(first), s = load(still), p = load(pushed), g = load(grabbed);
  ASSERT_EQ(s.width, 640);

  // Untouched, nothing moves and there is no force.
  EXPECT_EQ(changed_pixels(a, s), 0);
  EXPECT_EQ(arrow_pixels(s), 0);
  const double probe_row = collider_row(s);
  ASSERT_GT(probe_row, 0) << "the probe is not drawn";

  // Pushed: the pad deforms around the probe, the probe is lower, the force arrow and its label appear.
  EXPECT_GT(recoloured_pixels(s, p), 1000) << "the pad did not deform";
  EXPECT_GT(collider_row(p), probe_row + 5) << "the probe did not move down";
  EXPECT_GT(arrow_pixels(p), 20) << "no force arrow";
  EXPECT_GT(new_label_pixels(s, p), 20) << "no force label";

  // Without instrument mode the drag grabs the pad, and the probe stays where it was.
  EXPECT_GT(recoloured_pixels(s, g), 1000) << "the drag did not grab the pad";
  EXPECT_NEAR(collider_row(g), probe_row, 1.5);
}

// The force arrow also shows when an instrument's own track presses it in, without instrument mode:
// tests/data/scenes/probe_green.json's probe reaches a Green block at frame 17 and presses on.
TEST_F(ViewerXvfb, AnInstrumentMovedByItsTrackShowsItsForce) {
  const std::string scene = std::string(PLIANT_SOURCE_DIR) + "/tests/data/scenes/probe_green.json";
  const fs::path first = dir / "first.png", last = dir / "last.png";
  const ViewRun r = run_exe(PLIANT_EXE,
                            "view " + scene +
                                " --width 640 --height 480 --no-panel --no-axes --no-grid --no-fixed-markers"
                                " --after 40 --first-screenshot " +
                                first.string() + " --screenshot " + last.string(),
                            true);
  ASSERT_EQ(r.status, 0) << r.output;
  const Image a = load(first), b = load(last);
  EXPECT_EQ(arrow_pixels(a), 0);
  EXPECT_GT(arrow_pixels(b), 20) << "no force arrow";
  EXPECT_GT(new_label_pixels(a, b), 20) << "no force label";
}

int count_lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

TEST(PliantViewErrors, BadScenesAndNoDisplayGiveOneErrorLine) {
  const ViewRun missing = run_exe(PLIANT_EXE, "view /nonexistent/scene.json", false);
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(count_lines(missing.output), 1) << missing.output;
  EXPECT_NE(missing.output.find("pliant: error: /nonexistent/scene.json"), std::string::npos)
      << missing.output;

  const fs::path bad =
      fs::temp_directory_path() / ("pliant_view_bad_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream out(bad);
    out << R"({"pliant": 1, "bodies": [{"name": "a", "family": "springs", "mesh": {"shape": "rect"},)"
           R"( "springs": {"stiffness": "soft"}}]})";
  }
  // A scene is read once a window can open (the display is checked first, so that no build is
  // wasted), so its errors show under a display.
  if (have_xvfb()) {
    const ViewRun parse = run_exe(PLIANT_EXE, "view " + bad.string(), true);
    EXPECT_EQ(parse.status, 2);
    EXPECT_EQ(count_lines(parse.output), 1) << parse.output;
    EXPECT_NE(parse.output.find("/bodies/0/springs/stiffness"), std::string::npos) << parse.output;
  }
  fs::remove(bad);

  const ViewRun scene = run_exe(PLIANT_EXE, "view --scene nothing", false);
  EXPECT_EQ(scene.status, 2);
  EXPECT_NE(scene.output.find("pliant: error: --scene 'nothing'"), std::string::npos) << scene.output;

  // No display: the command fails before it builds the scene.
  const ViewRun headless = run_exe("env -u DISPLAY -u WAYLAND_DISPLAY " + std::string(PLIANT_EXE),
                                   "view --scene membrane_tear", false);
  EXPECT_EQ(headless.status, 2);
  EXPECT_EQ(count_lines(headless.output), 1) << headless.output;
  EXPECT_NE(headless.output.find("pliant: error: cannot open the viewer window: no display"),
            std::string::npos)
      << headless.output;
}
#endif

}  // namespace
}  // namespace pliant::render
