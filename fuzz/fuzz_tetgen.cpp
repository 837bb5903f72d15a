// libFuzzer harness: the TetGen reader, which reads a pair of files. The input is split at its first
// NUL byte: the .node file before it, the .ele file after it (seeds: node bytes, NUL, ele bytes).
#include "fuzz_checks.hpp"
#include "io/parse.hpp"
#include "io/readers.hpp"

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>

namespace {

// What read_mesh_file returns for a TetGen pair, from bytes instead of files.
pliant::Result<pliant::io::MeshFile> read_pair(std::string_view node, std::string_view ele) {
  try {
    if (node.empty()) return pliant::Error{"fuzz.node: empty file"};
    if (ele.empty()) return pliant::Error{"fuzz.ele: empty file"};
    return pliant::io::detail::read_tetgen(node, "fuzz.node", ele, "fuzz.ele");
  } catch (const pliant::io::detail::ParseFailure& f) {
    return pliant::Error{f.message};
  } catch (const std::bad_alloc&) {
    return pliant::Error{"fuzz.node: out of memory while reading"};
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto split = bytes.find('\0');
  const std::string_view node = bytes.substr(0, split);
  const std::string_view ele = split == std::string_view::npos ? std::string_view() : bytes.substr(split + 1);
  const auto file = read_pair(node, ele);
  if (file.ok()) {
    pliant::fuzz::check_mesh_file(*file);
  } else {
    const std::string& m = file.message();
    pliant::fuzz::check_error_message(m, m.rfind("fuzz.ele", 0) == 0 ? "fuzz.ele" : "fuzz.node");
  }
  return 0;
}
