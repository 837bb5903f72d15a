// Offscreen rendering through EGL: geometry, colour maps and PNG round trips checked on pixels.
// The tests skip (with the reason) where no EGL surfaceless display can be created.
#include "pliant/render/offscreen.hpp"

#include "pliant/render/color_range.hpp"
#include "pliant/render/image.hpp"
#include "render/test_sphere.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

namespace pliant::render {
namespace {

class Offscreen : public ::testing::Test {
 protected:
  static std::unique_ptr<OffscreenRenderer> make(int w, int h, int samples = 4) {
    auto r = OffscreenRenderer::create({w, h, samples});
    if (!r.ok()) {
      skip_reason = r.message();
      return nullptr;
    }
    return std::move(r).value();
  }
  static inline std::string skip_reason;
};

#define REQUIRE_RENDERER(var, ...) \
  auto var = make(__VA_ARGS__);    \
  if (!var) GTEST_SKIP() << "no EGL offscreen context: " << skip_reason

int diff(const std::uint8_t* p, const Rgb& c) {
  int d = 0;
  for (int k = 0; k < 3; ++k) d = std::max(d, std::abs(p[k] - static_cast<int>(std::lround(255 * c[k]))));
  return d;
}

// Pixels whose colour is not the background, counted as covered.
double covered_pixels(const Image& img, const Rgb& background) {
  double n = 0;
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      // Anti-aliased edge pixels count by how far they are from the background (partial coverage
      // of a dark background by a much brighter surface).
      const int d = diff(img.pixel(x, y), background);
      if (d > 0) n += 1.0;
    }
  return n;
}

Frame sphere_frame(const TriMesh& sphere, int w, int h, bool ortho, Shading shading) {
  Frame f;
  Surface s;
  s.positions = sphere.positions;
  s.triangles = sphere.triangles;
  s.shading = shading;
  f.surfaces.push_back(s);
  f.camera.width = w;
  f.camera.height = h;
  f.camera.orthographic = ortho;
  f.camera.frame(bounds(f));
  return f;
}

TEST_F(Offscreen, AutoFramedSphereFillsTheExpectedDisc) {
  const int w = 320, h = 240;
  REQUIRE_RENDERER(renderer, w, h, 1);
  const double r = 0.25;
  const TriMesh sphere = test::make_sphere(r, 4, Vec3(1.0, 2.0, -0.5));
  for (bool ortho : {false, true}) {
    Frame f = sphere_frame(sphere, w, h, ortho, Shading::smooth);
    // Zoom in so the disc is large (better relative accuracy), keeping it centred.
    f.camera.distance *= ortho ? 0.8 : 0.9;
    const Image img = renderer->render(f);
    ASSERT_EQ(img.width, w);
    ASSERT_EQ(img.height, h);
    // Centre pixel: lit surface (the surface colour's hue, brighter than the background).
    const std::uint8_t* centre = img.pixel(w / 2, h / 2);
    EXPECT_GT(diff(centre, f.background), 60);
    EXPECT_GT(centre[0], centre[2]);  // the default surface colour is warm
    // Corners: background.
    for (auto [x, y] : {std::pair{0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1}})
      EXPECT_LE(diff(img.pixel(x, y), f.background), 1) << x << "," << y;
    // Silhouette radius in pixels: perspective, the tangent cone's half angle asin(r/d) over the
    // half field of view; orthographic, r over the view's half height.
    const double t = std::tan(0.5 * f.camera.fov_y);
    const double radius_px = ortho ? r / (f.camera.distance * t) * (h / 2.0)
                                   : std::tan(std::asin(r / f.camera.distance)) / t * (h / 2.0);
    const double expected = M_PI * radius_px * radius_px;
    EXPECT_NEAR(covered_pixels(img, f.background) / expected, 1.0, 0.02) << (ortho ? "ortho" : "perspective");
  }
}

TEST_F(Offscreen, FlatAndSmoothShadingBothDrawTheSilhouette) {
  REQUIRE_RENDERER(renderer, 200, 200);
  const TriMesh sphere = test::make_sphere(1.0, 2);
  const Image smooth = renderer->render(sphere_frame(sphere, 200, 200, false, Shading::smooth));
  const Image flat = renderer->render(sphere_frame(sphere, 200, 200, false, Shading::flat));
  const Rgb bg = Frame{}.background;
  EXPECT_NEAR(covered_pixels(smooth, bg), covered_pixels(flat, bg), 0.01 * covered_pixels(flat, bg));
  EXPECT_NE(smooth.rgba, flat.rgba);  // facets shade differently
}

TEST_F(Offscreen, ColorMapEndpointsAtFieldMinAndMax) {
  const int w = 200, h = 160;
  REQUIRE_RENDERER(renderer, w, h, 1);
  // A square in the z = 0 plane seen head-on, field = x, range [-0.5, 0.5]: the left part is
  // clamped to the map's low end, the right part to its high end.
  const std::vector<Vec3> p = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  const std::vector<Tri> t = {{0, 1, 2}, {0, 2, 3}};
  const std::vector<double> field = {-1, 1, 1, -1};
  for (ColorMap map : {ColorMap::viridis, ColorMap::turbo}) {
    Frame f;
    Surface s;
    s.positions = p;
    s.triangles = t;
    s.field = field;
    s.range_min = -0.5;
    s.range_max = 0.5;
    s.color_map = map;
    s.shading = Shading::unlit;
    f.surfaces.push_back(s);
    f.camera = Camera{.target = Vec3::Zero(),
                      .yaw = 0.0,
                      .pitch = 0.0,
                      .distance = 2.0,
                      .fov_y = 0.7,
                      .orthographic = true,
                      .scene_radius = 1.5,
                      .width = w,
                      .height = h};
    f.color_bar = {true, map, -0.5, 0.5, "X M"};
    const Image img = renderer->render(f);
    // Orthographic half width = 2·tan(0.35)·(200/160) ≈ 0.91 m; x = ±0.75 m lies in the clamped parts.
    const double half_w = 2.0 * std::tan(0.35) * w / h;
    const int left = static_cast<int>((1.0 - 0.75 / half_w) * w / 2), right = w - 1 - left;
    EXPECT_LE(diff(img.pixel(left, h / 2), sample(map, 0.0)), 2);
    EXPECT_LE(diff(img.pixel(right, h / 4), sample(map, 1.0)), 2);  // above the colour bar's reach
    // The centre (x = 0) shows the middle of the map.
    EXPECT_LE(diff(img.pixel(w / 2, h / 2), sample(map, 0.5)), 6);
  }
}

TEST_F(Offscreen, ColorBarShowsTheMapTopToBottom) {
  const int w = 240, h = 300;
  REQUIRE_RENDERER(renderer, w, h, 1);
  Frame f;
  f.camera.width = w;
  f.camera.height = h;
  f.color_bar = {true, ColorMap::turbo, 0.0, 2.5e-3, "DISPLACEMENT M"};
  const Image img = renderer->render(f);
  // Find the bar: the columns on the right holding non-background pixels at mid height.
  int bar_x = -1;
  for (int x = w - 1; x > w / 2 && bar_x < 0; --x)
    if (diff(img.pixel(x, h / 2), f.background) > 20 && diff(img.pixel(x - 2, h / 2), f.background) > 20)
      bar_x = x - 1;
  ASSERT_GE(bar_x, 0) << "no colour bar found";
  int top = -1, bottom = -1;
  for (int y = 0; y < h; ++y)
    if (diff(img.pixel(bar_x, y), sample(ColorMap::turbo, 1.0)) <= 6) {
      top = y;
      break;
    }
  for (int y = h - 1; y >= 0; --y)
    if (diff(img.pixel(bar_x, y), sample(ColorMap::turbo, 0.0)) <= 6) {
      bottom = y;
      break;
    }
  ASSERT_GE(top, 0);
  ASSERT_GE(bottom, 0);
  EXPECT_GT(bottom - top, h / 3);  // high end on top, low end below, a long bar between
  // The min/max labels put light pixels left of the bar.
  int light = 0;
  for (int y = 0; y < h; ++y)
    for (int x = w / 2; x < bar_x - 4; ++x)
      if (img.pixel(x, y)[0] > 200 && img.pixel(x, y)[1] > 200) ++light;
  EXPECT_GT(light, 20);
}

// A body at rest whose field is round-off (0 ... 3e-17 m, the new user's speckled organ): with the
// range color_range gives, every surface pixel is one colour, the map's low end, unlit.
TEST_F(Offscreen, RoundOffAtRestIsOneColour) {
  const int w = 200, h = 200;
  REQUIRE_RENDERER(renderer, w, h, 1);
  const TriMesh sphere = test::make_sphere(1.0, 3, Vec3::Zero());
  std::vector<double> field(sphere.positions.size());
  for (std::size_t i = 0; i < field.size(); ++i) field[i] = 3e-17 * static_cast<double>(i % 7) / 6.0;
  const ColorRange range = color_range(0.0, 3e-17, "m", 2.0);
  ASSERT_TRUE(range.single());
  Frame f = sphere_frame(sphere, w, h, false, Shading::unlit);
  f.surfaces[0].field = field;
  f.surfaces[0].color_map = ColorMap::turbo;
  f.surfaces[0].range_min = range.min;
  f.surfaces[0].range_max = range.max;
  const Image img = renderer->render(f);
  int surface = 0, other = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (diff(img.pixel(x, y), f.background) == 0) continue;
      ++surface;
      if (diff(img.pixel(x, y), sample(ColorMap::turbo, 0.0)) > 2) ++other;
    }
  EXPECT_GT(surface, w * h / 10);
  // Anti-aliasing is off (1 sample): no edge pixels mix with the background.
  EXPECT_EQ(other, 0) << "of " << surface << " surface pixels";
}

// A degenerate range (a body at rest: the field is 0 everywhere and the range [0, 0]) shows the
// field at the map's low end, and the bar in that one colour with one value, not a full map.
TEST_F(Offscreen, ADegenerateRangeShowsTheLowEndAndOneValue) {
  const int w = 240, h = 300;
  REQUIRE_RENDERER(renderer, w, h, 1);
  const std::vector<Vec3> p = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  const std::vector<Tri> t = {{0, 1, 2}, {0, 2, 3}};
  const std::vector<double> field = {0, 0, 0, 0};
  Frame f;
  Surface s;
  s.positions = p;
  s.triangles = t;
  s.field = field;
  s.range_min = s.range_max = 0.0;
  s.color_map = ColorMap::turbo;
  s.shading = Shading::unlit;
  f.surfaces.push_back(s);
  f.camera = Camera{.yaw = 0.0, .pitch = 0.0, .distance = 4.0, .width = w, .height = h};
  f.color_bar = {true, ColorMap::turbo, 0.0, 0.0, color_bar_label("displacement", "m")};
  EXPECT_EQ(f.color_bar.label, "displacement (m)");
  const Image img = renderer->render(f);
  EXPECT_LE(diff(img.pixel(w / 3, h / 2), sample(ColorMap::turbo, 0.0)), 2);
  int bar_x = -1;
  for (int x = w - 1; x > w / 2 && bar_x < 0; --x)
    if (diff(img.pixel(x, h / 2), f.background) > 20 && diff(img.pixel(x - 2, h / 2), f.background) > 20)
      bar_x = x - 1;
  ASSERT_GE(bar_x, 0) << "no colour bar found";
  int low = 0, other = 0;
  for (int y = h / 4; y < 3 * h / 4; ++y)
    (diff(img.pixel(bar_x, y), sample(ColorMap::turbo, 0.0)) <= 2 ? low : other)++;
  EXPECT_EQ(other, 0);
  EXPECT_GT(low, h / 3);
  // One value label (the bottom "0"): no light pixels next to the bar's top.
  int light_top = 0;
  for (int y = 0; y < h / 2; ++y)
    for (int x = w / 2; x < bar_x - 4; ++x)
      if (img.pixel(x, y)[0] > 200 && img.pixel(x, y)[1] > 200 && y > h / 5) ++light_top;
  EXPECT_EQ(light_top, 0);
}

TEST_F(Offscreen, ArrowIsDrawnBetweenItsEnds) {
  const int w = 200, h = 200;
  REQUIRE_RENDERER(renderer, w, h, 1);
  Frame f;
  f.camera = Camera{.target = Vec3::Zero(),
                    .yaw = 0.0,
                    .pitch = 0.0,
                    .distance = 2.0,
                    .fov_y = 0.7,
                    .orthographic = true,
                    .scene_radius = 1.0,
                    .width = w,
                    .height = h};
  f.arrows.push_back({Vec3(-0.5, 0, 0), Vec3(0.5, 0, 0), {0.9f, 0.1f, 0.1f}, 0.03, "1.5 N"});
  const Image img = renderer->render(f);
  const Vec3 mid = f.camera.project(Vec3(0, 0, 0)), beyond = f.camera.project(Vec3(0.7, -0.3, 0));
  EXPECT_GT(img.pixel(static_cast<int>(mid.x()), static_cast<int>(mid.y()))[0], 100);
  EXPECT_LE(diff(img.pixel(static_cast<int>(beyond.x()), static_cast<int>(beyond.y())), f.background), 1);
}

TEST_F(Offscreen, PngRoundTripKeepsPixels) {
  REQUIRE_RENDERER(renderer, 96, 64);
  const TriMesh sphere = test::make_sphere(1.0, 2);
  const Image img = renderer->render(sphere_frame(sphere, 96, 64, false, Shading::smooth));
  auto png = encode_png(img);
  ASSERT_TRUE(png.ok()) << png.message();
  EXPECT_EQ(png->substr(1, 3), "PNG");
  auto back = decode_png(*png, "frame.png");
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->width, 96);
  EXPECT_EQ(back->height, 64);
  EXPECT_EQ(back->rgba, img.rgba);
}

TEST_F(Offscreen, RendersAreDeterministic) {
  REQUIRE_RENDERER(renderer, 128, 128);
  const TriMesh sphere = test::make_sphere(1.0, 3);
  const Frame f = sphere_frame(sphere, 128, 128, false, Shading::smooth);
  EXPECT_EQ(renderer->render(f).rgba, renderer->render(f).rgba);
}

TEST(OffscreenErrors, RejectsBadSizes) {
  auto r = OffscreenRenderer::create({0, 100, 1});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("0x100"), std::string::npos);
  EXPECT_FALSE(OffscreenRenderer::create({100, 100000, 1}).ok());
}

TEST(Png, EncodeRejectsInconsistentImages) {
  Image img{2, 2, std::vector<std::uint8_t>(15)};
  EXPECT_FALSE(encode_png(img).ok());
  EXPECT_FALSE(encode_png(Image{}).ok());
}

TEST(Png, DecodeRejectsGarbageAndLyingHeaders) {
  auto bad = decode_png("not an image at all", "x.png");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message().rfind("x.png: ", 0), 0u);
  // A real 1×1 PNG, then its IHDR width patched to 2^30: refused before any pixel allocation.
  Image one{1, 1, {10, 20, 30, 255}};
  std::string png = *encode_png(one);
  auto ok = decode_png(png);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->rgba, one.rgba);
  png[16] = 0x40;  // IHDR width, big-endian at bytes 16..19
  auto lying = decode_png(png, "big.png");
  EXPECT_FALSE(lying.ok());
}

}  // namespace
}  // namespace pliant::render

namespace pliant::render {
namespace {

TEST(OffscreenPlatforms, DevicePlatformDrawsLikeSurfaceless) {
  auto surfaceless = OffscreenRenderer::create({64, 64, 1, EglPlatform::surfaceless});
  auto device = OffscreenRenderer::create({64, 64, 1, EglPlatform::device});
  if (!surfaceless.ok() || !device.ok())
    GTEST_SKIP() << (surfaceless.ok() ? device.message() : surfaceless.message());
  const TriMesh sphere = test::make_sphere(1.0, 2);
  const Frame f = sphere_frame(sphere, 64, 64, false, Shading::flat);
  const Image a = (*surfaceless)->render(f), b = (*device)->render(f);
  const Rgb bg = Frame{}.background;
  EXPECT_NEAR(covered_pixels(a, bg), covered_pixels(b, bg), 0.02 * covered_pixels(a, bg));
}

}  // namespace
}  // namespace pliant::render
