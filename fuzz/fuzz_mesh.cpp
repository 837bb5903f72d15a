// libFuzzer harness: one mesh format through pliant::io::parse_mesh. The extension comes from the
// build (PLIANT_FUZZ_EXTENSION): one executable per format from this one source (fuzz/CMakeLists.txt).
#include "fuzz_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#ifndef PLIANT_FUZZ_EXTENSION
#error "PLIANT_FUZZ_EXTENSION (\".msh\", ...) must be defined by the build"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string name = "fuzz" PLIANT_FUZZ_EXTENSION;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto file = pliant::io::parse_mesh(bytes, name, PLIANT_FUZZ_EXTENSION);
  if (file.ok())
    pliant::fuzz::check_mesh_file(*file);
  else
    pliant::fuzz::check_error_message(file.message(), name);
  return 0;
}
