// Checks of numeric command-line options, shared by the `pliant` verbs and `pliant-view`.
//
// CLI11's own validators accept NaN (every comparison with it is false) and name DBL_MAX in their
// messages ("not in range [0 - 1.79769e+308]"). These say what a value must be, on one line:
//   --rate: must be a finite number > 0 (got nan)
//   --steps: must be a whole number between 1 and 100000000 (got 0)
// Whole numbers may be written in exponent form (--steps 1e6); the check rewrites them in plain
// digits before CLI11 converts them.
//
// add_numbers() adds an option taking a fixed count of numbers (a 3-vector), written either
// comma-separated (--size 0.3,0.04,0.04) or space-separated (--size 0.3 0.04 0.04). Exactly that
// many are required, and a following option (-o FILE) is never taken as one of them.
#pragma once

#include <CLI/CLI.hpp>

#include <array>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace pliant::cli {

/// What a numeric option accepts: a finite number (a whole one when `whole`) in [lo, hi], or in
/// (lo, hi] when `lo_open`.
struct NumberRule {
  bool whole = false;
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;

  /// The phrase after "must be": "a finite number > 0", "a whole number between 1 and 8".
  std::string what() const {
    const std::string kind = whole ? "a whole number" : "a finite number";
    const bool has_lo = std::isfinite(lo), has_hi = std::isfinite(hi);
    if (has_lo && has_hi) return kind + " between " + text(lo) + " and " + text(hi);
    if (has_lo) return kind + (lo_open ? " > " : " ≥ ") + text(lo);
    if (has_hi) return kind + " ≤ " + text(hi);
    return kind;
  }

  /// "" when `value` (the text as typed) is acceptable, else the message after the option name.
  /// A whole number is rewritten in plain digits ("1e3" -> "1000").
  std::string check(std::string& value) const {
    double v = 0;
    if (!parse(value, v) || !std::isfinite(v) || (whole && v != std::floor(v)) ||
        (lo_open ? !(v > lo) : !(v >= lo)) || !(v <= hi)) {
      return "must be " + what() + " (got " + (value.empty() ? std::string("nothing") : value) + ")";
    }
    if (whole) value = text(v);
    return {};
  }

  /// Shown after the type in --help, without blanks: "FLOAT:POSITIVE", "INT:NONNEGATIVE",
  /// "INT:[64,8192]", "INT:>=3".
  std::string tag() const {
    const bool has_lo = std::isfinite(lo), has_hi = std::isfinite(hi);
    if (has_lo && has_hi) return "[" + text(lo) + "," + text(hi) + "]";
    if (has_hi) return "<=" + text(hi);
    if (!has_lo) return {};
    if (lo == 0) return lo_open ? "POSITIVE" : "NONNEGATIVE";
    if (whole && lo == 1) return "POSITIVE";
    return (lo_open ? ">" : ">=") + text(lo);
  }

  /// Parses all of `s` as a real number (strtod syntax, no surrounding blanks).
  static bool parse(const std::string& s, double& v) {
    if (s.empty() || std::isspace(static_cast<unsigned char>(s.front()))) return false;
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    // Overflow reads as ±inf (and is then rejected as not finite); underflow is a number.
    return end == s.c_str() + s.size();
  }

  /// A bound or a whole number as text: digits for integers, else up to 6 significant digits.
  static std::string text(double v) {
    char buffer[40];
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
      std::snprintf(buffer, sizeof buffer, "%.0f", v);
    } else {
      std::snprintf(buffer, sizeof buffer, "%.6g", v);
    }
    return buffer;
  }
};

/// Any finite number.
inline NumberRule finite_number() { return {}; }
/// A finite number > 0.
inline NumberRule positive() {
  NumberRule r;
  r.lo = 0;
  r.lo_open = true;
  return r;
}
/// A finite number ≥ 0.
inline NumberRule non_negative() {
  NumberRule r;
  r.lo = 0;
  return r;
}
/// A finite number in [lo, hi].
inline NumberRule between(double lo, double hi) {
  NumberRule r;
  r.lo = lo;
  r.hi = hi;
  return r;
}
/// A whole number in [lo, hi]; without `hi`, ≥ lo and within the range of int.
inline NumberRule whole(long long lo, long long hi = std::numeric_limits<int>::max()) {
  NumberRule r;
  r.whole = true;
  r.lo = static_cast<double>(lo);
  if (hi != std::numeric_limits<int>::max()) r.hi = static_cast<double>(hi);
  return r;
}

namespace option_detail {
// A whole rule without an explicit upper bound still keeps values within int.
inline std::string check_int_range(const NumberRule& rule, std::string& value) {
  if (std::string problem = rule.check(value); !problem.empty()) return problem;
  if (rule.whole && !std::isfinite(rule.hi) &&
      std::strtod(value.c_str(), nullptr) > std::numeric_limits<int>::max()) {
    return "must be at most " + std::to_string(std::numeric_limits<int>::max()) + " (got " + value + ")";
  }
  return {};
}
}  // namespace option_detail

/// Adds `--name VALUE` for a number checked by `rule` (a whole rule without an upper bound also
/// rejects values beyond int). Callers add ->capture_default_str() where the initial value is a
/// real default rather than a "not given" marker.
template <class T>
CLI::Option* add_number(CLI::App& app, const std::string& name, T& value, const std::string& help,
                        const NumberRule& rule) {
  static_assert(std::is_arithmetic_v<T>);
  CLI::Option* option = app.add_option(name, value, help);
  const NumberRule r = rule;
  // transform, not check: CLI11 keeps a check's validator from rewriting the text ("1e3" -> "1000").
  option->transform(
      CLI::Validator([r](std::string& text) { return option_detail::check_int_range(r, text); }, r.tag()));
  return option;
}

/// Adds `--name` taking exactly N numbers, comma- or space-separated ("X,Y,Z" is `labels`), each
/// checked by `rule`; the default shows in --help as X,Y,Z=1,0.2,0.2.
template <class T, std::size_t N>
CLI::Option* add_numbers(CLI::App& app, const std::string& name, std::array<T, N>& target,
                         const std::string& help, const NumberRule& rule, const std::string& labels) {
  static_assert(std::is_arithmetic_v<T>);
  std::string shown;
  for (std::size_t k = 0; k < N; ++k)
    shown += (k ? "," : "") + NumberRule::text(static_cast<double>(target[k]));
  auto store = [&target, rule, name](const CLI::results_t& items) {
    std::vector<std::string> values;
    for (const std::string& item : items) {
      if (!item.empty() || items.size() > 1) values.push_back(item);
    }
    if (values.size() != N) {
      std::string got;
      for (const std::string& v : values) got += (got.empty() ? "" : " ") + v;
      throw CLI::ValidationError(
          name, "needs " + std::to_string(N) + " numbers, as X,Y" + (N == 3 ? ",Z or X Y Z" : " or X Y") +
                    " (got " + (values.empty() ? std::string("none") : std::to_string(values.size())) +
                    (got.empty() ? "" : ": " + got) + ")");
    }
    std::array<T, N> parsed{};
    for (std::size_t k = 0; k < N; ++k) {
      if (std::string problem = option_detail::check_int_range(rule, values[k]); !problem.empty())
        throw CLI::ValidationError(name, problem);
      const double v = std::strtod(values[k].c_str(), nullptr);
      parsed[k] = static_cast<T>(v);
    }
    target = parsed;
    return true;
  };
  // A temporary std::function: an lvalue lambda would bind to add_option's "variable" overload.
  CLI::Option* option = app.add_option(name, CLI::callback_t(store), help);
  // At most N values, fewer in one argument each; none at all (the next word is an option) gives
  // the "needs N numbers" error above rather than taking the option as a value.
  option->delimiter(',')
      ->expected(0, static_cast<int>(N))
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->option_text(labels + "=" + shown);
  return option;
}

}  // namespace pliant::cli
