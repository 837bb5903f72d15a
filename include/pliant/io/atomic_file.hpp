// Atomic file output: the content goes to a temporary file beside the target, is flushed, and is
// renamed over the target only when complete. A failure (full disk, bad path, an exception while
// producing the content) leaves the target as it was and no temporary behind.
#pragma once

#include "pliant/core/result.hpp"

#include <filesystem>
#include <functional>
#include <ostream>
#include <string_view>

namespace pliant::io {

/// Writes `bytes` to `path` atomically. The error names the path and the system's reason.
Status write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

/// Streams content produced by `produce` into `path` atomically. `produce` returns a Status; when it
/// fails (or throws), nothing is renamed and its error is returned (or the exception propagates).
Status write_file_atomically(const std::filesystem::path& path,
                             const std::function<Status(std::ostream&)>& produce);

}  // namespace pliant::io
