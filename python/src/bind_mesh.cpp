// Meshes as numpy arrays: TetMesh and TriMesh, every reader and writer, procedural shapes, gmsh
// meshing (when built) and validation findings.
#include "bindings.hpp"

#include "pliant/core/topology.hpp"
#include "pliant/core/validate.hpp"
#include "pliant/io/mesh_file.hpp"
#include "pliant/io/write_mesh.hpp"
#include "pliant/meshing/ball.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/disc_membrane.hpp"
#include "pliant/meshing/hex_disc.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "pliant/meshing/rect_membrane.hpp"
#include "pliant/meshing/tube.hpp"
#if PLIANT_HAS_MESHING_GMSH
#include "pliant/meshing_gmsh/tetrahedralize.hpp"
#endif

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

namespace pliant::python {
namespace {

template <class Mesh>
py::list findings(const Mesh& mesh) {
  const ValidationReport report = validate(mesh);
  py::list out;
  for (const Finding& f : report.findings) {
    py::dict d;
    d["severity"] = to_string(f.severity);
    d["code"] = f.code;
    d["message"] = f.message;
    d["element"] = f.element;
    out.append(std::move(d));
  }
  return out;
}

Index checked_count(long long value, const char* argument, long long min) {
  if (value < min || value > 100'000'000)
    throw py::value_error(std::string(argument) + ": expected an integer in " + std::to_string(min) +
                          "..100000000, got " + std::to_string(value));
  return static_cast<Index>(value);
}

}  // namespace

void bind_mesh(py::module_& m) {
  py::class_<TetMesh>(m, "TetMesh", "A tetrahedral volume mesh: rest points (unit: m) and tets.")
      .def(py::init([](const py::handle& points, const py::handle& tets) {
             TetMesh mesh;
             mesh.positions = to_points(points, "points");
             mesh.tets = to_indices<4>(tets, "tets", mesh.positions.size());
             return mesh;
           }),
           py::arg("points"), py::arg("tets"),
           "From an (n, 3) array of points (unit: m) and an (m, 4) integer array of node indices (copied).")
      .def_property_readonly(
          "points", [](py::object self) { return view_vec3(self.cast<const TetMesh&>().positions, self); },
          "(n, 3) float64, read-only view (unit: m)")
      .def_property_readonly(
          "tets",
          [](py::object self) { return view_index<4>(std::span(self.cast<const TetMesh&>().tets), self); },
          "(m, 4) int32, read-only view")
      .def_property_readonly("node_count", &TetMesh::node_count)
      .def_property_readonly("tet_count", &TetMesh::tet_count)
      .def(
          "boundary", [](const TetMesh& mesh) { return extract_boundary(mesh).mesh; },
          "The boundary surface (outward triangles over its own compact node numbering).")
      .def("validate", &findings<TetMesh>,
           "Findings as dicts (severity, code, message, element); empty when the mesh is sound.")
      .def("__repr__", [](const TetMesh& mesh) {
        return "<pliant.TetMesh: " + std::to_string(mesh.node_count()) + " nodes, " +
               std::to_string(mesh.tet_count()) + " tets>";
      });

  py::class_<TriMesh>(m, "TriMesh", "A triangle surface or membrane: points (unit: m) and triangles.")
      .def(py::init([](const py::handle& points, const py::handle& triangles) {
             TriMesh mesh;
             mesh.positions = to_points(points, "points");
             mesh.triangles = to_indices<3>(triangles, "triangles", mesh.positions.size());
             return mesh;
           }),
           py::arg("points"), py::arg("triangles"),
           "From an (n, 3) array of points (unit: m) and a (k, 3) integer array of node indices (copied).")
      .def_property_readonly(
          "points", [](py::object self) { return view_vec3(self.cast<const TriMesh&>().positions, self); },
          "(n, 3) float64, read-only view (unit: m)")
      .def_property_readonly(
          "triangles",
          [](py::object self) {
            return view_index<3>(std::span(self.cast<const TriMesh&>().triangles), self);
          },
          "(k, 3) int32, read-only view")
      .def_property_readonly("node_count", &TriMesh::node_count)
      .def_property_readonly("triangle_count", &TriMesh::triangle_count)
      .def("validate", &findings<TriMesh>,
           "Findings as dicts (severity, code, message, element); empty when the mesh is sound.")
      .def("__repr__", [](const TriMesh& mesh) {
        return "<pliant.TriMesh: " + std::to_string(mesh.node_count()) + " nodes, " +
               std::to_string(mesh.triangle_count()) + " triangles>";
      });

  m.def(
      "read_mesh",
      [](const std::filesystem::path& path) -> py::object {
        io::MeshFile file = unwrap(io::read_mesh_file(path));
        if (!file.tets.empty()) return py::cast(unwrap(io::read_tet_mesh(path)));
        return py::cast(unwrap(io::read_tri_mesh(path)));
      },
      py::arg("path"),
      "Reads any format Pliant knows (.msh .node/.ele .mesh .vtk .vtu .vtp .obj .stl .off .ply): a TetMesh "
      "when the file has tetrahedra, else a TriMesh. Raises pliant.Error naming the file and line.");
  m.def(
      "read_tet_mesh", [](const std::filesystem::path& path) { return unwrap(io::read_tet_mesh(path)); },
      py::arg("path"), "The tetrahedra of a volume file; pliant.Error when it has none.");
  m.def(
      "read_tri_mesh", [](const std::filesystem::path& path) { return unwrap(io::read_tri_mesh(path)); },
      py::arg("path"), "The triangles of a surface file (or a volume file's triangle patches).");
  m.def(
      "write_mesh",
      [](const std::filesystem::path& path, const py::object& mesh) {
        if (py::isinstance<TetMesh>(mesh)) return unwrap(io::write_mesh(path, mesh.cast<const TetMesh&>()));
        if (py::isinstance<TriMesh>(mesh)) return unwrap(io::write_mesh(path, mesh.cast<const TriMesh&>()));
        throw py::type_error("mesh: expected a pliant.TetMesh or pliant.TriMesh, got " +
                             py::str(py::type::handle_of(mesh)).cast<std::string>());
      },
      py::arg("path"), py::arg("mesh"),
      "Writes by extension: .vtu/.mesh keep tets; .obj/.stl/.off/.ply get a volume's boundary surface. "
      "The file appears atomically.");

  m.def(
      "box",
      [](const py::handle& size, const std::array<long long, 3>& cells, const py::handle& origin) {
        meshing::BoxDef def;
        def.size = to_vec3(size, "size");
        def.origin = to_vec3(origin, "origin");
        for (int k = 0; k < 3; ++k)
          def.cells[static_cast<std::size_t>(k)] =
              checked_count(cells[static_cast<std::size_t>(k)], "cells", 1);
        return unwrap(meshing::box_mesh(def));
      },
      py::arg("size") = std::array<double, 3>{1.0, 0.2, 0.2},
      py::arg("cells") = std::array<long long, 3>{10, 2, 2},
      py::arg("origin") = std::array<double, 3>{0, 0, 0},
      "A box [origin, origin + size] (unit: m) on a grid of cells, five tets per cell.");
  m.def(
      "tube",
      [](double inner_radius, double outer_radius, double length, long long around, long long along,
         long long through) {
        meshing::TubeDef def;
        def.inner_radius = inner_radius;
        def.outer_radius = outer_radius;
        def.length = length;
        def.segments_around = checked_count(around, "segments_around", 3);
        def.segments_along = checked_count(along, "segments_along", 1);
        def.segments_through = checked_count(through, "segments_through", 1);
        return unwrap(meshing::tube_mesh(def));
      },
      py::arg("inner_radius") = 0.07, py::arg("outer_radius") = 0.10, py::arg("length") = 0.5,
      py::arg("segments_around") = 48, py::arg("segments_along") = 40, py::arg("segments_through") = 3,
      "A thick-walled tube along z (radii and length in m).");
  m.def(
      "ball",
      [](double radius, long long resolution, const py::handle& center) {
        meshing::BallDef def;
        def.radius = radius;
        def.resolution = checked_count(resolution, "resolution", 2);
        def.center = to_vec3(center, "center");
        return unwrap(meshing::ball_mesh(def));
      },
      py::arg("radius") = 0.1, py::arg("resolution") = 8, py::arg("center") = std::array<double, 3>{0, 0, 0},
      "A solid ball of tets (radius in m; resolution: cells across the diameter, even).");
  m.def(
      "icosphere",
      [](double radius, long long subdivisions, const py::handle& center) {
        meshing::IcosphereDef def;
        def.radius = radius;
        def.subdivisions = checked_count(subdivisions, "subdivisions", 0);
        def.center = to_vec3(center, "center");
        return unwrap(meshing::icosphere(def));
      },
      py::arg("radius") = 0.1, py::arg("subdivisions") = 3,
      py::arg("center") = std::array<double, 3>{0, 0, 0}, "A closed triangle sphere (radius in m).");
  m.def(
      "rect_membrane",
      [](const std::array<double, 2>& size, long long cells_x, long long cells_y) {
        meshing::RectMembraneDef def;
        def.size = Vec2(size[0], size[1]);
        def.cells_x = checked_count(cells_x, "cells_x", 1);
        def.cells_y = checked_count(cells_y, "cells_y", 1);
        return unwrap(meshing::rect_membrane(def));
      },
      py::arg("size") = std::array<double, 2>{0.1, 0.1}, py::arg("cells_x") = 20, py::arg("cells_y") = 20,
      "A rectangular membrane in the z = 0 plane (size in m).");
  m.def(
      "disc_membrane",
      [](double radius, long long nodes, long long boundary_nodes) {
        meshing::DiscMembraneDef def;
        def.radius = radius;
        def.nodes = checked_count(nodes, "nodes", 7);
        def.boundary_nodes = checked_count(boundary_nodes, "boundary_nodes", 6);
        return unwrap(meshing::disc_membrane(def));
      },
      py::arg("radius") = 0.05, py::arg("nodes") = 1403, py::arg("boundary_nodes") = 140,
      "The disc membrane of Grimm (2005) (radius in m).");
  m.def(
      "hex_disc",
      [](double radius, long long rings) {
        meshing::HexDiscDef def;
        def.radius = radius;
        def.rings = checked_count(rings, "rings", 1);
        return unwrap(meshing::hex_disc(def));
      },
      py::arg("radius") = 0.05, py::arg("rings") = 9,
      "A hexagonal disc of equilateral triangles (radius in m).");
#if PLIANT_HAS_MESHING_GMSH
  m.def(
      "tetrahedralize",
      [](const TriMesh& surface, double size, bool remesh_surface, double min_dihedral) {
        meshing_gmsh::TetrahedralizeOptions options;
        options.target_size = size;
        options.remesh_surface = remesh_surface;
        options.min_dihedral_deg = min_dihedral;
        py::gil_scoped_release release;
        return unwrap(meshing_gmsh::tetrahedralize(surface, options));
      },
      py::arg("surface"), py::arg("size") = 0.0, py::arg("remesh_surface") = false,
      py::arg("min_dihedral") = 10.0,
      "Fills a closed surface with tets using gmsh (size: largest tet edge, m; 0: from the surface), then "
      "improves tets with a dihedral angle under min_dihedral (degrees; 0: skip).");
#endif
}

}  // namespace pliant::python
