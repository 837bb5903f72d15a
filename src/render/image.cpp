#include "pliant/render/image.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <climits>
#include <cstring>

namespace pliant::render {

Result<std::string> encode_png(const Image& image) {
  if (image.width <= 0 || image.height <= 0)
    return Error{"encode_png: empty image (" + std::to_string(image.width) + "x" +
                 std::to_string(image.height) + ")"};
  const std::size_t expected =
      static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4;
  if (image.rgba.size() != expected)
    return Error{"encode_png: " + std::to_string(image.rgba.size()) + " bytes for a " +
                 std::to_string(image.width) + "x" + std::to_string(image.height) + " RGBA image (expected " +
                 std::to_string(expected) + ")"};
  if (image.width > INT_MAX / 4) return Error{"encode_png: image too wide"};
  std::string out;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(size));
  };
  if (stbi_write_png_to_func(append, &out, image.width, image.height, 4, image.rgba.data(),
                             image.width * 4) == 0)
    return Error{"encode_png: stb_image_write failed"};
  return out;
}

Result<Image> decode_png(std::string_view bytes, const std::string& name) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) return Error{name + ": image data larger than 2 GiB"};
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int length = static_cast<int>(bytes.size());
  int w = 0, h = 0, channels = 0;
  // Check the declared size before stb allocates for it: a lying header must not cost gigabytes.
  if (stbi_info_from_memory(data, length, &w, &h, &channels) == 0)
    return Error{name + ": not a readable image (" + std::string(stbi_failure_reason()) + ")"};
  constexpr int kMaxSide = 32768;
  if (w <= 0 || h <= 0 || w > kMaxSide || h > kMaxSide)
    return Error{name + ": image size " + std::to_string(w) + "x" + std::to_string(h) + " out of range (1.." +
                 std::to_string(kMaxSide) + " a side)"};
  stbi_uc* pixels = stbi_load_from_memory(data, length, &w, &h, &channels, 4);
  if (pixels == nullptr)
    return Error{name + ": cannot decode image (" + std::string(stbi_failure_reason()) + ")"};
  Image image;
  image.width = w;
  image.height = h;
  image.rgba.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  std::memcpy(image.rgba.data(), pixels, image.rgba.size());
  stbi_image_free(pixels);
  return image;
}

}  // namespace pliant::render
