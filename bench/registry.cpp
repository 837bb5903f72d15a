#include "bench.hpp"

#include <algorithm>
#include <fstream>
#include <thread>

namespace pliant::bench {
namespace {

std::vector<Entry>& entries() {
  static std::vector<Entry> all;
  return all;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown";
}

}  // namespace

Registrar::Registrar(const char* name, const char* description, Run run) {
  entries().push_back({name, description, run});
}

std::vector<Entry> registered() {
  auto all = entries();
  std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return all;
}

nlohmann::json machine_description() {
  return {
      {"cpu", cpu_model()},
      {"hardware_threads", std::thread::hardware_concurrency()},
      {"compiler", "g++ " __VERSION__},
#ifdef NDEBUG
      {"build", "optimised"},
#else
      {"build", "debug"},
#endif
  };
}

}  // namespace pliant::bench
