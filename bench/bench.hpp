// The benchmark registry behind `pliant bench NAME`.
//
// Each benchmark is one file under bench/<area>/ that defines a run function and registers it with
// PLIANT_REGISTER_BENCH. It prints a table to stdout and returns its results as JSON, which the verb
// writes (atomically) where --json says. `quick` asks for a smoke run (smallest sizes, a few
// repetitions) that the test suite runs to keep every benchmark working; figures come from full runs.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pliant::bench {

struct Context {
  bool quick = false;  ///< smoke run: smallest sizes, few repetitions
  int threads = 0;     ///< worker threads for parallel parts; 0 = all cores
  bool busy = false;   ///< also time the parallel parts against two busy background threads
};

using Run = nlohmann::json (*)(const Context& context);

struct Entry {
  std::string name;
  std::string description;
  Run run;
};

struct Registrar {
  Registrar(const char* name, const char* description, Run run);
};

/// All registered benchmarks, sorted by name.
std::vector<Entry> registered();

/// Machine description recorded with every result: CPU model, cores, compiler, build type.
nlohmann::json machine_description();

}  // namespace pliant::bench

#define PLIANT_REGISTER_BENCH(name, description, run) \
  static const ::pliant::bench::Registrar pliant_bench_registrar_##run { name, description, &run }
