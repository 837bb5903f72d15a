#include "pliant/render/offscreen.hpp"

#include "pliant/render/gl_renderer.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

namespace pliant::render {
namespace {

std::string egl_error(const char* call) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "render: %s failed (EGL error 0x%04x)", call, eglGetError());
  return buffer;
}

bool has_extension(const char* list, const char* name) {
  if (list == nullptr) return false;
  const std::size_t n = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

}  // namespace

struct OffscreenRenderer::Impl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  int width = 0, height = 0, samples = 1;
  GLuint draw_fbo = 0, draw_color = 0, draw_depth = 0;  // multisampled (or plain when samples == 1)
  GLuint resolve_fbo = 0, resolve_color = 0;
  GlRenderer renderer;
  std::vector<std::uint8_t> rows;  // glReadPixels output, bottom row first

  ~Impl() {
    if (context != EGL_NO_CONTEXT) {
      eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context);
      renderer.release();
      const GLuint fbos[] = {draw_fbo, resolve_fbo};
      const GLuint rbs[] = {draw_color, draw_depth, resolve_color};
      glDeleteFramebuffers(2, fbos);
      glDeleteRenderbuffers(3, rbs);
      eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglDestroyContext(display, context);
    }
    // The display is not terminated: EGL displays are shared process-wide, and terminating one
    // would destroy the contexts of every other OffscreenRenderer.
  }
};

OffscreenRenderer::OffscreenRenderer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OffscreenRenderer::~OffscreenRenderer() = default;
int OffscreenRenderer::width() const { return impl_->width; }
int OffscreenRenderer::height() const { return impl_->height; }
const char* OffscreenRenderer::gl_renderer_name() const {
  eglMakeCurrent(impl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, impl_->context);
  const auto* s = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return s != nullptr ? s : "unknown";
}

Result<std::unique_ptr<OffscreenRenderer>> OffscreenRenderer::create(const OffscreenDef& def) {
  if (def.width < 1 || def.width > 8192 || def.height < 1 || def.height > 8192)
    return Error{"render: image size " + std::to_string(def.width) + "x" + std::to_string(def.height) +
                 " out of range (1..8192 a side)"};
  auto impl = std::make_unique<Impl>();
  impl->width = def.width;
  impl->height = def.height;

  const char* client_extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  const auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (get_platform_display == nullptr || !has_extension(client_extensions, "EGL_EXT_platform_base"))
    return Error{
        "render: EGL lacks eglGetPlatformDisplayEXT (EGL_EXT_platform_base); headless rendering needs "
        "Mesa's libEGL (Debian: libegl-mesa0) or a driver with EGL devices"};
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLint major = 0, minor = 0;
  std::string tried;
  if (def.platform != EglPlatform::device) {
    if (has_extension(client_extensions, "EGL_MESA_platform_surfaceless")) {
      display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
      if (display != EGL_NO_DISPLAY && !eglInitialize(display, &major, &minor)) {
        tried = egl_error("eglInitialize(surfaceless)");
        display = EGL_NO_DISPLAY;
      }
    } else {
      tried = "render: EGL has no surfaceless platform (EGL_MESA_platform_surfaceless)";
    }
  }
  if (display == EGL_NO_DISPLAY && def.platform != EglPlatform::surfaceless) {
    // GPU drivers without Mesa's surfaceless platform expose devices: render on the first one.
    const auto query_devices =
        reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    EGLDeviceEXT devices[8];
    EGLint count = 0;
    if (has_extension(client_extensions, "EGL_EXT_platform_device") && query_devices != nullptr &&
        query_devices(8, devices, &count) && count > 0) {
      display = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[0], nullptr);
      if (display != EGL_NO_DISPLAY && !eglInitialize(display, &major, &minor)) {
        tried += (tried.empty() ? "" : "; ") + egl_error("eglInitialize(device)");
        display = EGL_NO_DISPLAY;
      }
    } else {
      tried += std::string(tried.empty() ? "render: " : "; ") + "no EGL device (EGL_EXT_platform_device)";
    }
  }
  if (display == EGL_NO_DISPLAY) return Error{tried.empty() ? egl_error("eglGetPlatformDisplayEXT") : tried};
  impl->display = display;
  if (!eglBindAPI(EGL_OPENGL_API)) return Error{egl_error("eglBindAPI(OpenGL)")};

  // eglChooseConfig defaults to window surfaces, which a surfaceless display has none of: ask for
  // pbuffer configs, or, failing that, create the context with no config at all (we draw only into
  // framebuffer objects).
  const EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                      EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attributes, &config, 1, &count) || count < 1) {
    if (!has_extension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_no_config_context"))
      return Error{"render: EGL offers no OpenGL config on the surfaceless display"};
    config = EGL_NO_CONFIG_KHR;
  }
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                       3,
                                       EGL_CONTEXT_MINOR_VERSION,
                                       3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                       EGL_NONE};
  impl->context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  if (impl->context == EGL_NO_CONTEXT) return Error{egl_error("eglCreateContext(OpenGL 3.3 core)")};
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, impl->context))
    return Error{egl_error("eglMakeCurrent(surfaceless)")};

  GLint max_samples = 1;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  impl->samples = std::clamp(def.samples, 1, std::max(1, static_cast<int>(max_samples)));

  const auto make_target = [&](GLuint& fbo, GLuint& color, GLuint* depth, int samples) {
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &color);
    glBindRenderbuffer(GL_RENDERBUFFER, color);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples > 1 ? samples : 0, GL_RGBA8, def.width,
                                     def.height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    if (depth != nullptr) {
      glGenRenderbuffers(1, depth);
      glBindRenderbuffer(GL_RENDERBUFFER, *depth);
      glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples > 1 ? samples : 0, GL_DEPTH_COMPONENT24,
                                       def.width, def.height);
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, *depth);
    }
    return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  };
  if (!make_target(impl->draw_fbo, impl->draw_color, &impl->draw_depth, impl->samples))
    return Error{"render: the " + std::to_string(impl->samples) + "-sample framebuffer is incomplete"};
  if (!make_target(impl->resolve_fbo, impl->resolve_color, nullptr, 1))
    return Error{"render: the resolve framebuffer is incomplete"};
  if (Status s = impl->renderer.init(); !s.ok()) return s.error();
  return std::unique_ptr<OffscreenRenderer>(new OffscreenRenderer(std::move(impl)));
}

Image OffscreenRenderer::render(const Frame& frame_in) {
  Impl& m = *impl_;
  eglMakeCurrent(m.display, EGL_NO_SURFACE, EGL_NO_SURFACE, m.context);
  // The frame is drawn at this renderer's size whatever the caller's camera says; copying the
  // camera alone keeps the caller's spans borrowed, not copied.
  const Camera* camera = &frame_in.camera;
  Frame sized;
  if (camera->width != m.width || camera->height != m.height) {
    sized = frame_in;
    sized.camera.width = m.width;
    sized.camera.height = m.height;
  }
  const Frame& frame = (camera->width != m.width || camera->height != m.height) ? sized : frame_in;

  glBindFramebuffer(GL_FRAMEBUFFER, m.draw_fbo);
  m.renderer.draw(frame);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, m.draw_fbo);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m.resolve_fbo);
  glBlitFramebuffer(0, 0, m.width, m.height, 0, 0, m.width, m.height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, m.resolve_fbo);
  const std::size_t row = static_cast<std::size_t>(m.width) * 4;
  m.rows.resize(row * static_cast<std::size_t>(m.height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, m.width, m.height, GL_RGBA, GL_UNSIGNED_BYTE, m.rows.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);

  Image image;
  image.width = m.width;
  image.height = m.height;
  image.rgba.resize(m.rows.size());
  for (int y = 0; y < m.height; ++y)  // GL's first row is the bottom one
    std::memcpy(image.rgba.data() + static_cast<std::size_t>(y) * row,
                m.rows.data() + static_cast<std::size_t>(m.height - 1 - y) * row, row);
  return image;
}

}  // namespace pliant::render
