// Small closed surfaces and phyxel bodies shared by the meshless tests.
#pragma once

#include "pliant/core/tri_mesh.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/meshless/mls_body.hpp"
#include "pliant/models/meshless/sampling.hpp"

#include <gtest/gtest.h>

namespace pliant::meshless::test {

// The box [lo, hi] as 12 outward counter-clockwise triangles.
inline TriMesh box_surface(const Vec3& lo, const Vec3& hi) {
  TriMesh m;
  for (int c = 0; c < 8; ++c)
    m.positions.emplace_back(c & 1 ? hi.x() : lo.x(), c & 2 ? hi.y() : lo.y(), c & 4 ? hi.z() : lo.z());
  m.triangles = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}, {0, 1, 5}, {0, 5, 4},
                 {2, 6, 7}, {2, 7, 3}, {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};
  return m;
}

inline materials::Material jelly() {
  return materials::material_from_young_poisson(2e4, 0.3, 1000.0).value();
}

// A box sampled at `spacing` (jittered by `jitter`) as an MlsBody.
inline MlsBody box_body(const Vec3& lo, const Vec3& hi, double spacing, double jitter = 0.0,
                        MlsDef def = {}) {
  const auto sd = SignedDistance::build(box_surface(lo, hi));
  EXPECT_TRUE(sd.ok());
  const auto points = sample_phyxels(*sd, {.spacing = spacing, .jitter = jitter, .seed = 7});
  EXPECT_TRUE(points.ok()) << points.message();
  def.spacing = spacing;
  if (def.materials.empty()) def.materials = {jelly()};
  auto body = build_mls_body(*points, def);
  EXPECT_TRUE(body.ok()) << body.message();
  return std::move(body).value();
}

}  // namespace pliant::meshless::test
