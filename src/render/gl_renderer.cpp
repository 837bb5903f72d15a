#include "pliant/render/gl_renderer.hpp"

#include "pliant/render/bitmap_font.hpp"

#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace pliant::render {
namespace {

constexpr const char* kMeshVertex = R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in float a_value;
uniform mat4 u_view;
uniform mat4 u_projection;
out vec3 v_normal;
out vec3 v_position;
out float v_value;
void main() {
  vec4 p = u_view * vec4(a_position, 1.0);
  v_position = p.xyz;
  v_normal = mat3(u_view) * a_normal;
  v_value = a_value;
  gl_Position = u_projection * p;
}
)";

// Two-sided lighting: the normal is flipped towards the eye, so membranes, open cuts and inverted
// elements are lit on whichever side is seen. A headlight slightly above and left of the eye plus
// ambient keeps every visible point readable whatever the orbit angle.
constexpr const char* kMeshFragment = R"(#version 330 core
in vec3 v_normal;
in vec3 v_position;
in float v_value;
uniform int u_use_field;
uniform int u_lit;
uniform vec3 u_color;
uniform sampler2D u_color_map;
out vec4 o_color;
void main() {
  vec3 base = u_color;
  if (u_use_field == 1) {
    float t = clamp(v_value, 0.0, 1.0);
    base = texture(u_color_map, vec2((t * 255.0 + 0.5) / 256.0, 0.5)).rgb;
  }
  if (u_lit == 0) { o_color = vec4(base, 1.0); return; }
  vec3 to_eye = normalize(-v_position);
  vec3 n = normalize(v_normal);
  if (dot(n, to_eye) < 0.0) n = -n;
  vec3 light = normalize(vec3(-0.3, 0.5, 1.0));
  float diffuse = max(dot(n, light), 0.0);
  float specular = pow(max(dot(n, normalize(light + to_eye)), 0.0), 48.0);
  o_color = vec4(base * (0.22 + 0.78 * diffuse) + vec3(0.18 * specular), 1.0);
}
)";

constexpr const char* kOverlayVertex = R"(#version 330 core
layout(location = 0) in vec2 a_pixel;
layout(location = 1) in vec4 a_color;
uniform vec2 u_viewport;
out vec4 v_color;
void main() {
  gl_Position = vec4(2.0 * a_pixel.x / u_viewport.x - 1.0, 1.0 - 2.0 * a_pixel.y / u_viewport.y, 0.0, 1.0);
  v_color = a_color;
}
)";

constexpr const char* kOverlayFragment = R"(#version 330 core
in vec4 v_color;
out vec4 o_color;
void main() { o_color = v_color; }
)";

struct MeshVertex {
  float position[3];
  float normal[3];
  float value;  // normalised field value in [0, 1], or 0 without a field
};

struct OverlayVertex {
  float pixel[2];
  float color[4];
};

struct DrawRange {
  GLint first = 0;
  GLsizei count = 0;
};

GLuint compile(GLenum kind, const char* source, std::string& log) {
  const GLuint shader = glCreateShader(kind);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char buffer[2048] = {};
    glGetShaderInfoLog(shader, sizeof buffer, nullptr, buffer);
    log = buffer;
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

Result<GLuint> link(const char* vertex, const char* fragment, const char* what) {
  std::string log;
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex, log);
  if (vs == 0) return Error{std::string("render: ") + what + " vertex shader: " + log};
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment, log);
  if (fs == 0) {
    glDeleteShader(vs);
    return Error{std::string("render: ") + what + " fragment shader: " + log};
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char buffer[2048] = {};
    glGetProgramInfoLog(program, sizeof buffer, nullptr, buffer);
    glDeleteProgram(program);
    return Error{std::string("render: ") + what + " program: " + buffer};
  }
  return program;
}

Eigen::Matrix4f to_float(const Eigen::Matrix4d& m) { return m.cast<float>(); }

// Uploads `data` into `buffer`, growing its storage only when needed (orphaning keeps the driver
// from stalling on the previous frame's use).
template <class T>
void upload(GLuint buffer, GLsizeiptr& capacity, const std::vector<T>& data) {
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  const auto bytes = static_cast<GLsizeiptr>(data.size() * sizeof(T));
  if (bytes > capacity) capacity = std::max<GLsizeiptr>(bytes, capacity * 3 / 2);
  if (capacity > 0) glBufferData(GL_ARRAY_BUFFER, capacity, nullptr, GL_STREAM_DRAW);
  if (bytes > 0) glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, data.data());
}

void put(MeshVertex& v, const Vec3& p, const Vec3& n, double value) {
  v.position[0] = static_cast<float>(p.x());
  v.position[1] = static_cast<float>(p.y());
  v.position[2] = static_cast<float>(p.z());
  v.normal[0] = static_cast<float>(n.x());
  v.normal[1] = static_cast<float>(n.y());
  v.normal[2] = static_cast<float>(n.z());
  v.value = static_cast<float>(value);
}

}  // namespace

struct GlRenderer::Impl {
  GLuint mesh_program = 0, overlay_program = 0;
  GLuint mesh_vao = 0, mesh_vbo = 0, overlay_vao = 0, overlay_vbo = 0;
  GLsizeiptr mesh_capacity = 0, overlay_capacity = 0;
  std::array<GLuint, 4> color_maps = {};
  GLint u_view = -1, u_projection = -1, u_use_field = -1, u_lit = -1, u_color = -1, u_color_map = -1;
  GLint u_viewport = -1;
  bool ready = false;

  // Staging storage, reused frame to frame.
  std::vector<MeshVertex> vertices;
  std::vector<Vec3> normals;
  std::vector<DrawRange> surface_ranges;
  std::vector<DrawRange> arrow_ranges;
  std::vector<OverlayVertex> overlay;

  void build_surfaces(const Frame& frame);
  void build_arrows(const Frame& frame);
  void build_overlay(const Frame& frame);
  void quad(float x0, float y0, float x1, float y1, const Rgb& c0, const Rgb& c1, bool vertical_gradient,
            float alpha = 1.0f);
  void text(std::string_view s, float x, float y, float scale, const Rgb& color);
};

GlRenderer::GlRenderer() : impl_(std::make_unique<Impl>()) {}
GlRenderer::~GlRenderer() { release(); }

Status GlRenderer::init() {
  release();
  Impl& m = *impl_;
  auto mesh = link(kMeshVertex, kMeshFragment, "surface");
  if (!mesh) return mesh.error();
  auto overlay = link(kOverlayVertex, kOverlayFragment, "overlay");
  if (!overlay) {
    glDeleteProgram(*mesh);
    return overlay.error();
  }
  m.mesh_program = *mesh;
  m.overlay_program = *overlay;
  m.u_view = glGetUniformLocation(m.mesh_program, "u_view");
  m.u_projection = glGetUniformLocation(m.mesh_program, "u_projection");
  m.u_use_field = glGetUniformLocation(m.mesh_program, "u_use_field");
  m.u_lit = glGetUniformLocation(m.mesh_program, "u_lit");
  m.u_color = glGetUniformLocation(m.mesh_program, "u_color");
  m.u_color_map = glGetUniformLocation(m.mesh_program, "u_color_map");
  m.u_viewport = glGetUniformLocation(m.overlay_program, "u_viewport");

  glGenVertexArrays(1, &m.mesh_vao);
  glGenBuffers(1, &m.mesh_vbo);
  glBindVertexArray(m.mesh_vao);
  glBindBuffer(GL_ARRAY_BUFFER, m.mesh_vbo);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                        reinterpret_cast<void*>(offsetof(MeshVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                        reinterpret_cast<void*>(offsetof(MeshVertex, normal)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                        reinterpret_cast<void*>(offsetof(MeshVertex, value)));

  glGenVertexArrays(1, &m.overlay_vao);
  glGenBuffers(1, &m.overlay_vbo);
  glBindVertexArray(m.overlay_vao);
  glBindBuffer(GL_ARRAY_BUFFER, m.overlay_vbo);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(OverlayVertex),
                        reinterpret_cast<void*>(offsetof(OverlayVertex, pixel)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(OverlayVertex),
                        reinterpret_cast<void*>(offsetof(OverlayVertex, color)));
  glBindVertexArray(0);

  // One 256-texel strip per colour map; the shader samples texel centres, so t = 0 and t = 1 give
  // the map's exact end colours.
  glGenTextures(static_cast<GLsizei>(m.color_maps.size()), m.color_maps.data());
  for (std::size_t i = 0; i < m.color_maps.size(); ++i) {
    std::array<unsigned char, 256 * 3> texels{};
    for (int k = 0; k < 256; ++k) {
      const Rgb c = sample(static_cast<ColorMap>(i), k / 255.0);
      for (int j = 0; j < 3; ++j) texels[3 * k + j] = static_cast<unsigned char>(std::lround(255.0f * c[j]));
    }
    glBindTexture(GL_TEXTURE_2D, m.color_maps[i]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, 256, 1, 0, GL_RGB, GL_UNSIGNED_BYTE, texels.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%04x", e);
    release();
    return Error{std::string("render: OpenGL error ") + hex + " while creating the renderer's objects"};
  }
  m.ready = true;
  return {};
}

void GlRenderer::release() {
  if (!impl_) return;
  Impl& m = *impl_;
  if (m.mesh_program) glDeleteProgram(m.mesh_program);
  if (m.overlay_program) glDeleteProgram(m.overlay_program);
  if (m.mesh_vao) glDeleteVertexArrays(1, &m.mesh_vao);
  if (m.overlay_vao) glDeleteVertexArrays(1, &m.overlay_vao);
  if (m.mesh_vbo) glDeleteBuffers(1, &m.mesh_vbo);
  if (m.overlay_vbo) glDeleteBuffers(1, &m.overlay_vbo);
  if (m.color_maps[0]) glDeleteTextures(static_cast<GLsizei>(m.color_maps.size()), m.color_maps.data());
  m = Impl{};
}

void GlRenderer::Impl::build_surfaces(const Frame& frame) {
  surface_ranges.clear();
  for (const Surface& s : frame.surfaces) {
    DrawRange range{static_cast<GLint>(vertices.size()), 0};
    const std::size_t n = s.positions.size();
    const bool has_field = !s.field.empty() && s.field.size() == n;
    const double span = s.range_max - s.range_min;
    const auto normalised = [&](Index node) {
      if (!has_field) return 0.0;
      const double v = s.field[static_cast<std::size_t>(node)];
      if (!std::isfinite(v)) return 0.0;
      // A degenerate range (one value: a field below its colour range's floor, e.g. a body at rest)
      // shows every node at the low end, whatever round-off its value carries.
      return span > 0.0 ? (v - s.range_min) / span : 0.0;
    };
    const auto valid = [n](const Tri& t) {
      return t[0] >= 0 && t[1] >= 0 && t[2] >= 0 && static_cast<std::size_t>(t[0]) < n &&
             static_cast<std::size_t>(t[1]) < n && static_cast<std::size_t>(t[2]) < n;
    };
    if (s.shading == Shading::smooth) {
      // Area-weighted vertex normals: the unnormalised face normal is twice the area times the unit normal.
      normals.assign(n, Vec3::Zero());
      for (const Tri& t : s.triangles) {
        if (!valid(t)) continue;
        const Vec3 fn = (s.positions[t[1]] - s.positions[t[0]]).cross(s.positions[t[2]] - s.positions[t[0]]);
        for (Index k : t) normals[k] += fn;
      }
      for (Vec3& v : normals) {
        const double len = v.norm();
        v = len > 0.0 ? Vec3(v / len) : Vec3::UnitZ();
      }
    }
    for (const Tri& t : s.triangles) {
      if (!valid(t)) continue;
      Vec3 face = (s.positions[t[1]] - s.positions[t[0]]).cross(s.positions[t[2]] - s.positions[t[0]]);
      const double len = face.norm();
      face = len > 0.0 ? Vec3(face / len) : Vec3::UnitZ();
      for (Index k : t) {
        vertices.emplace_back();
        put(vertices.back(), s.positions[k], s.shading == Shading::smooth ? normals[k] : face, normalised(k));
      }
    }
    range.count = static_cast<GLsizei>(vertices.size()) - range.first;
    surface_ranges.push_back(range);
  }
}

void GlRenderer::Impl::build_arrows(const Frame& frame) {
  arrow_ranges.clear();
  constexpr int kSides = 16;
  for (const Arrow& a : frame.arrows) {
    DrawRange range{static_cast<GLint>(vertices.size()), 0};
    const Vec3 axis = a.tip - a.origin;
    const double length = axis.norm();
    if (!(length > 0.0) || !std::isfinite(length)) {
      arrow_ranges.push_back(range);
      continue;
    }
    const Vec3 d = axis / length;
    const double r = a.radius > 0.0 ? a.radius : frame.camera.scene_radius / 80.0;
    const double head = std::min(0.35 * length, 6.0 * r);  // head length (unit: m)
    const Vec3 neck = a.tip - head * d;
    // Any unit vector perpendicular to d, then a second one: the arrow's circular cross-section.
    const Vec3 e1 = (std::abs(d.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY()).cross(d).normalized();
    const Vec3 e2 = d.cross(e1);
    const auto ring = [&](int i) {
      const double phi = 2.0 * M_PI * i / kSides;
      return Vec3(std::cos(phi) * e1 + std::sin(phi) * e2);
    };
    const auto tri = [&](const Vec3& p0, const Vec3& n0, const Vec3& p1, const Vec3& n1, const Vec3& p2,
                         const Vec3& n2) {
      vertices.emplace_back();
      put(vertices.back(), p0, n0, 0.0);
      vertices.emplace_back();
      put(vertices.back(), p1, n1, 0.0);
      vertices.emplace_back();
      put(vertices.back(), p2, n2, 0.0);
    };
    const double cone_slope = 2.5 * r / head;  // cone radius / head length
    for (int i = 0; i < kSides; ++i) {
      const Vec3 u0 = ring(i), u1 = ring(i + 1);
      // Shaft side.
      tri(a.origin + r * u0, u0, a.origin + r * u1, u1, neck + r * u1, u1);
      tri(a.origin + r * u0, u0, neck + r * u1, u1, neck + r * u0, u0);
      // Cone (normal tilted forward by its slope) and its base disc.
      const Vec3 c0 = (u0 + cone_slope * d).normalized(), c1 = (u1 + cone_slope * d).normalized();
      tri(neck + 2.5 * r * u0, c0, neck + 2.5 * r * u1, c1, a.tip, (c0 + c1).normalized());
      tri(neck, -d, neck + 2.5 * r * u1, -d, neck + 2.5 * r * u0, -d);
      tri(a.origin, -d, a.origin + r * u1, -d, a.origin + r * u0, -d);
    }
    range.count = static_cast<GLsizei>(vertices.size()) - range.first;
    arrow_ranges.push_back(range);
  }
}

void GlRenderer::Impl::quad(float x0, float y0, float x1, float y1, const Rgb& c0, const Rgb& c1,
                            bool vertical_gradient, float alpha) {
  // c0 at the top (or left), c1 at the bottom (or right).
  const auto v = [&](float x, float y, const Rgb& c) {
    overlay.push_back({{x, y}, {c[0], c[1], c[2], alpha}});
  };
  const Rgb& tl = c0;
  const Rgb& tr = vertical_gradient ? c0 : c1;
  const Rgb& bl = vertical_gradient ? c1 : c0;
  const Rgb& br = c1;
  v(x0, y0, tl);
  v(x1, y0, tr);
  v(x1, y1, br);
  v(x0, y0, tl);
  v(x1, y1, br);
  v(x0, y1, bl);
}

void GlRenderer::Impl::text(std::string_view s, float x, float y, float scale, const Rgb& color) {
  // A dark copy one pixel down-right first: readable over light and dark backgrounds.
  const Rgb shadow = {0.05f, 0.05f, 0.05f};
  for (int pass = 0; pass < 2; ++pass) {
    const float off = pass == 0 ? std::max(1.0f, scale * 0.5f) : 0.0f;
    const Rgb& c = pass == 0 ? shadow : color;
    float cx = x + off;
    for (char ch : s) {
      const std::uint16_t bits = glyph_bits(ch);
      for (int row = 0; row < kGlyphHeight; ++row)
        for (int col = 0; col < kGlyphWidth; ++col)
          if (bits >> ((kGlyphHeight - 1 - row) * 3 + (kGlyphWidth - 1 - col)) & 1u) {
            const float px = cx + col * scale, py = y + off + row * scale;
            quad(px, py, px + scale, py + scale, c, c, true);
          }
      cx += (kGlyphWidth + 1) * scale;
    }
  }
}

namespace {
std::string format_value(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}
}  // namespace

void GlRenderer::Impl::build_overlay(const Frame& frame) {
  overlay.clear();
  const Camera& cam = frame.camera;
  const float w = static_cast<float>(cam.width), h = static_cast<float>(cam.height);
  const float scale = std::max(1.0f, std::round(std::min(w, h) / 300.0f));  // font pixel size
  const Rgb white = {0.95f, 0.95f, 0.95f};
  if (frame.color_bar.visible) {
    const ColorBar& bar = frame.color_bar;
    const float bar_w = std::max(8.0f, std::round(w / 40.0f));
    const float x1 = w - std::round(w / 30.0f), x0 = x1 - bar_w;
    const float y0 = std::round(0.2f * h), y1 = std::round(0.8f * h);
    constexpr int kSegments = 64;
    quad(x0 - 1, y0 - 1, x1 + 1, y1 + 1, {0.f, 0.f, 0.f}, {0.f, 0.f, 0.f}, true);  // frame
    // A degenerate range (max ≤ min, e.g. a body at rest) is one value: the bar shows the low end's
    // colour, which every surface node has, and only that value.
    const bool single = !(bar.range_max > bar.range_min);
    for (int i = 0; i < kSegments; ++i) {
      // Top is the maximum.
      const double t_top = single ? 0.0 : 1.0 - static_cast<double>(i) / kSegments;
      const double t_bottom = single ? 0.0 : 1.0 - static_cast<double>(i + 1) / kSegments;
      const float ya = y0 + (y1 - y0) * i / kSegments, yb = y0 + (y1 - y0) * (i + 1) / kSegments;
      quad(x0, ya, x1, yb, sample(bar.color_map, t_top), sample(bar.color_map, t_bottom), true);
    }
    const float gap = 2 * scale;
    const std::string hi = format_value(bar.range_max), lo = format_value(bar.range_min);
    if (!single) text(hi, x0 - gap - text_width(hi) * scale, y0, scale, white);
    text(lo, x0 - gap - text_width(lo) * scale, y1 - kGlyphHeight * scale, scale, white);
    if (!bar.label.empty()) {
      const float lw = text_width(bar.label) * scale;
      text(bar.label, std::max(2.0f, x1 - lw), y0 - (kGlyphHeight + 4) * scale, scale, white);
    }
  }
  // The caption (the simulated time) at twice the labels' size, at least: read at a glance.
  if (!frame.caption.empty()) {
    const float big = std::max(2.0f, 2.0f * scale);
    text(frame.caption, 2 * big, 2 * big, big, white);
  }
  for (const Arrow& a : frame.arrows) {
    if (a.label.empty()) continue;
    const Vec3 p = cam.project(a.tip);
    if (!(p.z() > 0.0) || !p.allFinite()) continue;
    text(a.label, static_cast<float>(p.x()) + 4 * scale,
         static_cast<float>(p.y()) - (kGlyphHeight + 2) * scale, scale, white);
  }
}

void GlRenderer::draw(const Frame& frame) {
  Impl& m = *impl_;
  const Camera& cam = frame.camera;
  glViewport(0, 0, cam.width, cam.height);
  glClearColor(frame.background[0], frame.background[1], frame.background[2], 1.0f);
  glClearDepth(1.0);
  glDepthMask(GL_TRUE);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (!m.ready) return;

  m.vertices.clear();
  m.build_surfaces(frame);
  m.build_arrows(frame);
  upload(m.mesh_vbo, m.mesh_capacity, m.vertices);

  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  glUseProgram(m.mesh_program);
  const Eigen::Matrix4f view = to_float(cam.view_matrix()), projection = to_float(cam.projection_matrix());
  glUniformMatrix4fv(m.u_view, 1, GL_FALSE, view.data());  // Eigen is column-major, as GL expects
  glUniformMatrix4fv(m.u_projection, 1, GL_FALSE, projection.data());
  glUniform1i(m.u_color_map, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(m.mesh_vao);
  for (std::size_t i = 0; i < frame.surfaces.size(); ++i) {
    const Surface& s = frame.surfaces[i];
    const DrawRange r = m.surface_ranges[i];
    if (r.count == 0) continue;
    const bool field = !s.field.empty() && s.field.size() == s.positions.size();
    glBindTexture(GL_TEXTURE_2D, m.color_maps[static_cast<std::size_t>(s.color_map)]);
    glUniform1i(m.u_use_field, field ? 1 : 0);
    glUniform1i(m.u_lit, s.shading == Shading::unlit ? 0 : 1);
    glUniform3f(m.u_color, s.color[0], s.color[1], s.color[2]);
    if (s.wireframe) {
      glEnable(GL_POLYGON_OFFSET_FILL);  // push the fill back so the edges win the depth test
      glPolygonOffset(1.0f, 1.0f);
    }
    glDrawArrays(GL_TRIANGLES, r.first, r.count);
    if (s.wireframe) {
      glDisable(GL_POLYGON_OFFSET_FILL);
      glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
      glUniform1i(m.u_use_field, 0);
      glUniform1i(m.u_lit, 0);
      glUniform3f(m.u_color, 0.08f, 0.08f, 0.1f);
      glDrawArrays(GL_TRIANGLES, r.first, r.count);
      glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    }
  }
  glUniform1i(m.u_use_field, 0);
  glUniform1i(m.u_lit, 1);
  for (std::size_t i = 0; i < frame.arrows.size(); ++i) {
    const DrawRange r = m.arrow_ranges[i];
    if (r.count == 0) continue;
    const Rgb& c = frame.arrows[i].color;
    glUniform3f(m.u_color, c[0], c[1], c[2]);
    glDrawArrays(GL_TRIANGLES, r.first, r.count);
  }

  m.build_overlay(frame);
  if (!m.overlay.empty()) {
    upload(m.overlay_vbo, m.overlay_capacity, m.overlay);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(m.overlay_program);
    glUniform2f(m.u_viewport, static_cast<float>(cam.width), static_cast<float>(cam.height));
    glBindVertexArray(m.overlay_vao);
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(m.overlay.size()));
  }
  glBindVertexArray(0);
  glUseProgram(0);
  glBindTexture(GL_TEXTURE_2D, 0);
}

}  // namespace pliant::render
