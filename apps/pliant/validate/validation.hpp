// The verification catalogue of `pliant validate` (and `pliant.validate()` in Python): problems with a
// published or analytic reference and a tolerance, each run by the library's own code paths (the
// element kernels, FemForceModel, the modal analysis, the mass-spring methods), as a user would.
//
// A problem's relative error is (measured − reference)/|reference|, or measured − reference where the
// reference is 0 (then `measured` is already normalised, e.g. a force over the force of a 1 % stretch).
// It passes when |error| ≤ tolerance; a NaN tolerance marks a comparison that is reported, not checked
// (Grimm's 2005 step counts, whose gap is explained in docs/benchmarks.md). Where a refinement series
// applies, `order` is the observed order of convergence fitted over ≥ 3 meshes and `series` holds the
// per-mesh errors that the plots draw. docs/validation.md describes every problem.
#pragma once

#include "pliant/core/result.hpp"

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pliant::validate {

/// A refinement series behind a problem: one entry per mesh, coarsest first.
struct Series {
  std::vector<double> h;      ///< characteristic element size (unit: m)
  std::vector<double> error;  ///< relative error against the reference on that mesh (dimensionless)
};

/// One verification problem and its outcome.
struct Problem {
  std::string name;              ///< catalogue name (snake_case, unique)
  std::string family;            ///< Pliant family: fem, springs, ...
  std::string method;            ///< element, solver or interaction method checked
  std::string quantity;          ///< what is measured, with its unit
  double measured = 0.0;         ///< Pliant's value (unit: the quantity's)
  double reference = 0.0;        ///< the reference value (unit: the quantity's)
  std::string reference_source;  ///< authors and year, or "analytic: <formula>"
  double error = 0.0;            ///< signed relative error (absolute where the reference is 0)
  double tolerance = 0.0;        ///< largest |error| that passes; NaN: reported only
  bool passed = false;           ///< |error| ≤ tolerance (always true for a reported comparison)
  std::optional<double> order;   ///< observed order of convergence where a series applies
  Series series;                 ///< per-mesh errors (empty without a refinement series)
};

/// How a problem is run. The perturbations exist so that tests can show every check can fail.
struct Variant {
  bool quick = false;           ///< the CI subset's smaller meshes
  double youngs_scale = 1.0;    ///< Young's modulus of the simulated body (or of every other tet in the
                                ///< patch tests) times this; the reference keeps the nominal material
  bool coarse = false;          ///< the coarsest meshes only (a refinement series one level down)
  double friction_scale = 1.0;  ///< the simulated contact pair's Coulomb μ times this; the reference
                                ///< keeps the nominal μ
};

/// A catalogue entry: one problem.
struct Entry {
  std::string name;
  bool quick = true;  ///< part of the --quick CI subset
  std::function<Problem(const Variant&)> run;
};

/// Every problem, in the order they are run and printed.
const std::vector<Entry>& catalogue();

/// Fills error and passed from measured, reference and tolerance.
void finish(Problem& problem);

/// Observed order p of |error| ~ h^p: least-squares slope of log|error| against log h (≥ 2 points).
double fitted_order(const Series& series);

/// The entries to run, in catalogue order: all (or the quick ones), or those matching `only` (a name, or
/// a prefix ending in '*'). Fails naming an unknown name and listing the catalogue.
Result<std::vector<const Entry*>> select(const std::vector<std::string>& only, bool quick);

/// Runs the entries, calling `progress` after each problem (may be empty).
std::vector<Problem> run(const std::vector<const Entry*>& entries, const Variant& variant,
                         const std::function<void(const Problem&)>& progress = {});

/// The aligned text table of the problems (one row each; for up to ten problems, a line each with the
/// full method and reference source; and a last line counting failures).
std::string table(const std::vector<Problem>& problems);

/// {"problems": [...]} with exactly the keys name, family, method, quantity, measured, reference,
/// reference_source, error, tolerance (null when reported only), passed, order (only with a series),
/// plus top-level "series" (per problem with one: h and error) and "quick".
nlohmann::json to_json(const std::vector<Problem>& problems, bool quick);

/// Writes DIR/NAME.png for every problem with a series of ≥ 2 meshes: log-log |error| against h,
/// markers per mesh and the fitted line. Returns the files written; fails with one line on a write error.
Result<std::vector<std::filesystem::path>> write_plots(const std::vector<Problem>& problems,
                                                       const std::filesystem::path& directory);

}  // namespace pliant::validate
