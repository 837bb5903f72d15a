// ParaView data collection (.pvd): a time series of .vtu frames that ParaView plays as one dataset.
#pragma once

#include "pliant/core/result.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace pliant::io {

/// One frame of a series.
struct PvdEntry {
  double time = 0;   ///< simulation time of the frame (unit: s)
  std::string file;  ///< the frame's file, relative to the .pvd's directory (e.g. "frames/f0001.vtu")
};

/// Writes the collection atomically; entries keep their order. Rewrite it after each new frame to
/// keep a running simulation viewable.
Status write_pvd(const std::filesystem::path& path, const std::vector<PvdEntry>& entries);

}  // namespace pliant::io
