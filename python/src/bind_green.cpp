// The Green's-function family's asset (Nikitina et al. 2003) built from Python: precomputation with a
// progress callback and Ctrl-C, .green files, and bodies that share one asset.
#include "bindings.hpp"

#include "pliant/core/region.hpp"
#include "pliant/io/atomic_file.hpp"
#include "pliant/models/green/green_asset.hpp"
#include "pliant/models/green/green_file.hpp"
#include "pliant/scene/green_scene_body.hpp"
#include "pliant/scene/world.hpp"

#include <pybind11/functional.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <atomic>
#include <optional>

namespace pliant::python {
namespace {

using green::GreenAsset;

// Fixed nodes from region strings ("xmin", "box:...": the scene syntax) or an array of node indices.
std::vector<Index> fixed_nodes(const TetMesh& mesh, const py::object& fixed) {
  std::vector<Index> nodes;
  if (fixed.is_none()) return nodes;
  if (py::isinstance<py::str>(fixed))
    throw py::type_error("fixed: expected a list of regions or node indices, got a str");
  const py::sequence seq = py::reinterpret_borrow<py::sequence>(fixed);
  for (std::size_t k = 0; k < seq.size(); ++k) {
    const py::object item = seq[k];
    if (py::isinstance<py::str>(item)) {
      const Region region = unwrap(parse_region(item.cast<std::string>()));
      unwrap(check_region(region, mesh.node_count()));
      const std::vector<Index> selected = select_nodes(mesh.positions, region);
      if (selected.empty())
        throw PliantError{"fixed[" + std::to_string(k) + "]: region \"" + item.cast<std::string>() +
                          "\" selects no node of the mesh"};
      nodes.insert(nodes.end(), selected.begin(), selected.end());
    } else {
      const long long n = item.cast<long long>();
      if (n < 0 || static_cast<std::size_t>(n) >= mesh.node_count())
        throw py::value_error("fixed[" + std::to_string(k) + "]: node " + std::to_string(n) + " outside 0.." +
                              std::to_string(static_cast<long long>(mesh.node_count()) - 1));
      nodes.push_back(static_cast<Index>(n));
    }
  }
  return nodes;
}

}  // namespace

void bind_green(py::module_& m) {
  py::class_<GreenAsset, std::shared_ptr<GreenAsset>>(
      m, "GreenAsset",
      "A precomputed Green's-function asset (Nikitina et al. 2003): immutable, shared by every body built "
      "from it")
      .def_static(
          "build",
          [](const TetMesh& mesh, const materials::Material& material, const py::object& fixed,
             const py::object& progress, int threads, double compress) {
            if (threads < 0) throw py::value_error("threads: expected ≥ 0 (0: all cores)");
            if (!(compress >= 0.0 && compress <= 1.0))
              throw py::value_error("compress: expected a tolerance in (0, 1], or 0 for a dense block");
            const std::vector<Index> nodes = fixed_nodes(mesh, fixed);
            green::GreenBuildSettings settings;
            settings.threads = threads;
            settings.compress_tolerance = compress;
            std::atomic<bool> cancel{false};
            settings.cancel = &cancel;
            std::optional<py::error_already_set> raised;
            // Called on the building thread without the GIL: take it to run the callback and to see
            // Ctrl-C; an exception cancels the build and is raised once it has stopped.
            settings.progress = [&](double fraction) {
              if (cancel) return;
              py::gil_scoped_acquire gil;
              try {
                if (!progress.is_none()) progress(fraction);
                if (PyErr_CheckSignals() != 0) throw py::error_already_set();
              } catch (py::error_already_set& e) {
                raised.emplace(std::move(e));
                cancel = true;
              }
            };
            Result<GreenAsset> built = [&] {
              py::gil_scoped_release release;
              return green::build_green_asset(mesh, material, nodes, {}, settings);
            }();
            if (raised) throw std::move(*raised);
            return std::make_shared<GreenAsset>(unwrap(std::move(built)));
          },
          py::arg("mesh"), py::arg("material"), py::arg("fixed"), py::arg("progress") = py::none(),
          py::arg("threads") = 0, py::arg("compress") = 0.0,
          "Precomputes the asset of a tet mesh clamped at `fixed` (region strings such as \"xmin\", or node "
          "indices). progress(fraction) is called as blocks finish; Ctrl-C or an exception in progress "
          "cancels the build. The GIL is released meanwhile. compress > 0 stores the surface block as a "
          "hierarchical matrix to that relative tolerance (e.g. 1e-3; 0: dense).")
      .def_static(
          "load",
          [](const std::filesystem::path& path) {
            return std::make_shared<GreenAsset>(unwrap(green::load_green_file(path)));
          },
          py::arg("path"), "Maps a .green file (checked: magic, version, sizes, checksum)")
      .def(
          "save",
          [](const GreenAsset& asset, const std::filesystem::path& path) {
            unwrap(io::write_file_atomically(
                path, [&](std::ostream& out) { return green::write_green(asset, out); }));
          },
          py::arg("path"),
          "Writes a .green file atomically (read it back with GreenAsset.load or a scene's cache)")
      .def_property_readonly(
          "surface", [](const GreenAsset& a) { return a.surface(); }, "The rest surface (a TriMesh copy)")
      .def_property_readonly("surface_node_count", &GreenAsset::surface_node_count)
      .def_property_readonly("compressed", &GreenAsset::compressed,
                             "True when the surface block is a hierarchical (compressed) matrix")
      .def_property_readonly("compress_tolerance", &GreenAsset::compress_tolerance,
                             "Relative tolerance of a compressed block (0 when dense)")
      .def_property_readonly(
          "block_bytes", [](const GreenAsset& a) { return a.surface_block().stored_bytes(); },
          "Bytes the asset holds for the surface block")
      .def_readonly("precompute_seconds", &GreenAsset::precompute_seconds, "(unit: s)")
      .def("__repr__", [](const GreenAsset& a) {
        return "<pliant.GreenAsset: " + std::to_string(a.surface_node_count()) + " surface nodes>";
      });

  py::reinterpret_borrow<py::class_<scene::World>>(m.attr("World"))
      .def(
          "add_green_body",
          [](scene::World& w, const std::string& name, const std::shared_ptr<GreenAsset>& asset,
             bool rotation_correction) -> scene::Body& {
            if (!asset) throw py::type_error("asset: expected a pliant.GreenAsset, got None");
            for (std::size_t i = 0; i < w.body_count(); ++i)
              if (w.body(static_cast<Index>(i)).name() == name)
                throw PliantError{"duplicate body name \"" + name + "\""};
            green::GreenDef def;
            def.rotation_correction = rotation_correction;
            Result<std::unique_ptr<scene::Body>> made = scene::make_scene_body(name, asset, def);
            if (!made.ok()) throw PliantError{made.message()};
            return w.body(w.add_body(std::move(*made)));
          },
          py::arg("name"), py::arg("asset"), py::arg("rotation_correction") = false,
          py::return_value_policy::reference_internal,
          "A Green body over a shared asset (no copy of its blocks); rotation_correction fits the handles' "
          "rotation (Nikitina et al. 2003, appendix)");
}

}  // namespace pliant::python
