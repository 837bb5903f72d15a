// The catalogue of verification problems, its selection, the run loop and the table and JSON outputs.
#include "problems.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <exception>
#include <limits>

namespace pliant::validate {

const std::vector<Entry>& catalogue() {
  using fem::ElementKind;
  static const std::vector<Entry> entries = [] {
    std::vector<Entry> e;
    const auto add = [&](std::string name, bool quick, std::function<Problem(const Variant&)> run) {
      e.push_back({std::move(name), quick, std::move(run)});
    };
    for (ElementKind k : {ElementKind::linear, ElementKind::corotational, ElementKind::stvk,
                          ElementKind::stable_neo_hookean}) {
      const std::string n = k == ElementKind::stable_neo_hookean ? "neo_hookean" : fem::element_kind_name(k);
      add("patch_test_" + n, true, [k](const Variant& v) { return patch_test(k, v); });
    }
    add("cantilever_timoshenko", true, [](const Variant& v) { return cantilever(CantileverCase::steel, v); });
    add("cantilever_nearly_incompressible", true,
        [](const Variant& v) { return cantilever(CantileverCase::nearly_incompressible, v); });
    add("cantilever_nearly_incompressible_six", true,
        [](const Variant& v) { return cantilever(CantileverCase::nearly_incompressible_six, v); });
    add("cook_membrane", true, cook_membrane);
    add("lame_cylinder", true, lame_cylinder);
    for (ElementKind k : {ElementKind::stable_neo_hookean, ElementKind::corotational}) {
      const std::string n = k == ElementKind::stable_neo_hookean ? "neo_hookean" : "corotational";
      add("uniaxial_stretch_" + n, true, [k](const Variant& v) { return uniaxial_stretch(k, v); });
      add("simple_shear_" + n, true, [k](const Variant& v) { return simple_shear(k, v); });
    }
    for (double degrees : {90.0, 180.0})
      for (ElementKind k : {ElementKind::corotational, ElementKind::stvk, ElementKind::stable_neo_hookean}) {
        const std::string n =
            k == ElementKind::stable_neo_hookean ? "neo_hookean" : fem::element_kind_name(k);
        add(fmt::format("rigid_rotation_{:.0f}_{}", degrees, n), true,
            [k, degrees](const Variant& v) { return rigid_rotation(k, degrees, v); });
      }
    add("beam_frequency_1", true, [](const Variant& v) { return beam_frequency(0, v); });
    add("beam_frequency_2", true, [](const Variant& v) { return beam_frequency(1, v); });
    add("damped_mode", true, damped_mode);
    add("newmark_energy", true,
        [](const Variant& v) { return integrator_energy(fem::ImplicitScheme::newmark, v); });
    for (dynamics::Scheme scheme :
         {dynamics::Scheme::explicit_euler, dynamics::Scheme::midpoint, dynamics::Scheme::rk2,
          dynamics::Scheme::rk4, dynamics::Scheme::symplectic_euler, dynamics::Scheme::central_difference})
      add(std::string(dynamics::scheme_name(scheme)) + "_energy", true,
          [scheme](const Variant& v) { return explicit_energy(scheme, v); });
    for (const char* family : {"fem", "green", "tensor_mass", "meshless"})
      add(std::string("family_beam_") + family, true,
          [family](const Variant& v) { return family_beam(family, v); });
    add("incline_slide", true, incline_slide);
    add("incline_stick", true, incline_stick);
    add("grasp_threshold", true, grasp_threshold);
    add("hertz_green", true, [](const Variant& v) { return hertz("green", v); });
    add("hertz_fem", true, [](const Variant& v) { return hertz("fem", v); });
    add("boussinesq_green", true, boussinesq);
    for (springs::Method m : springs::all_methods)
      add(fmt::format("grimm_table21_{}", springs::method_name(m)), true,
          [m](const Variant& v) { return grimm_table21(m, v); });
    add("grimm_table21_dragnet_mass_spring_velocity_coupling", true,
        [](const Variant& v) { return grimm_table21(springs::Method::dragnet_mass_spring, v, true); });
    return e;
  }();
  return entries;
}

void finish(Problem& p) {
  p.error =
      p.reference != 0.0 ? (p.measured - p.reference) / std::abs(p.reference) : p.measured - p.reference;
  // A reported comparison (NaN tolerance) passes; a NaN measurement never does.
  p.passed = std::isfinite(p.error) && (std::isnan(p.tolerance) || std::abs(p.error) <= p.tolerance);
}

double fitted_order(const Series& s) {
  const std::size_t n = s.h.size();
  if (n < 2 || s.error.size() != n) return std::numeric_limits<double>::quiet_NaN();
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) mx += std::log(s.h[i]) / n, my += std::log(std::abs(s.error[i])) / n;
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = std::log(s.h[i]) - mx;
    sxy += dx * (std::log(std::abs(s.error[i])) - my);
    sxx += dx * dx;
  }
  return sxy / sxx;
}

Result<std::vector<const Entry*>> select(const std::vector<std::string>& only, bool quick) {
  std::vector<const Entry*> out;
  const auto& all = catalogue();
  if (only.empty()) {
    for (const Entry& e : all)
      if (!quick || e.quick) out.push_back(&e);
    return out;
  }
  // Catalogue order whatever the order of `only`, each problem once.
  const auto matches = [](const std::string& pattern, const std::string& name) {
    const bool prefix = !pattern.empty() && pattern.back() == '*';
    return prefix ? name.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0 : name == pattern;
  };
  for (const std::string& pattern : only) {
    bool found = false;
    for (const Entry& e : all) found = found || matches(pattern, e.name);
    if (!found) {
      std::string names;
      for (const Entry& e : all) names += (names.empty() ? "" : ", ") + e.name;
      return Error{fmt::format(
          "validate: no problem named \"{}\" (the problems are: {}; a trailing * matches a prefix)", pattern,
          names)};
    }
  }
  for (const Entry& e : all)
    for (const std::string& pattern : only)
      if (matches(pattern, e.name)) {
        out.push_back(&e);
        break;
      }
  return out;
}

std::vector<Problem> run(const std::vector<const Entry*>& entries, const Variant& variant,
                         const std::function<void(const Problem&)>& progress) {
  std::vector<Problem> out;
  for (const Entry* e : entries) {
    Problem p;
    try {
      p = e->run(variant);
    } catch (const std::exception& error) {
      // A problem whose set-up or solve fails is a failed problem, named, not an aborted run.
      p.name = e->name;
      p.family = "?";
      p.method = std::string("failed to run: ") + error.what();
      p.measured = p.error = std::numeric_limits<double>::quiet_NaN();
      p.tolerance = 0.0;
      p.passed = false;
    }
    if (progress) progress(p);
    out.push_back(std::move(p));
  }
  return out;
}

namespace {

std::string number(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : "-"; }

std::string shortened(const std::string& s, std::size_t width) {
  // Counts code points, so that "μ" or "²" take one column like an ASCII letter.
  std::size_t points = 0, cut = s.size();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (points == width - 1 && cut == s.size()) cut = i;
    ++points;
  }
  return points <= width ? s : s.substr(0, cut) + "…";
}

std::size_t columns(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string pad(const std::string& s, std::size_t width) {
  return s + std::string(width - std::min(width, columns(s)), ' ');
}

}  // namespace

std::string table(const std::vector<Problem>& problems) {
  std::size_t name_width = 7, family_width = 6;
  for (const Problem& p : problems) {
    name_width = std::max(name_width, p.name.size());
    family_width = std::max(family_width, p.family.size());
  }
  std::string out = fmt::format("{} {} {} {:>13} {:>13} {:>10} {:>9} {:>6}  {}\n", pad("problem", name_width),
                                pad("family", family_width), pad("method", 34), "measured", "reference",
                                "error", "tolerance", "order", "result");
  int failed = 0;
  for (const Problem& p : problems) {
    failed += !p.passed;
    const std::string result = !p.passed ? "FAIL" : std::isnan(p.tolerance) ? "reported" : "pass";
    out += fmt::format("{} {} {} {:>13} {:>13} {:>10} {:>9} {:>6}  {}\n", pad(p.name, name_width),
                       pad(p.family, family_width), pad(shortened(p.method, 34), 34), number(p.measured),
                       number(p.reference), std::isfinite(p.error) ? fmt::format("{:+.2e}", p.error) : "-",
                       std::isnan(p.tolerance) ? "-" : fmt::format("{:.3g}", p.tolerance),
                       p.order ? fmt::format("{:.2f}", *p.order) : "", result);
  }
  // What each row compares, in full (the method column is cut at 34 columns): for a few problems here,
  // for the whole catalogue in the JSON.
  if (problems.size() <= 10) {
    for (const Problem& p : problems)
      out += fmt::format("  {}: {}; reference {}\n", p.name, p.method, p.reference_source);
  }
  out +=
      fmt::format("{} problems, {} passed, {} failed\n", problems.size(), problems.size() - failed, failed);
  return out;
}

nlohmann::json to_json(const std::vector<Problem>& problems, bool quick) {
  nlohmann::json list = nlohmann::json::array(), series = nlohmann::json::object();
  const auto value = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  for (const Problem& p : problems) {
    nlohmann::json j = {{"name", p.name},
                        {"family", p.family},
                        {"method", p.method},
                        {"quantity", p.quantity},
                        {"measured", value(p.measured)},
                        {"reference", value(p.reference)},
                        {"reference_source", p.reference_source},
                        {"error", value(p.error)},
                        {"tolerance", value(p.tolerance)},
                        {"passed", p.passed}};
    if (p.order) j["order"] = value(*p.order);
    list.push_back(std::move(j));
    if (!p.series.h.empty()) series[p.name] = {{"h_m", p.series.h}, {"error", p.series.error}};
  }
  return {{"problems", std::move(list)}, {"series", std::move(series)}, {"quick", quick}};
}

}  // namespace pliant::validate
