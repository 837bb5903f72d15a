// pliant.validate(): the verification catalogue of `pliant validate` (docs/validation.md). The C++
// side hands back the CLI's JSON; the package's __init__.py turns it into a list of dicts.
#include "bindings.hpp"

#include "validation.hpp"

#include <pybind11/stl.h>
#include <nlohmann/json.hpp>

namespace pliant::python {

void bind_validate(py::module_& m) {
  m.def(
      "_validate_json",
      [](bool quick, const std::vector<std::string>& only) {
        const auto entries = unwrap(validate::select(only, quick));
        validate::Variant variant;
        variant.quick = quick;
        std::vector<validate::Problem> problems;
        {
          py::gil_scoped_release release;  // minutes of numerics: other Python threads may run
          problems = validate::run(entries, variant);
        }
        return validate::to_json(problems, quick).dump();
      },
      py::arg("quick"), py::arg("only"),
      "The validate catalogue's JSON ({\"problems\": [...]}); use pliant.validate().");
}

}  // namespace pliant::python
