// Image: an 8-bit RGBA raster, the output of offscreen rendering, and its PNG encoding.
//
// PNG encoding and decoding use stb_image_write / stb_image (the implementations live in Debian's
// libstb, linked privately). Encoding goes to memory so that the caller writes the bytes with
// io::write_file_atomically: a frame on disk is either complete or absent.
#pragma once

#include "pliant/core/result.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::render {

/// Row-major RGBA pixels, top row first (the orientation of image files, not of glReadPixels).
struct Image {
  int width = 0;                   ///< pixels
  int height = 0;                  ///< pixels
  std::vector<std::uint8_t> rgba;  ///< width·height·4 bytes, R G B A per pixel

  /// Pointer to the 4 bytes of pixel (x, y), x to the right, y downwards from the top-left corner.
  const std::uint8_t* pixel(int x, int y) const {
    return rgba.data() + (static_cast<std::size_t>(y) * width + x) * 4;
  }
  std::uint8_t* pixel(int x, int y) { return rgba.data() + (static_cast<std::size_t>(y) * width + x) * 4; }
};

/// The image as PNG file bytes (lossless; alpha kept). An error for an empty or inconsistent image.
Result<std::string> encode_png(const Image& image);

/// Decodes PNG (or any format stb_image reads) to RGBA. `name` is used in messages. The header's
/// size is checked (at most 32768 pixels a side) before any pixel memory is allocated.
Result<Image> decode_png(std::string_view bytes, const std::string& name = "image");

}  // namespace pliant::render
