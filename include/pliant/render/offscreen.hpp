// Offscreen rendering without a display: EGL on Mesa's surfaceless platform, an OpenGL 3.3 core
// context, and a framebuffer object (multisampled colour + depth, resolved into a plain one that is
// read back with glReadPixels).
//
// `eglGetDisplay(EGL_DEFAULT_DISPLAY)` needs an X or Wayland display; a server or CI machine has
// none, so the display comes from eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA), which
// renders with the GPU driver or llvmpipe. Drivers without it (NVIDIA's) offer EGL devices instead
// (EGL_EXT_platform_device): `automatic` tries the surfaceless platform first, then the first device.
// Without EGL (or either platform) create() returns an error.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/render/frame.hpp"
#include "pliant/render/image.hpp"

#include <memory>

namespace pliant::render {

enum class EglPlatform {
  automatic,    ///< surfaceless Mesa, else the first EGL device
  surfaceless,  ///< EGL_PLATFORM_SURFACELESS_MESA only
  device        ///< EGL_PLATFORM_DEVICE_EXT (first device) only
};

struct OffscreenDef {
  int width = 800;   ///< image width (unit: pixel), 1..8192
  int height = 600;  ///< image height (unit: pixel), 1..8192
  int samples = 4;   ///< multisample anti-aliasing samples (1 = off); reduced to what the driver has
  EglPlatform platform = EglPlatform::automatic;
};

class OffscreenRenderer {
 public:
  /// Creates the EGL display, context, framebuffers and a GlRenderer. Errors name the failing call.
  static Result<std::unique_ptr<OffscreenRenderer>> create(const OffscreenDef& def);
  ~OffscreenRenderer();
  OffscreenRenderer(const OffscreenRenderer&) = delete;
  OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

  /// Draws `frame` (its camera's width and height are set to this renderer's) and reads the image
  /// back, top row first.
  Image render(const Frame& frame);
  int width() const;
  int height() const;
  /// The renderer string of the GL driver (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)").
  const char* gl_renderer_name() const;

 private:
  struct Impl;
  explicit OffscreenRenderer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pliant::render
