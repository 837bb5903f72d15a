// Materials: (E, ν) or Lamé constants, validated, and the named presets with their sources.
#include "bindings.hpp"

#include "pliant/materials/material.hpp"

#include <pybind11/stl.h>

namespace pliant::python {

void bind_materials(py::module_& m) {
  using materials::Material;
  py::class_<Material>(m, "Material", "An isotropic linear-elastic material (SI units).")
      .def(py::init([](double E, double nu, double density) {
             return unwrap(materials::material_from_young_poisson(E, nu, density));
           }),
           py::arg("E"), py::arg("nu"), py::arg("density") = 1000.0,
           "From Young's modulus E (Pa, > 0), Poisson's ratio nu (in (-1, 0.5)) and density (kg/m³).")
      .def_static(
          "from_lame",
          [](double lam, double mu, double density) {
            return unwrap(materials::material_from_lame(lam, mu, density));
          },
          py::arg("lam"), py::arg("mu"), py::arg("density") = 1000.0,
          "From the Lamé constants λ, μ (Pa) and density (kg/m³).")
      .def_static(
          "preset", [](const std::string& name) { return unwrap(materials::material_preset(name)); },
          py::arg("name"), "A named preset (pliant.Material.presets() lists them).")
      .def_static("presets", &materials::material_preset_names, "Names of the presets.")
      .def_readonly("lam", &Material::lambda, "first Lamé constant λ (unit: Pa)")
      .def_readonly("mu", &Material::mu, "shear modulus μ (unit: Pa)")
      .def_readonly("density", &Material::density, "mass density ρ (unit: kg/m³)")
      .def_property_readonly("E", &Material::youngs_modulus, "Young's modulus (unit: Pa)")
      .def_property_readonly("nu", &Material::poisson_ratio, "Poisson's ratio (dimensionless)")
      .def("__repr__", [](const Material& mat) {
        return "<pliant.Material E=" + py::repr(py::float_(mat.youngs_modulus())).cast<std::string>() +
               " Pa, nu=" + py::repr(py::float_(mat.poisson_ratio())).cast<std::string>() +
               ", density=" + py::repr(py::float_(mat.density)).cast<std::string>() + " kg/m³>";
      });
}

}  // namespace pliant::python
