#include "material_json.hpp"

#include "pliant/scene/material_json.hpp"

namespace pliant::scene::detail {

materials::Material read_material(const JsonReader& m) {
  m.expect_object({"preset", "E", "nu", "lambda", "mu", "density"});
  const double density = m.positive_or("density", 1000.0);
  Result<materials::Material> mat = Error{""};
  if (m.has("preset")) {
    if (m.has("E") || m.has("nu") || m.has("lambda") || m.has("mu")) {
      m.fail("give either \"preset\" or elastic constants, not both");
    }
    mat = materials::material_preset(m.at("preset").string());
    if (!mat.ok()) m.at("preset").fail(mat.message());
    if (m.has("density")) mat->density = density;
    return *mat;
  }
  if (m.has("E") || m.has("nu")) {
    mat = materials::material_from_young_poisson(m.at("E").positive(),
                                                 m.at("nu").number_in(-1.0, 0.5, true, true), density);
  } else if (m.has("lambda") || m.has("mu")) {
    mat = materials::material_from_lame(m.at("lambda").number(), m.at("mu").positive(), density);
  } else {
    m.fail("expected \"preset\", \"E\" and \"nu\", or \"lambda\" and \"mu\"");
  }
  if (!mat.ok()) m.fail(mat.message());
  return *mat;
}

}  // namespace pliant::scene::detail

namespace pliant::scene {

materials::Material read_material(const JsonReader& material) { return detail::read_material(material); }

Result<materials::Material> material_from_json(std::string_view json_text, std::string_view where,
                                               std::string_view pointer) {
  const nlohmann::json doc = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Error{std::string(where) + ": " + std::string(pointer) + ": invalid JSON"};
  try {
    return detail::read_material(detail::reader_of(doc, std::string(where), std::string(pointer)));
  } catch (const detail::JsonReadError& e) {
    return Error{e.what()};
  }
}

}  // namespace pliant::scene
