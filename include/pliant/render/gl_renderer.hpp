// GlRenderer: draws a Frame with OpenGL 3.3 core into whatever framebuffer is bound in the current
// context. The same code serves headless rendering (EGL surfaceless + a framebuffer object, see
// offscreen.hpp) and the interactive viewer's GLFW window: context creation is kept out of it.
//
// Per draw: normals are computed from the current positions (surfaces deform every frame), vertex
// data is expanded to one vertex per triangle corner in float and streamed into buffers that only
// grow, so after the first frames of a given size there is no heap allocation. Scalar fields are
// interpolated as values and looked up in a colour-map texture per fragment, so a coarse mesh still
// shows the exact map rather than blended corner colours.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/render/frame.hpp"

#include <memory>

namespace pliant::render {

class GlRenderer {
 public:
  GlRenderer();
  ~GlRenderer();
  GlRenderer(const GlRenderer&) = delete;
  GlRenderer& operator=(const GlRenderer&) = delete;

  /// Compiles the shaders and creates the buffers and colour-map textures. Needs a current OpenGL
  /// 3.3 core (or compatible) context; errors carry the GL or shader compiler message.
  Status init();
  /// Draws `frame` into the bound framebuffer's viewport (0, 0, frame.camera.width,
  /// frame.camera.height): clears colour and depth, draws surfaces, arrows, then the 2D overlay
  /// (colour bar, labels). Must be called with the context current in which init() ran.
  void draw(const Frame& frame);
  /// Releases the GL objects (also done by the destructor, which must then run with the context
  /// current; call release() first when the context goes away earlier).
  void release();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pliant::render
