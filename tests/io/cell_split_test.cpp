// Hexahedra, prisms, pyramids and quadrilaterals split into tetrahedra and triangles: the split is
// conforming (every interior face of the result is shared by exactly two tetrahedra, the rest lie on
// the outer boundary), fills the cells exactly (volumes sum to the volume bounded by the cells' faces,
// computed independently by the divergence theorem) and is the same in every format.
#include "io/cell_split.hpp"
#include "formats.hpp"
#include "pliant/io/mesh_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace pliant::io {
namespace {

using testing::num;
using testing::put;

// An n x n x n grid of hexahedra (VTK/Gmsh corner order), nodes numbered by a random permutation
// and, when `jitter` > 0, moved randomly by up to jitter * spacing.
struct HexGrid {
  int n = 3;
  std::vector<Vec3> positions;          // by node number (0-based)
  std::vector<std::array<int, 3>> ijk;  // lattice coordinates by node number
  std::vector<std::array<long long, 8>> hexes;
};

HexGrid hex_grid(int n, double jitter, unsigned seed) {
  HexGrid g;
  g.n = n;
  const int m = n + 1;
  std::vector<int> number(m * m * m);
  std::iota(number.begin(), number.end(), 0);
  std::mt19937 rng(seed);
  if (seed != 0) std::shuffle(number.begin(), number.end(), rng);
  std::uniform_real_distribution<double> u(-jitter, jitter);
  g.positions.resize(number.size());
  g.ijk.resize(number.size());
  const auto id = [&](int i, int j, int k) { return number[(k * m + j) * m + i]; };
  for (int k = 0; k < m; ++k)
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i) {
        g.positions[id(i, j, k)] = Vec3(i + u(rng), j + u(rng), k + u(rng)) * 0.25;
        g.ijk[id(i, j, k)] = {i, j, k};
      }
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        g.hexes.push_back({id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k),
                           id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1),
                           id(i, j + 1, k + 1)});
  return g;
}

double tet_volume(const std::vector<Vec3>& p, const Tet& t) {
  return (p[t[1]] - p[t[0]]).cross(p[t[2]] - p[t[0]]).dot(p[t[3]] - p[t[0]]) / 6.0;
}

// Volume bounded by a hexahedron's faces, each quadrilateral cut along the diagonal through its
// smallest node number, by the divergence theorem (sum over outward triangles of det(a, b, c) / 6).
double hex_volume_by_faces(const std::vector<Vec3>& p, const std::array<long long, 8>& h) {
  const int faces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                           {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  double v = 0;
  for (const auto& f : faces) {
    long long q[4];
    for (int k = 0; k < 4; ++k) q[k] = h[f[k]];
    const int m = static_cast<int>(std::min_element(q, q + 4) - q);
    const long long a = q[m], b = q[(m + 1) % 4], c = q[(m + 2) % 4], d = q[(m + 3) % 4];
    for (const auto& t : {std::array<long long, 3>{a, b, c}, std::array<long long, 3>{a, c, d}})
      v += p[t[0]].dot(p[t[1]].cross(p[t[2]])) / 6.0;
  }
  return v;
}

// Face census: every face of the tetrahedra is shared by at most two, and those used once lie on
// the grid's boundary (all three nodes on one outer plane of the lattice).
void expect_conforming(const MeshFile& m, const std::vector<std::array<int, 3>>& ijk, int n,
                       std::size_t boundary_faces) {
  std::map<std::array<Index, 3>, int> faces;
  for (const Tet& t : m.tets) {
    for (int skip = 0; skip < 4; ++skip) {
      std::array<Index, 3> f;
      int k = 0;
      for (int v = 0; v < 4; ++v)
        if (v != skip) f[k++] = t[v];
      std::sort(f.begin(), f.end());
      ++faces[f];
    }
  }
  std::size_t once = 0;
  for (const auto& [f, count] : faces) {
    ASSERT_LE(count, 2) << "a face shared by " << count << " tetrahedra";
    if (count == 2) continue;
    ++once;
    bool on_plane = false;
    for (int axis = 0; axis < 3; ++axis) {
      for (int side : {0, n}) {
        on_plane |= ijk[f[0]][axis] == side && ijk[f[1]][axis] == side && ijk[f[2]][axis] == side;
      }
    }
    EXPECT_TRUE(on_plane) << "face " << f[0] << " " << f[1] << " " << f[2] << " is used once but is interior";
  }
  EXPECT_EQ(once, boundary_faces);
}

std::string legacy_vtk(const HexGrid& g) {
  std::string o = "# vtk DataFile Version 3.0\nhexes\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS " +
                  std::to_string(g.positions.size()) + " double\n";
  for (const Vec3& p : g.positions) o += num(p[0]) + " " + num(p[1]) + " " + num(p[2]) + "\n";
  o += "CELLS " + std::to_string(g.hexes.size()) + " " + std::to_string(9 * g.hexes.size()) + "\n";
  for (const auto& h : g.hexes) {
    o += "8";
    for (long long v : h) o += " " + std::to_string(v);
    o += "\n";
  }
  o += "CELL_TYPES " + std::to_string(g.hexes.size()) + "\n";
  for (std::size_t i = 0; i < g.hexes.size(); ++i) o += "12\n";
  return o;
}

std::string vtu_ascii(const HexGrid& g) {
  std::string o = "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid><Piece NumberOfPoints=\"" +
                  std::to_string(g.positions.size()) + "\" NumberOfCells=\"" +
                  std::to_string(g.hexes.size()) +
                  "\"><Points><DataArray type=\"Float64\" NumberOfComponents=\"3\">";
  for (const Vec3& p : g.positions) o += num(p[0]) + " " + num(p[1]) + " " + num(p[2]) + " ";
  o += "</DataArray></Points><Cells><DataArray type=\"Int64\" Name=\"connectivity\">";
  for (const auto& h : g.hexes)
    for (long long v : h) o += std::to_string(v) + " ";
  o += "</DataArray><DataArray type=\"Int64\" Name=\"offsets\">";
  for (std::size_t i = 0; i < g.hexes.size(); ++i) o += std::to_string(8 * (i + 1)) + " ";
  o += "</DataArray><DataArray type=\"UInt8\" Name=\"types\">";
  for (std::size_t i = 0; i < g.hexes.size(); ++i) o += "12 ";
  return o + "</DataArray></Cells></Piece></UnstructuredGrid></VTKFile>\n";
}

// Gmsh 2.2 and 4.1, ASCII or binary, with node tags = number + 1.
std::string msh(const HexGrid& g, const std::string& variant) {
  const std::size_t nn = g.positions.size(), ne = g.hexes.size();
  if (variant == "4.1 binary") {
    std::string o = "$MeshFormat\n4.1 1 8\n";
    put<std::int32_t>(o, 1);
    o += "\n$EndMeshFormat\n$Nodes\n";
    for (std::uint64_t v : {std::uint64_t{1}, std::uint64_t{nn}, std::uint64_t{1}, std::uint64_t{nn}})
      put(o, v);
    put<std::int32_t>(o, 3), put<std::int32_t>(o, 1), put<std::int32_t>(o, 0), put<std::uint64_t>(o, nn);
    for (std::size_t i = 0; i < nn; ++i) put<std::uint64_t>(o, i + 1);
    for (const Vec3& p : g.positions)
      for (int k = 0; k < 3; ++k) put<double>(o, p[k]);
    o += "\n$EndNodes\n$Elements\n";
    for (std::uint64_t v : {std::uint64_t{1}, std::uint64_t{ne}, std::uint64_t{1}, std::uint64_t{ne}})
      put(o, v);
    put<std::int32_t>(o, 3), put<std::int32_t>(o, 1), put<std::int32_t>(o, 5), put<std::uint64_t>(o, ne);
    for (std::size_t e = 0; e < ne; ++e) {
      put<std::uint64_t>(o, e + 1);
      for (long long v : g.hexes[e]) put<std::uint64_t>(o, static_cast<std::uint64_t>(v + 1));
    }
    return o + "\n$EndElements\n";
  }
  if (variant == "4.1") {
    std::string o = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 " + std::to_string(nn) + " 1 " +
                    std::to_string(nn) + "\n3 1 0 " + std::to_string(nn) + "\n";
    for (std::size_t i = 0; i < nn; ++i) o += std::to_string(i + 1) + "\n";
    for (const Vec3& p : g.positions) o += num(p[0]) + " " + num(p[1]) + " " + num(p[2]) + "\n";
    o += "$EndNodes\n$Elements\n1 " + std::to_string(ne) + " 1 " + std::to_string(ne) + "\n3 1 5 " +
         std::to_string(ne) + "\n";
    for (std::size_t e = 0; e < ne; ++e) {
      o += std::to_string(e + 1);
      for (long long v : g.hexes[e]) o += " " + std::to_string(v + 1);
      o += "\n";
    }
    return o + "$EndElements\n";
  }
  const bool binary = variant == "2.2 binary";
  std::string o = "$MeshFormat\n2.2 " + std::string(binary ? "1" : "0") + " 8\n";
  if (binary) put<std::int32_t>(o, 1), o += "\n";
  o += "$EndMeshFormat\n$Nodes\n" + std::to_string(nn) + "\n";
  for (std::size_t i = 0; i < nn; ++i) {
    const Vec3& p = g.positions[i];
    if (binary) {
      put<std::int32_t>(o, static_cast<int>(i + 1));
      for (int k = 0; k < 3; ++k) put<double>(o, p[k]);
    } else {
      o += std::to_string(i + 1) + " " + num(p[0]) + " " + num(p[1]) + " " + num(p[2]) + "\n";
    }
  }
  if (binary) o += "\n";
  o += "$EndNodes\n$Elements\n" + std::to_string(ne) + "\n";
  if (binary) put<std::int32_t>(o, 5), put<std::int32_t>(o, static_cast<int>(ne)), put<std::int32_t>(o, 2);
  for (std::size_t e = 0; e < ne; ++e) {
    if (binary) {
      put<std::int32_t>(o, static_cast<int>(e + 1)), put<std::int32_t>(o, 1), put<std::int32_t>(o, 1);
      for (long long v : g.hexes[e]) put<std::int32_t>(o, static_cast<int>(v + 1));
    } else {
      o += std::to_string(e + 1) + " 5 2 1 1";
      for (long long v : g.hexes[e]) o += " " + std::to_string(v + 1);
      o += "\n";
    }
  }
  if (binary) o += "\n";
  return o + "$EndElements\n";
}

void check_grid(const HexGrid& g, const MeshFile& m) {
  const std::size_t hexes = g.hexes.size();
  ASSERT_EQ(m.tets.size(), 6 * hexes);
  ASSERT_EQ(m.positions.size(), g.positions.size());
  EXPECT_EQ(m.notices, (std::vector<std::string>{"split " + std::to_string(hexes) + " hexahedra into " +
                                                 std::to_string(6 * hexes) + " tetrahedra"}));
  EXPECT_TRUE(m.skipped.empty());
  // Node i of the file is node i of the grid in every format (msh tags are i + 1, in order).
  for (std::size_t i = 0; i < g.positions.size(); ++i) ASSERT_EQ(m.positions[i], g.positions[i]);
  // Each hexahedron's six tetrahedra are positive and fill it (they are emitted cell by cell).
  for (std::size_t h = 0; h < hexes; ++h) {
    double sum = 0;
    for (std::size_t t = 6 * h; t < 6 * h + 6; ++t) {
      const double v = tet_volume(m.positions, m.tets[t]);
      EXPECT_GT(v, 0) << "tetrahedron " << t << " is inverted";
      sum += v;
    }
    EXPECT_NEAR(sum, hex_volume_by_faces(g.positions, g.hexes[h]), 1e-14) << "hexahedron " << h;
  }
  expect_conforming(m, g.ijk, g.n, 2 * 6 * g.n * g.n);
}

TEST(CellSplit, HexGridIsSplitConformingly) {
  for (double jitter : {0.0, 0.2}) {
    for (unsigned seed : {0u, 7u, 12345u}) {
      SCOPED_TRACE(::testing::Message() << "jitter " << jitter << " seed " << seed);
      const HexGrid g = hex_grid(3, jitter, seed);
      const MeshFile vtk = parse_mesh(legacy_vtk(g), "grid.vtk", ".vtk").value();
      check_grid(g, vtk);
      if (jitter == 0.0) {
        double total = 0;
        for (const Tet& t : vtk.tets) total += tet_volume(vtk.positions, t);
        EXPECT_NEAR(total, 27 * 0.25 * 0.25 * 0.25, 1e-14);
      }
      // Every format splits the same way.
      for (const auto& [bytes, ext] :
           {std::pair{vtu_ascii(g), std::string(".vtu")}, std::pair{msh(g, "2.2"), std::string(".msh")},
            std::pair{msh(g, "2.2 binary"), std::string(".msh")},
            std::pair{msh(g, "4.1"), std::string(".msh")},
            std::pair{msh(g, "4.1 binary"), std::string(".msh")}}) {
        auto r = parse_mesh(bytes, "grid" + ext, ext);
        ASSERT_TRUE(r.ok()) << r.message();
        EXPECT_EQ(r->tets, vtk.tets) << ext;
        EXPECT_EQ(r->notices, vtk.notices);
      }
    }
  }
}

TEST(CellSplit, SolidsShareTheirFaceDiagonals) {
  // split_solid on its own: for random numberings of two hexahedra sharing a face, the shared face
  // is cut the same way in both (its two triangles appear in the face sets of both cells).
  std::mt19937 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<long long> ids(12);
    std::iota(ids.begin(), ids.end(), 100);
    std::shuffle(ids.begin(), ids.end(), rng);
    // Nodes 0-3 bottom, 4-7 middle, 8-11 top; the hexes share the middle face 4-5-6-7.
    const long long a[8] = {ids[0], ids[1], ids[2], ids[3], ids[4], ids[5], ids[6], ids[7]};
    const long long b[8] = {ids[4], ids[5], ids[6], ids[7], ids[8], ids[9], ids[10], ids[11]};
    const auto triangles_on_shared_face = [&](const long long* h) {
      std::vector<std::array<long long, 3>> out;
      for (const auto& t : detail::split_solid(detail::CellShape::hexahedron, h)) {
        for (int skip = 0; skip < 4; ++skip) {
          std::array<long long, 3> f;
          int k = 0;
          for (int v = 0; v < 4; ++v)
            if (v != skip) f[k++] = h[t[v]];
          if (std::all_of(f.begin(), f.end(), [&](long long x) {
                return std::find(ids.begin() + 4, ids.begin() + 8, x) != ids.begin() + 8;
              })) {
            std::sort(f.begin(), f.end());
            out.push_back(f);
          }
        }
      }
      std::sort(out.begin(), out.end());
      return out;
    };
    const auto fa = triangles_on_shared_face(a), fb = triangles_on_shared_face(b);
    ASSERT_EQ(fa.size(), 2u);
    EXPECT_EQ(fa, fb);
  }
}

TEST(CellSplit, PrismsPyramidsAndHexahedronTogether) {
  // Three unit cubes in a row along x: a hexahedron, a cube cut into two prisms by the plane through
  // its edges (1,0,0)-(1,0,1) and (2,1,0)-(2,1,1), and a cube cut into six pyramids at its centre.
  std::vector<Vec3> p;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 4; ++i) p.emplace_back(i, j, k);
  const auto n = [](int i, int j, int k) { return static_cast<long long>(k * 8 + j * 4 + i); };
  p.emplace_back(2.5, 0.5, 0.5);  // node 16: centre of the third cube
  std::string vtk = "# vtk DataFile Version 3.0\nmixed\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 17 double\n";
  for (const Vec3& q : p) vtk += num(q[0]) + " " + num(q[1]) + " " + num(q[2]) + "\n";
  std::vector<std::pair<int, std::vector<long long>>> cells;
  cells.push_back(
      {12, {n(0, 0, 0), n(1, 0, 0), n(1, 1, 0), n(0, 1, 0), n(0, 0, 1), n(1, 0, 1), n(1, 1, 1), n(0, 1, 1)}});
  // VTK wedges: the base triangle's normal points away from the top triangle.
  cells.push_back({13, {n(1, 0, 0), n(1, 1, 0), n(2, 1, 0), n(1, 0, 1), n(1, 1, 1), n(2, 1, 1)}});
  cells.push_back({13, {n(1, 0, 0), n(2, 1, 0), n(2, 0, 0), n(1, 0, 1), n(2, 1, 1), n(2, 0, 1)}});
  const long long c = 16;
  const long long q[8] = {n(2, 0, 0), n(3, 0, 0), n(3, 1, 0), n(2, 1, 0),
                          n(2, 0, 1), n(3, 0, 1), n(3, 1, 1), n(2, 1, 1)};
  const int faces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                           {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  for (const auto& f : faces) {
    // Pyramid base counter-clockwise seen from the apex: the hexahedron's outward face reversed.
    cells.push_back({14, {q[f[3]], q[f[2]], q[f[1]], q[f[0]], c}});
  }
  std::size_t total = 0;
  for (const auto& cell : cells) total += cell.second.size() + 1;
  vtk += "CELLS " + std::to_string(cells.size()) + " " + std::to_string(total) + "\n";
  for (const auto& [type, ids] : cells) {
    vtk += std::to_string(ids.size());
    for (long long v : ids) vtk += " " + std::to_string(v);
    vtk += "\n";
  }
  vtk += "CELL_TYPES " + std::to_string(cells.size()) + "\n";
  for (const auto& cell : cells) vtk += std::to_string(cell.first) + "\n";
  auto r = parse_mesh(vtk, "mixed.vtk", ".vtk");
  ASSERT_TRUE(r.ok()) << r.message();
  const MeshFile& m = *r;
  EXPECT_EQ(m.tets.size(), 6u + 2 * 3 + 6 * 2);
  EXPECT_EQ(m.notices,
            (std::vector<std::string>{"split 1 hexahedron, 2 prisms and 6 pyramids into 24 tetrahedra"}));
  double volume = 0;
  for (const Tet& t : m.tets) {
    const double v = tet_volume(m.positions, t);
    EXPECT_GT(v, 0);
    volume += v;
  }
  EXPECT_NEAR(volume, 3.0, 1e-14);
  // Conforming: faces used once are exactly the 14 unit squares of the 3x1x1 box's surface, 2 triangles each.
  std::map<std::array<Index, 3>, int> faces_used;
  for (const Tet& t : m.tets) {
    for (int skip = 0; skip < 4; ++skip) {
      std::array<Index, 3> f;
      int k = 0;
      for (int v = 0; v < 4; ++v)
        if (v != skip) f[k++] = t[v];
      std::sort(f.begin(), f.end());
      ++faces_used[f];
    }
  }
  std::size_t once = 0;
  for (const auto& [f, count] : faces_used) {
    ASSERT_LE(count, 2);
    once += count == 1;
  }
  EXPECT_EQ(once, 2u * 14);
}

TEST(CellSplit, GmshPrismsAndPyramidsFollowGmshCornerOrder) {
  // A unit cube as two Gmsh prisms (type 6: triangle 1-2-3 counter-clockwise seen from 4-5-6) and a
  // second cube as a pyramid (type 7) on each face around its centre: 2 x 3 + 6 x 2 tetrahedra, all
  // positive, volume 2, and only the 2 x 5 outer unit squares (2 triangles each) used once.
  const std::string text =
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n13\n"
      "1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0 0 1\n6 1 0 1\n7 1 1 1\n8 0 1 1\n"
      "9 2 0 0\n10 2 1 0\n11 2 0 1\n12 2 1 1\n13 1.5 0.5 0.5\n$EndNodes\n$Elements\n8\n"
      "1 6 2 0 1 1 2 3 5 6 7\n2 6 2 0 1 1 3 4 5 7 8\n"
      "3 7 2 0 1 2 9 10 3 13\n4 7 2 0 1 6 7 12 11 13\n5 7 2 0 1 2 6 11 9 13\n"
      "6 7 2 0 1 3 10 12 7 13\n7 7 2 0 1 9 11 12 10 13\n8 7 2 0 1 2 3 7 6 13\n$EndElements\n";
  auto r = parse_mesh(text, "mixed.msh", ".msh");
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->tets.size(), 18u);
  EXPECT_EQ(r->notices, (std::vector<std::string>{"split 2 prisms and 6 pyramids into 18 tetrahedra"}));
  double volume = 0;
  std::map<std::array<Index, 3>, int> faces;
  for (const Tet& t : r->tets) {
    const double v = tet_volume(r->positions, t);
    EXPECT_GT(v, 0);
    volume += v;
    for (int skip = 0; skip < 4; ++skip) {
      std::array<Index, 3> f;
      int k = 0;
      for (int c = 0; c < 4; ++c)
        if (c != skip) f[k++] = t[c];
      std::sort(f.begin(), f.end());
      ++faces[f];
    }
  }
  EXPECT_NEAR(volume, 2.0, 1e-14);
  std::size_t once = 0;
  for (const auto& [f, count] : faces) {
    ASSERT_LE(count, 2);
    once += count == 1;
  }
  EXPECT_EQ(once, 2u * 10);
}

TEST(CellSplit, BoundaryQuadsAreCutLikeTheHexFacesTheyCover) {
  // A Gmsh file with the hexahedra of a jittered grid and quadrangles on its bottom face: the
  // triangles from the quadrangles are exactly the bottom faces of the tetrahedra.
  const HexGrid g = hex_grid(3, 0.2, 99);
  std::string text = msh(g, "2.2");
  std::string quads;
  int count = 0;
  for (const auto& h : g.hexes) {
    if (g.ijk[h[0]][2] != 0) continue;
    quads += std::to_string(1000 + count++) + " 3 2 2 2 " + std::to_string(h[0] + 1) + " " +
             std::to_string(h[3] + 1) + " " + std::to_string(h[2] + 1) + " " + std::to_string(h[1] + 1) +
             "\n";
  }
  const std::size_t at = text.find("$Elements\n") + 10;
  const std::size_t eol = text.find('\n', at);
  text = text.substr(0, at) + std::to_string(g.hexes.size() + count) + text.substr(eol, 1) + quads +
         text.substr(eol + 1);
  auto r = parse_mesh(text, "quads.msh", ".msh");
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->triangles.size(), 2u * count);
  std::map<std::array<Index, 3>, int> tet_faces;
  for (const Tet& t : r->tets) {
    for (int skip = 0; skip < 4; ++skip) {
      std::array<Index, 3> f;
      int k = 0;
      for (int v = 0; v < 4; ++v)
        if (v != skip) f[k++] = t[v];
      std::sort(f.begin(), f.end());
      ++tet_faces[f];
    }
  }
  for (const Tri& t : r->triangles) {
    std::array<Index, 3> f = {t[0], t[1], t[2]};
    std::sort(f.begin(), f.end());
    EXPECT_EQ(tet_faces[f], 1) << "triangle " << t[0] << " " << t[1] << " " << t[2]
                               << " is not a tetrahedron face";
  }
  // The quadrangles come first in the file, so their notice does too.
  EXPECT_EQ(r->notices, (std::vector<std::string>{"split " + std::to_string(count) + " quadrilaterals into " +
                                                      std::to_string(2 * count) + " triangles",
                                                  "split 27 hexahedra into 162 tetrahedra"}));
}

}  // namespace
}  // namespace pliant::io
