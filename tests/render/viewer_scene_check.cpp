// The viewer's scene models without a window: a WorldViewerModel opened from scene JSON rebuilds its
// world in the background from the edited JSON (the new parameter acts on the physics, a bad value
// keeps the old world and reverts the edit, edits made during a rebuild are not lost), scripted
// grabs are off unless asked for; the SceneSetModel builds a scene when first shown and steps only
// the shown one; the panels of both families draw in a headless ImGui frame, also mid-rebuild.
#include "scene_set_model.hpp"
#include "test_models.hpp"
#include "viewer.hpp"
#include "world_model.hpp"

#include "pliant/scene/demo_scenes.hpp"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <thread>

namespace pliant::viewer {
namespace {

// A 10 cm square membrane held on its left edge, with the quasi-static Dragnet method: node
// positions follow from geometry alone (Grimm 2004's correction limits every spring to max_stretch),
// so the spring forces at a held node are exactly proportional to the stiffness.
std::string membrane_scene(double stiffness, bool with_grab = false) {
  std::string grab = with_grab
                         ? R"(, "interactions": [{ "type": "grab", "body": "sheet", "near": [0.1, 0.05, 0],
                   "track": [{ "t": 0, "offset": [0, 0, 0] }, { "t": 1, "offset": [0, 0, 0.02] }] }])"
                         : "";
  return R"({ "pliant": 1, "name": "sheet_test", "time_step": 0.01,
    "bodies": [{ "name": "sheet", "family": "springs",
                 "mesh": { "shape": "rect", "size": [0.1, 0.1], "cells": [8, 8] },
                 "fixed": ["xmin"],
                 "springs": { "method": "dragnet", "stiffness": )" +
         std::to_string(stiffness) + R"(, "damping": 0 } }])" + grab + "}";
}

std::unique_ptr<WorldViewerModel> open(const std::string& json, SceneViewOptions options = {}) {
  auto model = WorldViewerModel::from_scene(json, "sheet_test.json", options);
  EXPECT_TRUE(model.ok()) << (model.ok() ? "" : model.message());
  return model.ok() ? std::move(model).value() : nullptr;
}

// Grabs the triangle corner nearest the free edge's middle and pulls it 2 cm out of the plane.
Vec3 pull(WorldViewerModel& m) {
  const ViewerSurface s = m.surface(0);
  Index best = 0;
  double best_d = 1e9;
  for (std::size_t t = 0; t < s.triangles.size(); ++t) {
    const double d = (s.positions[s.triangles[t][0]] - Vec3(0.1, 0.05, 0)).norm();
    if (d < best_d) {
      best_d = d;
      best = static_cast<Index>(t);
    }
  }
  EXPECT_TRUE(m.grab(0, best, 0.0, 0.0));
  const Vec3 start = s.positions[s.triangles[static_cast<std::size_t>(best)][0]];
  m.move_grab(start + Vec3(0, 0, 0.02));
  for (int i = 0; i < 5; ++i) m.step();
  const Vec3 f = m.grab_reaction();
  m.release();
  return f;
}

TEST(SceneViewerModel, AStiffnessEditRebuildsTheWorldAndActsOnTheForce) {
  auto m = open(membrane_scene(100));
  ASSERT_TRUE(m);
  ASSERT_TRUE(m->editable());
  const Vec3 f100 = pull(*m);
  ASSERT_GT(f100.norm(), 1e-6);
  const std::uint64_t generation = m->surfaces_generation();

  m->edit(nlohmann::json::json_pointer("/bodies/0/springs/stiffness"), 300.0);
  EXPECT_EQ(m->scene_json()["bodies"][0]["springs"]["stiffness"], 300.0);
  // Until the new world lands the old one keeps running.
  EXPECT_EQ(m->world().step_count(), 5u);
  m->finish_rebuild();
  EXPECT_FALSE(m->rebuilding());
  EXPECT_TRUE(m->rebuild_error().empty()) << m->rebuild_error();
  EXPECT_NE(m->surfaces_generation(), generation);
  EXPECT_EQ(m->world().step_count(), 0u);
  const Vec3 f300 = pull(*m);
  EXPECT_LT((f300 - 3.0 * f100).norm(), 1e-9 * f300.norm()) << f100.transpose() << " | " << f300.transpose();
}

TEST(SceneViewerModel, ABadValueKeepsTheWorldAndRevertsTheEdit) {
  auto m = open(membrane_scene(100));
  ASSERT_TRUE(m);
  m->step();
  m->step();
  const std::uint64_t generation = m->surfaces_generation();
  m->edit(nlohmann::json::json_pointer("/bodies/0/springs/max_stretch"), 0.5);  // must be >= 1
  m->finish_rebuild();
  EXPECT_NE(m->rebuild_error().find("/bodies/0/springs/max_stretch"), std::string::npos)
      << m->rebuild_error();
  EXPECT_EQ(m->rebuild_error().find('\n'), std::string::npos);
  EXPECT_EQ(m->surfaces_generation(), generation);
  EXPECT_EQ(m->world().step_count(), 2u);
  EXPECT_FALSE(m->scene_json()["bodies"][0]["springs"].contains("max_stretch"));
  // A good edit afterwards clears the error.
  m->edit(nlohmann::json::json_pointer("/bodies/0/springs/max_stretch"), 1.2);
  m->finish_rebuild();
  EXPECT_TRUE(m->rebuild_error().empty());
  EXPECT_EQ(m->world().step_count(), 0u);
}

TEST(SceneViewerModel, AnEditDuringARebuildIsBuiltAfterIt) {
  auto m = open(membrane_scene(100));
  ASSERT_TRUE(m);
  const Vec3 f100 = pull(*m);
  m->edit(nlohmann::json::json_pointer("/bodies/0/springs/stiffness"), 200.0);
  m->edit(nlohmann::json::json_pointer("/bodies/0/springs/stiffness"), 400.0);
  m->finish_rebuild();
  EXPECT_EQ(m->scene_json()["bodies"][0]["springs"]["stiffness"], 400.0);
  const Vec3 f400 = pull(*m);
  EXPECT_LT((f400 - 4.0 * f100).norm(), 1e-9 * f400.norm());
}

TEST(SceneViewerModel, ScriptedGrabsPlayOnlyWhenAsked) {
  auto quiet = open(membrane_scene(100, true));
  ASSERT_TRUE(quiet);
  EXPECT_TRUE(quiet->world().scripted_grabs().empty());
  SceneViewOptions scripted;
  scripted.scripted = true;
  auto playing = open(membrane_scene(100, true), scripted);
  ASSERT_TRUE(playing);
  EXPECT_EQ(playing->world().scripted_grabs().size(), 1u);
  // The scripted grab lifts the free edge; without it nothing moves.
  for (int i = 0; i < 50; ++i) {
    quiet->step();
    playing->step();
  }
  double quiet_z = 0, playing_z = 0;
  for (const Vec3& p : quiet->surface(0).positions) quiet_z = std::max(quiet_z, std::abs(p.z()));
  for (const Vec3& p : playing->surface(0).positions) playing_z = std::max(playing_z, std::abs(p.z()));
  EXPECT_EQ(quiet_z, 0.0);
  EXPECT_GT(playing_z, 0.005);
}

TEST(SceneViewerModel, ScriptedToolsAreForwardedForDrawing) {
  std::string json = membrane_scene(100);
  json.pop_back();  // the closing brace: append an interaction list
  json += R"(, "interactions": [{ "type": "tool", "shape": "cylinder", "start": [0.05, 0.05, 0.03],
      "axis": [0, 1, 0], "radius": 0.004, "length": 0.03, "stiffness": 50,
      "track": [{ "t": 0, "offset": [0, 0, 0] }, { "t": 1, "offset": [0, 0, -0.01] }] }] })";
  auto m = open(json);
  ASSERT_TRUE(m);
  std::vector<ViewerTool> tools = m->tools();
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_LT((tools[0].centre - Vec3(0.05, 0.05, 0.03)).norm(), 1e-12);  // at its first keyframe
  EXPECT_DOUBLE_EQ(tools[0].radius, 0.004);
  EXPECT_DOUBLE_EQ(tools[0].half_length, 0.015);
  EXPECT_LT((tools[0].axis - Vec3::UnitY()).norm(), 1e-12);
  for (int i = 0; i < 50; ++i) m->step();  // t = 0.5 s: half way down the track
  tools = m->tools();
  EXPECT_NEAR(tools[0].centre.z(), 0.025, 1e-9);
}

TEST(SceneViewerModel, ResetRebuildsTheSceneInTheBackground) {
  auto m = open(membrane_scene(100));
  ASSERT_TRUE(m);
  pull(*m);
  const std::uint64_t generation = m->surfaces_generation();
  m->reset();
  m->finish_rebuild();
  EXPECT_NE(m->surfaces_generation(), generation);
  EXPECT_EQ(m->world().step_count(), 0u);
  for (const Vec3& p : m->surface(0).positions) EXPECT_EQ(p.z(), 0.0);
}

TEST(SceneViewerModel, ParseErrorsNameTheJsonPointer) {
  auto bad = WorldViewerModel::from_scene(
      R"({"pliant": 1, "bodies": [{"name": "a", "family": "springs", "mesh": {"shape": "rect"},
          "springs": {"stiffness": -1}}]})",
      "bad.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("bad.json"), std::string::npos) << bad.message();
  EXPECT_NE(bad.message().find("/bodies/0/springs/stiffness"), std::string::npos) << bad.message();
  auto missing = WorldViewerModel::from_scene_file("/nonexistent/scene.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("/nonexistent/scene.json"), std::string::npos);
}

TEST(SceneSetModel, BuildsEachSceneWhenFirstShownAndStepsOnlyTheShownOne) {
  std::atomic<int> builds[2] = {0, 0};
  std::vector<SceneSetModel::Entry> entries;
  for (int i = 0; i < 2; ++i) {
    entries.push_back({"scene" + std::to_string(i), [&builds, i]() -> Result<std::unique_ptr<ViewerModel>> {
                         ++builds[i];
                         return std::unique_ptr<ViewerModel>(
                             std::make_unique<PullTestModel>(sphere_surface(0.1 * (i + 1), 1), "ball"));
                       }});
  }
  entries.push_back({"broken", []() -> Result<std::unique_ptr<ViewerModel>> {
                       return Error{"broken.json: /bodies: expected an array"};
                     }});
  auto made = SceneSetModel::create(std::move(entries), 1);
  ASSERT_TRUE(made.ok()) << made.message();
  SceneSetModel& set = **made;
  EXPECT_EQ(builds[0], 0);
  EXPECT_EQ(builds[1], 1);
  EXPECT_EQ(set.shown(), 1u);
  ASSERT_EQ(set.surface_count(), 1u);
  EXPECT_NEAR(set.surface(0).positions[0].norm(), 0.2, 1e-12);

  // Drag scene 1, then switch: the grab is released there, and scene 0 builds in the background.
  ASSERT_TRUE(set.grab(0, 3, 0.3, 0.3));
  set.move_grab(Vec3(0.5, 0, 0));
  set.step();
  const std::uint64_t scene_before = set.scene_generation(), surfaces_before = set.surfaces_generation();
  set.show(0);
  EXPECT_NE(set.scene_generation(), scene_before);
  EXPECT_NE(set.surfaces_generation(), surfaces_before);
  set.finish_building();
  EXPECT_EQ(builds[0], 1);
  ASSERT_EQ(set.surface_count(), 1u);
  EXPECT_NEAR(set.surface(0).positions[0].norm(), 0.1, 1e-12);
  for (int i = 0; i < 10; ++i) set.step();
  set.poll();

  // Back to scene 1: not rebuilt, and it did not step while hidden, so it springs back only now.
  set.show(1);
  EXPECT_EQ(builds[1], 1);
  EXPECT_EQ(set.grab_reaction(), Vec3::Zero());  // released on the switch
  std::vector<double> moved;
  std::string unit;
  ASSERT_TRUE(set.field(0, "displacement", moved, unit));
  EXPECT_GT(*std::max_element(moved.begin(), moved.end()), 1e-3);

  // A scene whose build fails shows its message and no surfaces; the set keeps working.
  set.show(2);
  set.finish_building();
  EXPECT_EQ(set.surface_count(), 0u);
  EXPECT_NE(set.build_error().find("broken.json"), std::string::npos);
  EXPECT_FALSE(set.grab(0, 0, 0, 0));
  set.step();
  set.show(0);
  EXPECT_EQ(set.surface_count(), 1u);
}

TEST(SceneSetModel, TheFirstScenesErrorIsTheCallersError) {
  std::vector<SceneSetModel::Entry> entries;
  entries.push_back(
      {"broken", []() -> Result<std::unique_ptr<ViewerModel>> { return Error{"broken.json: bad"}; }});
  auto made = SceneSetModel::create(std::move(entries));
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.message(), "broken.json: bad");
}

// Built in the background, the first scene is "loading" (the window opens at once and shows a
// progress bar) until it lands; its failure is then fatal (nothing to show), while a later scene's
// failure is only shown in the panel.
TEST(SceneSetModel, TheFirstSceneCanBuildInTheBackground) {
  std::atomic<bool> go{false};
  std::vector<SceneSetModel::Entry> entries;
  entries.push_back({"slow", [&go]() -> Result<std::unique_ptr<ViewerModel>> {
                       while (!go) std::this_thread::sleep_for(std::chrono::milliseconds(1));
                       return std::unique_ptr<ViewerModel>(
                           std::make_unique<PullTestModel>(sphere_surface(0.1, 1), "ball"));
                     }});
  entries.push_back({"broken", []() -> Result<std::unique_ptr<ViewerModel>> {
                       return Error{"broken.json: /bodies: expected an array"};
                     }});
  auto made = SceneSetModel::create(std::move(entries), 0, SceneSetModel::FirstBuild::background);
  ASSERT_TRUE(made.ok()) << made.message();
  SceneSetModel& set = **made;
  const LoadingState loading = set.loading();
  EXPECT_TRUE(loading.active);
  EXPECT_EQ(loading.what, "slow");
  EXPECT_GE(loading.seconds, 0.0);
  EXPECT_EQ(set.surface_count(), 0u);
  EXPECT_TRUE(set.fatal_error().empty());
  const std::uint64_t generation = set.scene_generation();
  set.poll();
  set.step();  // nothing to step yet: no crash
  go = true;
  set.finish_building();
  EXPECT_FALSE(set.loading().active);
  EXPECT_NE(set.scene_generation(), generation);  // the viewer frames the scene when it lands
  EXPECT_EQ(set.surface_count(), 1u);
  set.show(1);
  set.finish_building();
  EXPECT_TRUE(set.fatal_error().empty()) << "a later scene's failure is the panel's, not fatal";
  EXPECT_NE(set.build_error().find("broken.json"), std::string::npos);

  std::vector<SceneSetModel::Entry> broken;
  broken.push_back(
      {"broken", []() -> Result<std::unique_ptr<ViewerModel>> { return Error{"broken.json: bad"}; }});
  auto failing = SceneSetModel::create(std::move(broken), 0, SceneSetModel::FirstBuild::background);
  ASSERT_TRUE(failing.ok());
  (*failing)->finish_building();
  EXPECT_EQ((*failing)->fatal_error(), "broken.json: bad");
}

// The colour field a scene opens with is its output "color" setting; --field or the user's pick wins
// when the scene has that field; a stand-in without physics reports no reaction force.
TEST(SceneViewerModel, TheSceneOutputFieldIsTheDefaultColourField) {
  std::string json = membrane_scene(100);
  json.insert(json.rfind('}'), R"(, "output": { "color": "stress" })");
  auto m = open(json);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->default_field(), "stress");
  const std::vector<std::string> names = m->field_names();
  EXPECT_EQ(pick_field(names, "", m->default_field()), "stress");
  EXPECT_EQ(pick_field(names, "displacement", m->default_field()), "displacement");
  EXPECT_EQ(pick_field(names, "temperature", m->default_field()), "stress");
  EXPECT_EQ(pick_field(names, "", "temperature"), "");
  std::vector<double> values;
  std::string unit;
  ASSERT_TRUE(m->field(0, "stress", values, unit));
  EXPECT_EQ(unit, "N");  // Grimm's node stress is a force

  auto plain = open(membrane_scene(100));  // no output settings: the scene format's default
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->default_field(), "displacement");
  EXPECT_TRUE(plain->has_reaction());

  PullTestModel pull(sphere_surface(0.1, 1), "ball");
  EXPECT_FALSE(pull.has_reaction());
  StaticMeshModel still(sphere_surface(0.1, 1), "ball");
  EXPECT_FALSE(still.has_reaction());
}

// A body with a render mesh is drawn as it, with the surface's field carried over; picking keeps the
// simulation surface; a body without one draws its surface.
TEST(SceneViewerModel, ARenderMeshIsDrawnInTheBodysPlace) {
  std::string json = membrane_scene(100);
  json.insert(json.find(R"("fixed")"),
              R"("render_mesh": { "shape": "rect", "size": [0.1, 0.1], "cells": [20, 20] }, )");
  auto m = open(json);
  ASSERT_TRUE(m);
  const auto drawn = m->drawn_surface(0);
  ASSERT_TRUE(drawn.has_value());
  EXPECT_EQ(drawn->positions.size(), 21u * 21u);
  EXPECT_EQ(m->surface(0).positions.size(), 9u * 9u);
  pull(*m);
  std::vector<double> values, carried;
  std::string unit;
  ASSERT_TRUE(m->field(0, "displacement", values, unit));
  m->drawn_field(0, values, carried);
  ASSERT_EQ(carried.size(), drawn->positions.size());
  // Interpolated from the surface's values: within their range, and not all zero after the pull.
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  for (double v : carried) {
    EXPECT_GE(v, *lo - 1e-12);
    EXPECT_LE(v, *hi + 1e-12);
  }
  EXPECT_GT(*std::max_element(carried.begin(), carried.end()), 1e-3);
  auto plain = open(membrane_scene(100));
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->drawn_surface(0).has_value());
}

// One ImGui frame with the model's panel, without a window or GL (ImGui only fills vertex lists);
// ImGui's end-of-frame checks catch unbalanced ID stacks and tree nodes. Returns the vertex count.
int draw_panel(ViewerModel& model) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(800, 600);
  io.DeltaTime = 1.0f / 60.0f;
  // A new window is sized in its first frame and drawn from the second.
  for (int frame = 0; frame < 2; ++frame) {
    ImGui::NewFrame();
    ImGui::Begin("panel");
    model.panel();
    ImGui::End();
    ImGui::Render();
  }
  return ImGui::GetDrawData()->TotalVtxCount;
}

// The model panels at the viewer's panel width and item width: no label runs past the window's right
// edge (ImGui would clip it), so nothing is truncated in the default 1024×720 window.
float panel_overflow(ViewerModel& model) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(1024, 720);
  io.DeltaTime = 1.0f / 60.0f;
  float overflow = 0.0f;
  for (int frame = 0; frame < 3; ++frame) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(kPanelMargin, kPanelMargin));
    ImGui::SetNextWindowSize(ImVec2(kPanelWidth, 4000));
    ImGui::Begin("Pliant");
    ImGui::PushItemWidth(ImGui::GetWindowWidth() * kPanelItemWidth);
    model.panel();
    ImGui::PopItemWidth();
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    overflow = w->ContentSize.x - (w->WorkRect.Max.x - w->WorkRect.Min.x);
    ImGui::End();
    ImGui::Render();
  }
  return overflow;
}

TEST(ScenePanels, LabelsFitThePanelWidth) {
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  std::string springs_json = membrane_scene(100);
  // Every spring control shows: a tearing mode and a method with Provot factors.
  springs_json.replace(
      springs_json.find(R"("method": "dragnet")"), 19,
      R"("method": "lr_mass_spring", "mass_damping": 5, "tearing": { "mode": "area_preserving" })");
  auto springs_model = open(springs_json);
  ASSERT_TRUE(springs_model);
  // The demo membrane: a longer body name, four-digit counts, the Dragnet controls.
  auto demo_membrane = WorldViewerModel::from_scene(scene::demo_scenes()[1].json, "demo:membrane_tear.json");
  ASSERT_TRUE(demo_membrane.ok()) << demo_membrane.message();
  EXPECT_LE(panel_overflow(**demo_membrane), 0.5f);
  auto green_model = open(R"({ "pliant": 1, "name": "block", "bodies": [{ "name": "block", "family": "green",
      "mesh": { "shape": "box", "size": [0.1, 0.1, 0.1], "cells": [2, 2, 2] },
      "material": { "E": 1e5, "nu": 0.3 }, "fixed": ["zmin"] }] })");
  ASSERT_TRUE(green_model);
  PullTestModel pull(sphere_surface(0.1, 1), "ball");
  EXPECT_LE(panel_overflow(*springs_model), 0.5f);
  EXPECT_LE(panel_overflow(*green_model), 0.5f);
  EXPECT_LE(panel_overflow(pull), 0.5f);
  ImGui::DestroyContext();
}

TEST(ScenePanels, DrawForBothFamiliesAndDuringARebuild) {
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  auto springs_model = open(membrane_scene(100));
  ASSERT_TRUE(springs_model);
  auto green_model = open(R"({ "pliant": 1, "name": "block", "bodies": [{ "name": "block", "family": "green",
      "mesh": { "shape": "box", "size": [0.1, 0.1, 0.1], "cells": [2, 2, 2] },
      "material": { "E": 1e5, "nu": 0.3 }, "fixed": ["zmin"] }] })");
  ASSERT_TRUE(green_model);
  for (WorldViewerModel* m : {springs_model.get(), green_model.get()}) {
    const int idle = draw_panel(*m);
    EXPECT_GT(idle, 0);
    m->reset();
    ASSERT_TRUE(m->rebuilding());
    const int busy = draw_panel(*m);  // the progress bar is extra
    EXPECT_GT(busy, idle);
    m->finish_rebuild();
    EXPECT_GT(draw_panel(*m), 0);
  }
  ImGui::DestroyContext();
}

// Drives the panel with a simulated mouse, as a person would: ImGui computes the hovered item from
// the mouse position during the frame, so the test finds a widget by scanning for its ID, then
// clicks or drags it there.
class PanelDriver {
 public:
  explicit PanelDriver(ViewerModel& model) : model_(model) {
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    frame(ImVec2(-1, -1), false);
  }
  ~PanelDriver() { ImGui::DestroyContext(); }

  // One frame with the mouse at `pos`; returns the item under it.
  ImGuiID frame(ImVec2 pos, bool down) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(600, 1400);
    io.DeltaTime = 1.0f / 60.0f;
    io.MousePos = pos;
    io.MouseDown[0] = down;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(560, 1380));
    ImGui::Begin("panel");
    model_.panel();
    ImGui::End();
    ImGui::Render();
    return ImGui::GetCurrentContext()->HoveredId;
  }

  // The ID of body 0's widget `label` (the ID stack of WorldViewerModel::body_panel, plus the JSON
  // pointer its sliders push).
  ImGuiID body_widget(const char* label, const char* pointer = nullptr) {
    ImGui::NewFrame();
    ImGui::Begin("panel");
    ImGui::PushID(0);
    ImGui::PushID("body");
    if (pointer) ImGui::PushID(pointer);
    const ImGuiID id = ImGui::GetID(label);
    if (pointer) ImGui::PopID();
    ImGui::PopID();
    ImGui::PopID();
    ImGui::End();
    ImGui::EndFrame();
    return id;
  }

  // Where the widget is (mouse not pressed); nullopt when it is not on screen.
  std::optional<ImVec2> find(ImGuiID id) {
    for (float y = 2; y < 1380; y += 3)
      for (float x : {30.0f, 80.0f, 160.0f})
        if (frame(ImVec2(x, y), false) == id) return ImVec2(x, y);
    return std::nullopt;
  }

  void click(ImVec2 at) {
    frame(at, true);
    frame(at, false);
  }
  void drag(ImVec2 from, ImVec2 to) {
    frame(from, true);
    frame(ImVec2(0.5f * (from.x + to.x), from.y), true);
    frame(to, true);
    frame(to, false);
  }

 private:
  ViewerModel& model_;
};

TEST(ScenePanels, ACheckboxAndASliderEditTheSceneThroughTheMouse) {
  auto m = open(R"({ "pliant": 1, "name": "sheet", "time_step": 0.01,
    "bodies": [{ "name": "sheet", "family": "springs",
                 "mesh": { "shape": "rect", "size": [0.1, 0.1], "cells": [6, 6] }, "fixed": ["xmin"],
                 "springs": { "method": "dragnet_mass_spring", "stiffness": 100, "damping": 0.05,
                              "mass_damping": 5 } }] })");
  ASSERT_TRUE(m);
  PanelDriver panel(*m);

  // Dragnet off: the explicit mass-spring integrator alone.
  const auto dragnet = panel.find(panel.body_widget("Dragnet"));
  ASSERT_TRUE(dragnet) << "the Dragnet checkbox is not on the panel";
  panel.click(*dragnet);
  EXPECT_EQ(m->scene_json()["bodies"][0]["springs"]["method"], "mass_spring");
  EXPECT_TRUE(m->rebuilding());
  m->finish_rebuild();
  EXPECT_TRUE(m->rebuild_error().empty()) << m->rebuild_error();

  // The stiffness slider: no edit while it is dragged, one when it is let go.
  const std::uint64_t generation = m->surfaces_generation();
  const auto stiffness = panel.find(panel.body_widget("stiffness (N/m)", "/bodies/0/springs/stiffness"));
  ASSERT_TRUE(stiffness) << "the stiffness slider is not on the panel";
  panel.frame(*stiffness, true);
  panel.frame(ImVec2(stiffness->x + 60, stiffness->y), true);
  EXPECT_EQ(m->scene_json()["bodies"][0]["springs"]["stiffness"], 100.0);
  EXPECT_FALSE(m->rebuilding());
  panel.frame(ImVec2(stiffness->x + 60, stiffness->y), false);
  // A slider takes the value under the mouse.
  const double k1 = m->scene_json()["bodies"][0]["springs"]["stiffness"].get<double>();
  EXPECT_NE(k1, 100.0);
  EXPECT_TRUE(m->rebuilding());
  m->finish_rebuild();
  EXPECT_TRUE(m->rebuild_error().empty()) << m->rebuild_error();
  EXPECT_NE(m->surfaces_generation(), generation);
  EXPECT_EQ(m->scene_json()["bodies"][0]["springs"]["method"], "mass_spring");
  // Further right is stiffer.
  panel.drag(*stiffness, ImVec2(stiffness->x + 120, stiffness->y));
  const double k2 = m->scene_json()["bodies"][0]["springs"]["stiffness"].get<double>();
  EXPECT_GT(k2, k1);
  m->finish_rebuild();
}

// A soft Green pad (8 × 2 × 8 cm, +Y up, fixed below) with a grasper beside it and, over its middle, a
// probe whose tip sphere hangs 1.5 mm above the top; `device` marks the probe as the device's.
std::string instrument_scene(bool probe, bool device) {
  std::string instruments =
      R"({ "name": "jaws", "type": "grasper", "position": [0.15, 0.03, 0.04],
           "jaws": { "opening": 0.03, "speed": 0.5 } })";
  if (probe)
    instruments += std::string(R"(, { "name": "probe", "type": "probe", "radius": 0.008, "length": 0.05,
           "position": [0.04, 0.0295, 0.04], "friction": 0.3, "device": )") +
                   (device ? "true" : "false") + " }";
  return R"({ "pliant": 1, "name": "instrument_test", "time_step": 0.01,
    "bodies": [{ "name": "pad", "family": "green",
                 "mesh": { "shape": "box", "size": [0.08, 0.02, 0.08], "cells": [4, 2, 4] },
                 "material": { "E": 2e4, "nu": 0.45 }, "fixed": ["ymin"] }],
    "instruments": [)" +
         instruments + "] }";
}

TEST(SceneViewerModel, TheMouseDrivesTheScenesDeviceInstrumentIntoThePad) {
  auto m = open(instrument_scene(true, true));
  ASSERT_TRUE(m);
  scene::World& world = m->world();
  const Index probe = world.find_instrument("probe");
  ASSERT_GE(probe, 0);
  // The device instrument, though listed second.
  std::optional<ViewerInstrument> in = m->instrument();
  ASSERT_TRUE(in);
  EXPECT_EQ(in->name, "probe");
  EXPECT_EQ(in->type, "probe");
  EXPECT_FALSE(in->grasper);
  m->step();
  in = m->instrument();
  EXPECT_EQ(in->force, Vec3::Zero());  // clear of the pad
  EXPECT_EQ(in->contacts, 0);

  // Pressed 4 mm down: the tip follows exactly, the pad pushes it back up.
  const Vec3 target = in->tip - Vec3(0, 0.004, 0);
  m->move_instrument(target);
  for (int i = 0; i < 5; ++i) m->step();
  EXPECT_LT((world.instrument_pose(probe).position - target).norm(), 1e-12);
  in = m->instrument();
  EXPECT_LT((in->tip - target).norm(), 1e-12);
  EXPECT_EQ(in->force, world.instrument_force(probe));
  EXPECT_GT(in->force.y(), 0.0);
  EXPECT_GT(in->force.y(), 10 * std::hypot(in->force.x(), in->force.z()));
  EXPECT_GT(in->contacts, 0);
  // Its orientation is kept: a probe's shaft still runs up +Y.
  EXPECT_LT((world.instrument_pose(probe).rotation * Vec3::UnitY() - Vec3::UnitY()).norm(), 1e-12);

  // A probe has no jaws: close_jaws does nothing, to it or to the grasper.
  m->close_jaws(true);
  m->step();
  EXPECT_FALSE(m->instrument()->jaws_closed);
  EXPECT_FALSE(world.grasper_state(world.find_instrument("jaws")).closed);
}

TEST(SceneViewerModel, WithoutADeviceTheFirstInstrumentIsDrivenAndItsJawsToggle) {
  auto m = open(instrument_scene(true, false));
  ASSERT_TRUE(m);
  scene::World& world = m->world();
  std::optional<ViewerInstrument> in = m->instrument();
  ASSERT_TRUE(in);
  EXPECT_EQ(in->name, "jaws");
  ASSERT_TRUE(in->grasper);
  EXPECT_FALSE(in->jaws_closed);
  m->step();
  EXPECT_NEAR(m->instrument()->gap, 0.03, 1e-12);  // open

  // Closed (the J key): reported at once, in the World after the next step, the gap narrowing at the
  // jaws' speed (nothing between them).
  m->close_jaws(true);
  EXPECT_TRUE(m->instrument()->jaws_closed);
  m->step();
  EXPECT_TRUE(world.grasper_state(0).closed);
  EXPECT_NEAR(world.grasper_state(0).gap, 0.03 - 0.5 * 0.01, 1e-9);
  EXPECT_EQ(m->instrument()->gap, world.grasper_state(0).gap);
  // And open again.
  m->close_jaws(!m->instrument()->jaws_closed);
  EXPECT_FALSE(m->instrument()->jaws_closed);
  m->step();
  EXPECT_FALSE(world.grasper_state(0).closed);

  // A model without instruments has none to drive.
  auto plain = open(membrane_scene(100));
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->instrument());
  plain->move_instrument(Vec3(0, 0, 0));  // nothing to move: no effect, no crash
  plain->close_jaws(true);
  plain->step();
}

}  // namespace
}  // namespace pliant::viewer
