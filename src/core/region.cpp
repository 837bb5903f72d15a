// Node-selection regions: parsing of the mini-syntax documented in region.hpp and node selection.
#include "pliant/core/region.hpp"

#include "pliant/core/aabb.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace pliant {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A finite number filling the whole token, or nothing.
std::optional<double> parse_number(std::string_view token) {
  token = trim(token);
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  double value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<Index> parse_index(std::string_view token) {
  token = trim(token);
  Index value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || end != token.data() + token.size() || value < 0)
    return std::nullopt;
  return value;
}

std::vector<std::string_view> split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  for (;;) {
    const std::size_t at = s.find(separator);
    parts.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return parts;
    s.remove_prefix(at + 1);
  }
}

Error fail(std::string_view text, const std::string& what) {
  // Quote at most 80 characters: the message stays one readable line whatever was passed.
  const std::string quoted = text.size() > 80 ? std::string(text.substr(0, 77)) + "..." : std::string(text);
  return Error{"region \"" + quoted + "\": " + what};
}

// Parses exactly n comma-separated numbers.
Result<std::vector<double>> parse_numbers(std::string_view text, std::string_view list, std::size_t n,
                                          const char* shape, const char* layout) {
  const auto parts = split(list, ',');
  if (parts.size() != n) {
    return fail(text, std::string(shape) + " needs " + std::to_string(n) + " numbers (" + layout + "), got " +
                          std::to_string(parts.size()));
  }
  std::vector<double> values;
  for (const auto part : parts) {
    const auto value = parse_number(part);
    if (!value) return fail(text, "\"" + std::string(trim(part)) + "\" is not a finite number");
    values.push_back(*value);
  }
  return values;
}

int axis_of(char c) { return c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : -1; }

std::string number_text(double v) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  return ec == std::errc() ? std::string(buffer, end) : std::string("nan");
}

const char* const kExpected =
    "expected x<V, y>=V, y<20%, ..., box:x0,y0,z0,x1,y1,z1, sphere:cx,cy,cz,r, nodes:i,j,k-l, or "
    "xmin..zmax[:tol], xmin+2%, xmax-2%";

// "20%" -> 20; nothing unless the token ends in '%' and the rest is a finite number.
std::optional<double> parse_percent(std::string_view token) {
  token = trim(token);
  if (token.empty() || token.back() != '%') return std::nullopt;
  return parse_number(token.substr(0, token.size() - 1));
}

}  // namespace

Result<Region> parse_region(std::string_view text) {
  const std::string_view s = trim(text);
  if (s.empty()) return fail(text, std::string("empty; ") + kExpected);
  const std::size_t colon = s.find(':');
  const std::string_view head = trim(s.substr(0, colon));
  const std::string_view rest = colon == std::string_view::npos ? std::string_view() : s.substr(colon + 1);

  if (head == "box") {
    auto v = parse_numbers(text, rest, 6, "box", "x0,y0,z0,x1,y1,z1");
    if (!v) return v.error();
    BoxRegion box{Vec3((*v)[0], (*v)[1], (*v)[2]), Vec3((*v)[3], (*v)[4], (*v)[5])};
    if ((box.min.array() > box.max.array()).any()) {
      return fail(text, "box lower corner exceeds its upper corner on some axis");
    }
    return Region(box);
  }
  if (head == "sphere") {
    auto v = parse_numbers(text, rest, 4, "sphere", "cx,cy,cz,r");
    if (!v) return v.error();
    if ((*v)[3] < 0) return fail(text, "sphere radius must be >= 0");
    return Region(SphereRegion{Vec3((*v)[0], (*v)[1], (*v)[2]), (*v)[3]});
  }
  if (head == "nodes") {
    NodeListRegion list;
    for (const auto part : split(rest, ',')) {
      const std::string_view token = trim(part);
      const std::size_t dash = token.find('-', 1);
      if (dash == std::string_view::npos) {
        const auto i = parse_index(token);
        if (!i) return fail(text, "\"" + std::string(token) + "\" is not a node index (integer >= 0)");
        list.nodes.push_back(*i);
        continue;
      }
      const auto first = parse_index(token.substr(0, dash));
      const auto last = parse_index(token.substr(dash + 1));
      if (!first || !last || *first > *last) {
        return fail(text, "\"" + std::string(token) + "\" is not a node range first-last with first <= last");
      }
      // Bounded so that a typo like 0-2000000000 cannot allocate gigabytes.
      if (static_cast<std::int64_t>(*last) - *first + static_cast<std::int64_t>(list.nodes.size()) >=
          100'000'000) {
        return fail(text, "node list longer than 100000000 entries; use a box or half-space instead");
      }
      for (Index i = *first;; ++i) {
        list.nodes.push_back(i);
        if (i == *last) break;
      }
    }
    return Region(std::move(list));
  }
  // xmin, xmin:TOL, xmin+TOL, xmax-TOL; TOL in m or as a percentage of the extent ("2%").
  const std::string_view face = s.substr(0, std::min<std::size_t>(4, s.size()));
  if (face.size() == 4 && axis_of(face[0]) >= 0 && (face.substr(1) == "min" || face.substr(1) == "max")) {
    const bool upper = face.substr(1) == "max";
    ExtremeRegion extreme{axis_of(face[0]), upper, std::nullopt, std::nullopt};
    const std::string_view after = trim(s.substr(4));
    if (!after.empty()) {
      const char sign = after.front();
      if (sign != ':' && sign != '+' && sign != '-')
        return fail(text, std::string("unknown region; ") + kExpected);
      if (sign != ':' && (sign == '+') == upper) {
        return fail(text, std::string("the band lies inside the box: write ") + face[0] +
                              (upper ? "max-" : "min+") + std::string(trim(after.substr(1))));
      }
      const std::string_view amount = trim(after.substr(1));
      if (const auto percent = parse_percent(amount)) {
        if (*percent < 0 || *percent > 100)
          return fail(text,
                      "tolerance \"" + std::string(amount) + "\" is not a percentage between 0% and 100%");
        extreme.tolerance_percent = *percent;
      } else {
        const auto tol = parse_number(amount);
        if (!tol || *tol < 0) {
          return fail(
              text, "tolerance \"" + std::string(amount) + "\" is not a number >= 0 (in m) or a percentage");
        }
        extreme.tolerance = *tol;
      }
    }
    return Region(extreme);
  }
  if (colon == std::string_view::npos && axis_of(s[0]) >= 0 && s.size() > 1) {
    std::string_view op = trim(s.substr(1));
    HalfSpaceRegion half{axis_of(s[0]), Comparison::less, 0};
    std::size_t op_length = 1;
    if (op.substr(0, 2) == "<=") {
      half.comparison = Comparison::less_equal, op_length = 2;
    } else if (op.substr(0, 2) == ">=") {
      half.comparison = Comparison::greater_equal, op_length = 2;
    } else if (op.substr(0, 1) == "<") {
      half.comparison = Comparison::less;
    } else if (op.substr(0, 1) == ">") {
      half.comparison = Comparison::greater;
    } else {
      return fail(text, std::string("after the axis expected one of < <= > >=; ") + kExpected);
    }
    if (const auto percent = parse_percent(op.substr(op_length))) {
      half.value = *percent;
      half.relative = true;
      return Region(half);
    }
    const auto value = parse_number(op.substr(op_length));
    if (!value)
      return fail(text, "\"" + std::string(trim(op.substr(op_length))) + "\" is not a finite number (in m)");
    half.value = *value;
    return Region(half);
  }
  return fail(text, std::string("unknown region; ") + kExpected);
}

std::string to_string(const Region& region) {
  struct Printer {
    std::string operator()(const HalfSpaceRegion& h) const {
      static const char* const ops[] = {"<", "<=", ">", ">="};
      return std::string(1, "xyz"[h.axis]) + ops[static_cast<int>(h.comparison)] + number_text(h.value) +
             (h.relative ? "%" : "");
    }
    std::string operator()(const BoxRegion& b) const {
      std::string s = "box:";
      for (int i = 0; i < 6; ++i) s += (i ? "," : "") + number_text(i < 3 ? b.min[i] : b.max[i - 3]);
      return s;
    }
    std::string operator()(const SphereRegion& b) const {
      return "sphere:" + number_text(b.centre.x()) + "," + number_text(b.centre.y()) + "," +
             number_text(b.centre.z()) + "," + number_text(b.radius);
    }
    std::string operator()(const NodeListRegion& n) const {
      std::string s = "nodes:";
      for (std::size_t i = 0; i < n.nodes.size(); ++i) s += (i ? "," : "") + std::to_string(n.nodes[i]);
      return s;
    }
    std::string operator()(const ExtremeRegion& e) const {
      std::string s = std::string(1, "xyz"[e.axis]) + (e.upper ? "max" : "min");
      if (e.tolerance_percent) {
        s += (e.upper ? "-" : "+") + number_text(*e.tolerance_percent) + "%";
      } else if (e.tolerance) {
        s += ":" + number_text(*e.tolerance);
      }
      return s;
    }
  };
  return std::visit(Printer{}, region);
}

std::vector<Index> select_nodes(const std::vector<Vec3>& positions, const Region& region) {
  std::vector<Index> selected;
  const Index n = static_cast<Index>(positions.size());
  const auto select_if = [&](auto&& inside) {
    for (Index i = 0; i < n; ++i) {
      if (inside(positions[static_cast<std::size_t>(i)])) selected.push_back(i);
    }
  };
  if (const auto* h = std::get_if<HalfSpaceRegion>(&region)) {
    const int a = h->axis;
    double v = h->value;
    if (h->relative) {
      const Aabb box = bounding_box(positions);
      if (box.empty()) return selected;
      v = box.min[a] + h->value / 100.0 * (box.max[a] - box.min[a]);
    }
    switch (h->comparison) {
      case Comparison::less:
        select_if([&](const Vec3& p) { return p[a] < v; });
        break;
      case Comparison::less_equal:
        select_if([&](const Vec3& p) { return p[a] <= v; });
        break;
      case Comparison::greater:
        select_if([&](const Vec3& p) { return p[a] > v; });
        break;
      case Comparison::greater_equal:
        select_if([&](const Vec3& p) { return p[a] >= v; });
        break;
    }
  } else if (const auto* b = std::get_if<BoxRegion>(&region)) {
    const Aabb box{b->min, b->max};
    select_if([&](const Vec3& p) { return box.contains(p); });
  } else if (const auto* s = std::get_if<SphereRegion>(&region)) {
    const double r2 = s->radius * s->radius;
    select_if([&](const Vec3& p) { return (p - s->centre).squaredNorm() <= r2; });
  } else if (const auto* list = std::get_if<NodeListRegion>(&region)) {
    for (Index i : list->nodes) {
      if (i >= 0 && i < n) selected.push_back(i);
    }
    std::sort(selected.begin(), selected.end());
    selected.erase(std::unique(selected.begin(), selected.end()), selected.end());
  } else if (const auto* e = std::get_if<ExtremeRegion>(&region)) {
    const Aabb box = bounding_box(positions);
    if (box.empty()) return selected;
    const int a = e->axis;
    const double tol = e->tolerance_percent ? *e->tolerance_percent / 100.0 * (box.max[a] - box.min[a])
                       : e->tolerance       ? *e->tolerance
                                            : 1e-6 * box.diagonal();
    const double face = e->upper ? box.max[a] : box.min[a];
    select_if([&](const Vec3& p) { return std::abs(p[a] - face) <= tol; });
  }
  return selected;
}

Status check_region(const Region& region, std::size_t node_count) {
  if (const auto* list = std::get_if<NodeListRegion>(&region)) {
    for (Index i : list->nodes) {
      if (i < 0 || static_cast<std::size_t>(i) >= node_count) {
        return Error{"region nodes:...: node " + std::to_string(i) + " out of range (the mesh has " +
                     std::to_string(node_count) + " nodes)"};
      }
    }
  }
  return {};
}

}  // namespace pliant
