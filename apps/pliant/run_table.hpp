// The table `pliant run` and `pliant demo` print after a headless run (headless/headless_run.hpp): steps,
// simulated and wall time, each stage's mean and largest time, the events, the contact pairs, and the
// files written, all
// read from the run's summary.
#pragma once

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace pliant::cli {

inline void print_run_table(const nlohmann::json& summary, const std::filesystem::path& out_dir) {
  const double load_s = summary.value("load_s", -1.0);
  fmt::print("scene {}: {} steps, {:.3f} s simulated, {:.2f} s wall{}\n", summary["scene"].get<std::string>(),
             summary["steps"].get<int>(), summary["time_s"].get<double>(), summary["wall_s"].get<double>(),
             load_s >= 0.0 ? fmt::format(" (+ {:.2f} s to build)", load_s) : "");
  fmt::print("  {:<34} {:>10} {:>10}\n", "stage", "mean ms", "max ms");
  for (const auto& st : summary["stages"]) {
    fmt::print("  {:<34} {:>10.3f} {:>10.3f}\n", st["stage"].get<std::string>(), st["mean_ms"].get<double>(),
               st["max_ms"].get<double>());
  }
  for (const auto& [kind, count] : summary["events"].items())
    fmt::print("  events {}: {}\n", kind, count.get<int>());
  // Each contact pair at its last step in contact, and its largest force and depth over the run.
  if (summary.contains("contacts") && summary["contacts"].is_array())
    for (const auto& c : summary["contacts"]) {
      const std::string other =
          c.contains("collider") ? c["collider"].get<std::string>() : c.value("other_body", std::string("?"));
      const nlohmann::json& last = c["last_in_contact"];
      fmt::print(
          "  contact {} on {}: {} nodes, normal {:.4g} N, tangential {:.4g} N at its last step in contact; "
          "largest normal {:.4g} N, deepest {:.3g} m\n",
          c["body"].get<std::string>(), other, last.value("contacts", 0), last.value("normal_force_n", 0.0),
          last.value("tangential_force_n", 0.0), c.value("max_normal_force_n", 0.0),
          c.value("max_penetration_m", 0.0));
    }
  fmt::print("  wrote {} VTU frames, {} PNG frames, summary.json, forces.csv in {}\n",
             summary["vtu_files"].get<int>(), summary["png_files"].get<int>(), out_dir.string());
}

}  // namespace pliant::cli
