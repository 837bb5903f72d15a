#include "pliant/io/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <system_error>

namespace pliant::io {
namespace {

std::filesystem::path temporary_beside(const std::filesystem::path& path) {
  std::random_device rd;
  const auto tag = std::to_string(rd()) + std::to_string(rd());
  return path.parent_path() / ("." + path.filename().string() + ".tmp" + tag);
}

struct TemporaryGuard {
  std::filesystem::path path;
  bool keep = false;
  ~TemporaryGuard() {
    if (!keep) {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
    }
  }
};

}  // namespace

Status write_file_atomically(const std::filesystem::path& path,
                             const std::function<Status(std::ostream&)>& produce) {
  if (path.empty()) return Error{"cannot write: empty output path"};
  if (!path.parent_path().empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path.parent_path(), ec)) {
      return Error{path.string() + ": cannot write: directory " + path.parent_path().string() +
                   " does not exist"};
    }
  }
  TemporaryGuard tmp{temporary_beside(path)};
  {
    std::ofstream out(tmp.path, std::ios::binary | std::ios::trunc);
    if (!out) return Error{path.string() + ": cannot write: " + std::strerror(errno)};
    // errno is the reason of the first failed write (ENOSPC on a full disk, EFBIG past a file-size
    // limit): a failed stream writes nothing more, so no later call overwrites it.
    errno = 0;
    Status produced = produce(out);
    if (!produced.ok()) return produced;
    out.flush();
    if (!out) {
      const int reason = errno;
      return Error{path.string() + ": write failed: " + (reason != 0 ? std::strerror(reason) : "disk full?")};
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp.path, path, ec);
  if (ec) return Error{path.string() + ": cannot write: " + ec.message()};
  tmp.keep = true;
  return {};
}

Status write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  return write_file_atomically(path, [bytes](std::ostream& out) -> Status {
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return {};
  });
}

}  // namespace pliant::io
