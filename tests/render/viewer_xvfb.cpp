// pliant-view end to end under Xvfb: a scripted left-drag on the body grabs and moves it (the image
// changes where the body is), the same run without the drag leaves the image unchanged, screenshots
// are valid PNGs, and bad options give one error line and exit status 2.
#include "pliant/render/image.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
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

ViewRun run(const std::string& arguments, bool under_xvfb) {
  const fs::path log = fs::temp_directory_path() / ("pliant_view_" + std::to_string(::getpid()) + ".log");
  std::string command = std::string(PLIANT_VIEW_EXE) + " " + arguments;
  if (under_xvfb) command = "xvfb-run -a -s \"-screen 0 1024x768x24\" " + command;
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

bool have_xvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

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

class ViewerXvfb : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_xvfb()) GTEST_SKIP() << "xvfb-run is not installed";
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

TEST(ViewerErrors, BadOptionsGiveOneErrorLine) {
  const ViewRun drag = run("--script-drag 1,2,3", false);
  EXPECT_EQ(drag.status, 2);
  EXPECT_NE(drag.output.find("pliant-view: error: --script-drag '1,2,3'"), std::string::npos) << drag.output;
  const ViewRun missing = run("/nonexistent/organ.msh", false);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.output.find("pliant-view: error: "), std::string::npos) << missing.output;
  EXPECT_NE(missing.output.find("organ.msh"), std::string::npos) << missing.output;
}

}  // namespace
}  // namespace pliant::render
