// Mesh validation: each check is a sort or a hash over flat arrays, O(n log n), and its findings go
// through a Reporter that formats at most max_findings_per_code messages per code.
#include "pliant/core/validate.hpp"

#include "pliant/core/aabb.hpp"
#include "pliant/core/geometry.hpp"
#include "pliant/core/topology.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

namespace pliant {

const char* to_string(Severity severity) {
  switch (severity) {
    case Severity::info:
      return "info";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "?";
}

std::string ValidationReport::first_error() const {
  for (const Finding& f : findings) {
    if (f.severity == Severity::error) return f.message;
  }
  return {};
}

namespace {

std::string num(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

std::string point_text(const Vec3& p) {
  return "(" + num(p.x()) + ", " + num(p.y()) + ", " + num(p.z()) + ")";
}

class Reporter {
 public:
  Reporter(ValidationReport& report, Index cap) : report_(report), cap_(std::max<Index>(cap, 0)) {}

  // `message` is only called for findings that will be stored.
  template <class MessageFn>
  void add(Severity severity, const char* code, Index element, MessageFn&& message) {
    Index& n = report_.counts[code];
    ++n;
    if (severity == Severity::error) ++report_.errors;
    if (severity == Severity::warning) ++report_.warnings;
    if (n <= cap_) report_.findings.push_back({severity, code, message(), element});
  }

  // Appends one "... and N more" finding per capped code.
  void finish() {
    std::vector<Finding> more;
    for (const auto& [code, n] : report_.counts) {
      if (n <= cap_) continue;
      Severity severity = Severity::info;
      for (const Finding& f : report_.findings) {
        if (f.code == code) severity = f.severity;
      }
      more.push_back(
          {severity, code, "... and " + std::to_string(n - cap_) + " more " + code + " findings", -1});
    }
    report_.findings.insert(report_.findings.end(), more.begin(), more.end());
  }

 private:
  ValidationReport& report_;
  Index cap_;
};

// Non-finite coordinates; returns a per-node "finite" flag.
std::vector<char> check_finite(const std::vector<Vec3>& x, Reporter& r) {
  std::vector<char> finite(x.size(), 1);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].allFinite()) continue;
    finite[i] = 0;
    r.add(Severity::error, "non_finite", static_cast<Index>(i),
          [&] { return "node " + std::to_string(i) + ": non-finite coordinate " + point_text(x[i]); });
  }
  return finite;
}

// Index range and repeated nodes of one element; returns whether its indices are usable.
template <std::size_t N>
bool check_indices(const std::array<Index, N>& e, Index id, const char* kind, std::size_t node_count,
                   Reporter& r) {
  for (Index v : e) {
    if (v < 0 || static_cast<std::size_t>(v) >= node_count) {
      r.add(Severity::error, "index_out_of_range", id, [&] {
        return std::string(kind) + " " + std::to_string(id) + ": node " + std::to_string(v) +
               " out of range (" + std::to_string(node_count) + " nodes)";
      });
      return false;
    }
  }
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = i + 1; j < N; ++j) {
      if (e[i] == e[j]) {
        r.add(Severity::error, "repeated_node", id, [&] {
          return std::string(kind) + " " + std::to_string(id) + ": node " + std::to_string(e[i]) +
                 " appears twice";
        });
        return false;
      }
    }
  }
  return true;
}

// Elements with the same node set (in any order), among the usable ones.
template <std::size_t N>
void check_duplicate_elements(const std::vector<std::array<Index, N>>& elements,
                              const std::vector<char>& usable, const char* kind, Severity severity,
                              Reporter& r) {
  std::vector<std::pair<std::array<Index, N>, Index>> keys;
  keys.reserve(elements.size());
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (!usable[i]) continue;
    auto k = elements[i];
    std::sort(k.begin(), k.end());
    keys.push_back({k, static_cast<Index>(i)});
  }
  std::sort(keys.begin(), keys.end());
  for (std::size_t i = 1; i < keys.size(); ++i) {
    if (keys[i].first != keys[i - 1].first) continue;
    std::size_t first = i - 1;
    while (first > 0 && keys[first - 1].first == keys[i].first) --first;
    r.add(severity, "duplicate_element", keys[i].second, [&] {
      return std::string(kind) + " " + std::to_string(keys[i].second) + ": same nodes as " + kind + " " +
             std::to_string(keys[first].second);
    });
  }
}

// Duplicate nodes by a spatial hash with cells of twice the tolerance: a point can only match points
// in its own cell or in the neighbouring cell on the side it is nearer to, per axis (2×2×2 cells).
// Each node is compared only with earlier representatives (nodes that duplicate nothing); those lie
// more than the tolerance apart, so a bounded number fits in any 8 cells and a hostile file full of
// coincident nodes still costs O(n).
void check_duplicate_nodes(const std::vector<Vec3>& x, const std::vector<char>& finite,
                           double relative_tolerance, Reporter& r) {
  Aabb box;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (finite[i]) box.extend(x[i]);
  }
  if (box.empty() || !(relative_tolerance >= 0)) return;
  const double diagonal = box.diagonal();
  const double tol = relative_tolerance * diagonal;
  const double cell = tol > 0 ? 2 * tol : (diagonal > 0 ? diagonal * 1e-9 : 1.0);
  const double tol2 = tol * tol;
  constexpr double kLimit = 4.0e18;  // cell coordinates stay inside int64
  const auto key = [](std::int64_t i, std::int64_t j, std::int64_t k) {
    std::uint64_t h = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<std::uint64_t>(j) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
    h ^= static_cast<std::uint64_t>(k) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
    return h;
  };
  std::unordered_map<std::uint64_t, Index> head;  // cell -> first representative
  head.reserve(x.size());
  std::vector<Index> next(x.size(), -1);  // representative -> next in the same cell
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!finite[i]) continue;
    const Vec3 g = (x[i] - box.min) / cell;
    std::int64_t c[3];
    int side[3];
    for (int a = 0; a < 3; ++a) {
      const double f = std::min(std::floor(g[a]), kLimit);
      c[a] = static_cast<std::int64_t>(f);
      side[a] = g[a] - f < 0.5 ? -1 : 1;
    }
    Index match = -1;
    for (int n = 0; n < 8 && match < 0; ++n) {
      const auto it = head.find(
          key(c[0] + (n & 1 ? side[0] : 0), c[1] + (n & 2 ? side[1] : 0), c[2] + (n & 4 ? side[2] : 0)));
      if (it == head.end()) continue;
      for (Index j = it->second; j >= 0; j = next[j]) {
        if ((x[j] - x[i]).squaredNorm() <= tol2) {
          match = j;
          break;
        }
      }
    }
    if (match >= 0) {
      r.add(Severity::warning, "duplicate_node", static_cast<Index>(i), [&] {
        return "node " + std::to_string(i) + ": duplicates node " + std::to_string(match) + " at " +
               point_text(x[i]) + " (distance " + num((x[i] - x[match]).norm()) + " m)";
      });
      continue;
    }
    const auto [it, inserted] = head.try_emplace(key(c[0], c[1], c[2]), static_cast<Index>(i));
    if (!inserted) {
      next[i] = it->second;
      it->second = static_cast<Index>(i);
    }
  }
}

void check_unreferenced(const std::vector<char>& referenced, const char* element_kind, Reporter& r) {
  for (std::size_t i = 0; i < referenced.size(); ++i) {
    if (!referenced[i]) {
      r.add(Severity::warning, "unreferenced_node", static_cast<Index>(i),
            [&] { return "node " + std::to_string(i) + ": not used by any " + element_kind; });
    }
  }
}

void check_components(std::size_t node_count, const std::vector<Edge>& edges,
                      const std::vector<char>& referenced, Reporter& r) {
  const Components c = connected_components(static_cast<Index>(node_count), edges);
  std::vector<Index> size(static_cast<std::size_t>(c.count), 0);
  for (std::size_t i = 0; i < node_count; ++i) {
    if (referenced[i]) ++size[static_cast<std::size_t>(c.label[i])];
  }
  size.erase(std::remove(size.begin(), size.end(), 0), size.end());
  if (size.size() <= 1) return;
  std::sort(size.rbegin(), size.rend());
  r.add(Severity::warning, "components", -1, [&] {
    std::string s = "mesh has " + std::to_string(size.size()) + " connected components (node counts ";
    for (std::size_t i = 0; i < size.size() && i < 5; ++i) s += (i ? ", " : "") + std::to_string(size[i]);
    return s + (size.size() > 5 ? ", ...)" : ")");
  });
}

// Undirected edge uses of a triangle list, with the direction of each use: reports edges used by
// more than two triangles, used once (open) and used twice in the same direction.
void check_surface_edges(const std::vector<Tri>& tris, const std::vector<char>& usable,
                         Severity open_severity, Severity non_manifold_severity,
                         Severity orientation_severity, const char* what, Reporter& r) {
  struct Use {
    std::uint64_t key;
    bool forward;  // written as (min, max)
  };
  std::vector<Use> uses;
  uses.reserve(3 * tris.size());
  for (std::size_t t = 0; t < tris.size(); ++t) {
    if (!usable[t]) continue;
    for (int k = 0; k < 3; ++k) {
      const Index a = tris[t][k], b = tris[t][(k + 1) % 3];
      const Index lo = std::min(a, b), hi = std::max(a, b);
      uses.push_back({(static_cast<std::uint64_t>(lo) << 32) | static_cast<std::uint32_t>(hi), a < b});
    }
  }
  std::sort(uses.begin(), uses.end(), [](const Use& x, const Use& y) { return x.key < y.key; });
  for (std::size_t i = 0; i < uses.size();) {
    std::size_t j = i;
    int forward = 0;
    while (j < uses.size() && uses[j].key == uses[i].key) forward += uses[j++].forward;
    const Index lo = static_cast<Index>(uses[i].key >> 32),
                hi = static_cast<Index>(uses[i].key & 0xffffffffu);
    const std::size_t n = j - i;
    const auto edge = [&] { return "edge (" + std::to_string(lo) + ", " + std::to_string(hi) + ")"; };
    if (n == 1) {
      r.add(open_severity, "open_edge", lo,
            [&] { return edge() + ": on only one " + what + " (open boundary)"; });
    } else if (n > 2) {
      r.add(non_manifold_severity, "non_manifold_edge", lo,
            [&] { return edge() + ": shared by " + std::to_string(n) + " " + what + "s (non-manifold)"; });
    } else if (forward != 1) {
      r.add(orientation_severity, "inconsistent_orientation", lo,
            [&] { return edge() + ": both " + what + "s run it the same way (inconsistent orientation)"; });
    }
    i = j;
  }
}

// A closed, manifold, consistently oriented surface whose enclosed volume (divergence theorem, about
// the centroid to limit cancellation) is negative winds inward: its normals point into the solid.
// Every piece counts together, so a cavity wound inward inside an outward shell is not flagged.
void check_inside_out(const TriMesh& mesh, const std::vector<char>& usable, const std::vector<char>& finite,
                      const ValidationReport& report, Reporter& r) {
  if (mesh.triangles.empty() || report.count("open_edge") || report.count("non_manifold_edge") ||
      report.count("inconsistent_orientation")) {
    return;
  }
  Vec3 centroid = Vec3::Zero();
  for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
    if (!finite[i]) return;
    centroid += mesh.positions[i];
  }
  centroid /= static_cast<double>(std::max<std::size_t>(mesh.positions.size(), 1));
  double volume = 0, scale = 0;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    if (!usable[t]) return;
    const Tri& tri = mesh.triangles[t];
    const Vec3 a = mesh.positions[tri[0]] - centroid, b = mesh.positions[tri[1]] - centroid,
               c = mesh.positions[tri[2]] - centroid;
    const double v = a.dot(b.cross(c)) / 6.0;
    volume += v;
    scale += std::abs(v);
  }
  if (volume < -1e-9 * scale) {
    r.add(Severity::warning, "inside_out", -1, [&] {
      return "surface is inside out (enclosed volume " + num(volume) +
             " m³: every triangle winds inward); reorient";
    });
  }
}

ValidationReport validate_tets(const TetMesh& mesh, TetMesh* mutable_mesh, const ValidateOptions& options) {
  ValidationReport report;
  Reporter r(report, options.max_findings_per_code);
  const std::size_t n = mesh.positions.size();
  if (mesh.tets.empty()) {
    r.add(Severity::error, "empty", -1, [] { return std::string("mesh has no tetrahedra"); });
  }
  const std::vector<char> finite = check_finite(mesh.positions, r);
  std::vector<char> usable(mesh.tets.size(), 0);
  std::vector<char> referenced(n, 0);
  for (std::size_t i = 0; i < mesh.tets.size(); ++i) {
    const Tet& t = mesh.tets[i];
    const Index id = static_cast<Index>(i);
    if (!check_indices(t, id, "tet", n, r)) continue;
    usable[i] = 1;
    for (Index v : t) referenced[static_cast<std::size_t>(v)] = 1;
    if (!(finite[t[0]] && finite[t[1]] && finite[t[2]] && finite[t[3]])) continue;
    const auto& x = mesh.positions;
    const double volume = signed_volume(x[t[0]], x[t[1]], x[t[2]], x[t[3]]);
    double longest2 = 0;
    for (int a = 0; a < 4; ++a) {
      for (int b = a + 1; b < 4; ++b) longest2 = std::max(longest2, (x[t[a]] - x[t[b]]).squaredNorm());
    }
    const double ratio = std::abs(volume) / (longest2 * std::sqrt(longest2));
    if (!(ratio >= options.degenerate_ratio)) {  // NaN (all nodes coincide) counts as degenerate
      r.add(Severity::error, "degenerate", id, [&] {
        return "tet " + std::to_string(i) + ": degenerate (volume " + num(volume) +
               " m³, |V|/L³ = " + num(ratio) + " < " + num(options.degenerate_ratio) + ")";
      });
    } else if (volume < 0) {
      if (options.reorient && mutable_mesh) {
        std::swap(mutable_mesh->tets[i][2], mutable_mesh->tets[i][3]);
        r.add(Severity::info, "reoriented", id, [&] {
          return "tet " + std::to_string(i) + ": was inverted (volume " + num(volume) +
                 " m³), nodes 2 and 3 swapped";
        });
      } else {
        r.add(Severity::error, "inverted", id,
              [&] { return "tet " + std::to_string(i) + ": inverted (volume " + num(volume) + " m³)"; });
      }
    }
  }
  check_duplicate_elements(mesh.tets, usable, "tet", Severity::error, r);

  // Faces shared by more than two tets, then the boundary surface's edges.
  std::vector<Tet> good;
  good.reserve(mesh.tets.size());
  for (std::size_t i = 0; i < mesh.tets.size(); ++i) {
    if (usable[i]) good.push_back(mutable_mesh ? mutable_mesh->tets[i] : mesh.tets[i]);
  }
  {
    std::vector<std::array<Index, 3>> faces;
    faces.reserve(4 * good.size());
    for (const Tet& t : good) {
      for (int k = 0; k < 4; ++k) {
        std::array<Index, 3> f;
        for (int a = 0, m = 0; a < 4; ++a) {
          if (a != k) f[m++] = t[a];
        }
        std::sort(f.begin(), f.end());
        faces.push_back(f);
      }
    }
    std::sort(faces.begin(), faces.end());
    for (std::size_t i = 0; i < faces.size();) {
      std::size_t j = i;
      while (j < faces.size() && faces[j] == faces[i]) ++j;
      if (j - i > 2) {
        r.add(Severity::error, "non_manifold_face", faces[i][0], [&] {
          return "face (" + std::to_string(faces[i][0]) + ", " + std::to_string(faces[i][1]) + ", " +
                 std::to_string(faces[i][2]) + "): shared by " + std::to_string(j - i) + " tets";
        });
      }
      i = j;
    }
  }
  const std::vector<Tri> boundary = boundary_faces(good);
  check_surface_edges(boundary, std::vector<char>(boundary.size(), 1), Severity::error, Severity::warning,
                      Severity::warning, "boundary face", r);
  check_duplicate_nodes(mesh.positions, finite, options.duplicate_tolerance, r);
  check_unreferenced(referenced, "tet", r);
  check_components(n, unique_edges(good), referenced, r);
  r.finish();
  return report;
}

}  // namespace

ValidationReport validate(TetMesh& mesh, const ValidateOptions& options) {
  return validate_tets(mesh, &mesh, options);
}

ValidationReport validate(const TetMesh& mesh, const ValidateOptions& options) {
  return validate_tets(mesh, nullptr, options);
}

ValidationReport validate(const TriMesh& mesh, const ValidateOptions& options) {
  ValidationReport report;
  Reporter r(report, options.max_findings_per_code);
  const std::size_t n = mesh.positions.size();
  if (mesh.triangles.empty()) {
    r.add(Severity::error, "empty", -1, [] { return std::string("mesh has no triangles"); });
  }
  const std::vector<char> finite = check_finite(mesh.positions, r);
  std::vector<char> usable(mesh.triangles.size(), 0);
  std::vector<char> referenced(n, 0);
  for (std::size_t i = 0; i < mesh.triangles.size(); ++i) {
    const Tri& t = mesh.triangles[i];
    const Index id = static_cast<Index>(i);
    if (!check_indices(t, id, "triangle", n, r)) continue;
    usable[i] = 1;
    for (Index v : t) referenced[static_cast<std::size_t>(v)] = 1;
    if (!(finite[t[0]] && finite[t[1]] && finite[t[2]])) continue;
    const auto& x = mesh.positions;
    const double area = area_vector(x[t[0]], x[t[1]], x[t[2]]).norm();
    const double longest2 = std::max({(x[t[1]] - x[t[0]]).squaredNorm(), (x[t[2]] - x[t[1]]).squaredNorm(),
                                      (x[t[0]] - x[t[2]]).squaredNorm()});
    const double ratio = area / longest2;
    if (!(ratio >= options.degenerate_ratio)) {
      r.add(Severity::error, "degenerate", id, [&] {
        return "triangle " + std::to_string(i) + ": degenerate (area " + num(area) +
               " m², A/L² = " + num(ratio) + " < " + num(options.degenerate_ratio) + ")";
      });
    }
  }
  check_duplicate_elements(mesh.triangles, usable, "triangle", Severity::warning, r);
  const Severity strict = options.require_closed ? Severity::error : Severity::warning;
  check_surface_edges(mesh.triangles, usable, options.require_closed ? Severity::error : Severity::info,
                      strict, strict, "triangle", r);
  check_inside_out(mesh, usable, finite, report, r);
  check_duplicate_nodes(mesh.positions, finite, options.duplicate_tolerance, r);
  check_unreferenced(referenced, "triangle", r);
  std::vector<Tri> good;
  for (std::size_t i = 0; i < mesh.triangles.size(); ++i) {
    if (usable[i]) good.push_back(mesh.triangles[i]);
  }
  check_components(n, unique_edges(good), referenced, r);
  r.finish();
  return report;
}

}  // namespace pliant
