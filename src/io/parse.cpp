#include "io/parse.hpp"

#include "pliant/core/escape.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace pliant::io::detail {

// Messages are one line even when they echo file content (found by the VTU fuzzer: a newline inside
// an attribute value): control characters become '?'.
void throw_failure(std::string message) {
  // The last guard of the one-line rule: whatever a reader echoed, the message stays one line (text
  // already escaped by quoted_for_message has no control characters left, so it passes unchanged).
  throw ParseFailure{escape_for_message(message, std::string::npos)};
}

namespace {
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

// Keeps a token short and on one line in messages: garbage bytes may form one very long "token".
std::string shown(std::string_view token) { return escape_for_message(token, 40); }
}  // namespace

TextCursor::TextCursor(std::string_view text, std::string name, char comment)
    : text_(text), name_(std::move(name)), comment_(comment) {}

void TextCursor::skip_space() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (const std::size_t n = newline_at(pos_)) {
      ++line_;
      pos_ += n;
    } else if (is_space(c)) {
      ++pos_;
    } else if (comment_ != 0 && c == comment_) {
      while (pos_ < text_.size() && !newline_at(pos_)) ++pos_;
    } else {
      break;
    }
  }
}

bool TextCursor::at_end() {
  skip_space();
  return pos_ >= text_.size();
}

std::string_view TextCursor::token(std::string_view what) {
  skip_space();
  token_line_ = line_;
  if (pos_ >= text_.size()) fail("unexpected end of file, expected " + std::string(what));
  const std::size_t start = pos_;
  while (pos_ < text_.size() && !is_space(text_[pos_]) && !(comment_ != 0 && text_[pos_] == comment_)) ++pos_;
  return text_.substr(start, pos_ - start);
}

std::string_view TextCursor::peek() {
  const std::size_t pos = pos_, line = line_;
  skip_space();
  std::size_t end = pos_;
  while (end < text_.size() && !is_space(text_[end]) && !(comment_ != 0 && text_[end] == comment_)) ++end;
  const std::string_view t = text_.substr(pos_, end - pos_);
  pos_ = pos;
  line_ = line;
  return t;
}

bool TextCursor::at_line_end() {
  while (pos_ < text_.size() &&
         (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\f' || text_[pos_] == '\v')) {
    ++pos_;
  }
  if (comment_ != 0 && pos_ < text_.size() && text_[pos_] == comment_) {
    while (pos_ < text_.size() && !newline_at(pos_)) ++pos_;
  }
  return pos_ >= text_.size() || newline_at(pos_) != 0;
}

void TextCursor::skip_line() {
  while (pos_ < text_.size() && !newline_at(pos_)) ++pos_;
  if (pos_ < text_.size()) {
    pos_ += newline_at(pos_);
    ++line_;
  }
}

std::string_view TextCursor::rest_of_line() {
  token_line_ = line_;
  const std::size_t start = pos_;
  while (pos_ < text_.size() && !newline_at(pos_)) ++pos_;
  const std::string_view line = text_.substr(start, pos_ - start);
  if (pos_ < text_.size()) {
    pos_ += newline_at(pos_);
    ++line_;
  }
  return line;
}

long long TextCursor::integer(std::string_view what) {
  const std::string_view t = token(what);
  long long value = 0;
  const char* first = t.data();
  if (!t.empty() && t.front() == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, t.data() + t.size(), value);
  if (ec == std::errc::result_out_of_range) fail(std::string(what) + " '" + shown(t) + "' is out of range");
  if (ec != std::errc() || ptr != t.data() + t.size() || first == t.data() + t.size()) {
    fail("expected " + std::string(what) + " (an integer), found '" + shown(t) + "'");
  }
  return value;
}

long long TextCursor::integer_in(std::string_view what, long long lo, long long hi) {
  const long long v = integer(what);
  if (v < lo || v > hi) {
    fail(std::string(what) + " " + std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " +
         std::to_string(hi) + "]");
  }
  return v;
}

bool parse_double(std::string_view t, double& value) {
  const char* first = t.data();
  if (!t.empty() && t.front() == '+') ++first;
  const char* last = t.data() + t.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ptr != last || first == last) return false;
  if (ec == std::errc::result_out_of_range) {
    const std::string copy(first, last);
    value = std::strtod(copy.c_str(), nullptr);  // subnormal value, 0, or ±HUGE_VAL
    return true;
  }
  return ec == std::errc();
}

double TextCursor::real(std::string_view what) {
  const std::string_view t = token(what);
  double value = 0;
  if (!parse_double(t, value))
    fail("expected " + std::string(what) + " (a number), found '" + shown(t) + "'");
  if (!std::isfinite(value)) fail(std::string(what) + " is " + shown(t) + " (not a finite number)");
  return value;
}

Vec3 TextCursor::point(std::string_view what) {
  Vec3 p;
  for (int k = 0; k < 3; ++k) p[k] = real(what);
  return p;
}

void TextCursor::expect(std::string_view word) {
  const std::string_view t = token(std::string("'") + std::string(word) + "'");
  if (t != word) fail("expected '" + std::string(word) + "', found '" + shown(t) + "'");
}

void TextCursor::check_count(long long count, std::size_t min_bytes_each, std::string_view what) {
  if (count < 0) fail(std::string(what) + " count " + std::to_string(count) + " is negative");
  if (count > std::numeric_limits<Index>::max()) {
    fail(std::string(what) + " count " + std::to_string(count) + " exceeds the supported maximum of " +
         std::to_string(std::numeric_limits<Index>::max()));
  }
  const auto need = static_cast<unsigned long long>(count) * min_bytes_each;
  if (need > remaining()) {
    fail("declares " + std::to_string(count) + " " + std::string(what) + ", but only " +
         std::to_string(remaining()) + " bytes follow (the file is truncated or the count is wrong)");
  }
}

void TextCursor::fail(const std::string& what) const {
  throw_failure(name_ + ":" + std::to_string(token_line_) + ": " + what);
}

void TextCursor::seek(std::size_t offset) {
  // Recount lines up to the new position so messages stay right.
  if (offset < pos_) {
    pos_ = 0;
    line_ = 1;
  }
  while (pos_ < offset && pos_ < text_.size()) {
    const std::size_t n = newline_at(pos_);
    if (n != 0 && pos_ + n <= offset) {
      ++line_;
      pos_ += n;
    } else {
      ++pos_;
    }
  }
  token_line_ = line_;
}

void ByteCursor::need(std::size_t n, std::string_view what) const {
  if (n > remaining()) {
    fail("truncated: " + std::string(what) + " needs " + std::to_string(n) + " bytes, " +
         std::to_string(remaining()) + " remain");
  }
}

void ByteCursor::check_count(std::uint64_t count, std::size_t bytes_each, std::string_view what) const {
  if (count > static_cast<std::uint64_t>(std::numeric_limits<Index>::max())) {
    fail(std::string(what) + " count " + std::to_string(count) + " exceeds the supported maximum of " +
         std::to_string(std::numeric_limits<Index>::max()));
  }
  if (count * bytes_each > remaining()) {
    fail("declares " + std::to_string(count) + " " + std::string(what) + " (" +
         std::to_string(count * bytes_each) + " bytes), but only " + std::to_string(remaining()) +
         " bytes follow");
  }
}

void ByteCursor::fail(const std::string& what) const {
  throw_failure(name_ + ": byte " + std::to_string(pos_) + ": " + what);
}

bool MeshBuilder::add_node(long long id, const Vec3& p) {
  const auto [it, inserted] = ids_.emplace(id, static_cast<Index>(mesh_.positions.size()));
  if (!inserted) return false;
  mesh_.positions.push_back(p);
  mesh_.node_ids.push_back(id);
  return true;
}

Index MeshBuilder::find(long long id) const {
  const auto it = ids_.find(id);
  return it == ids_.end() ? -1 : it->second;
}

std::string MeshBuilder::add_element(const long long* ids, int count, long long element_id) {
  Index idx[4];
  for (int k = 0; k < count; ++k) {
    idx[k] = find(ids[k]);
    if (idx[k] < 0) {
      return "references node " + std::to_string(ids[k]) + ", which is not defined (" +
             std::to_string(mesh_.positions.size()) + " nodes)";
    }
  }
  for (int a = 0; a < count; ++a) {
    for (int b = a + 1; b < count; ++b) {
      if (idx[a] == idx[b]) return "uses node " + std::to_string(ids[a]) + " twice";
    }
  }
  if (count == 4) mesh_.tets.push_back({idx[0], idx[1], idx[2], idx[3]});
  if (count == 3) {
    mesh_.triangle_ids.push_back(element_id >= 0 ? element_id
                                                 : static_cast<long long>(mesh_.triangles.size()));
    mesh_.triangles.push_back({idx[0], idx[1], idx[2]});
  }
  if (count == 2) mesh_.edges.push_back({idx[0], idx[1]});
  return {};
}

void MeshBuilder::skip_element(const std::string& kind, std::size_t count) {
  for (auto& [k, n] : mesh_.skipped) {
    if (k == kind) {
      n += count;
      return;
    }
  }
  mesh_.skipped.emplace_back(kind, count);
}

}  // namespace pliant::io::detail

namespace pliant::io::detail {
namespace {

std::string plural_of(std::size_t n, const std::string& kind) {
  std::string word = kind;
  if (n != 1) {
    if (kind.size() > 6 && kind.compare(kind.size() - 6, 6, "hedron") == 0) {
      word = kind.substr(0, kind.size() - 2) + "a";
    } else {
      word += "s";
    }
  }
  return std::to_string(n) + " " + word;
}

}  // namespace

void MeshBuilder::note_split(const std::string& kind, const std::string& piece, std::size_t pieces) {
  for (Split& s : splits_) {
    if (s.kind == kind && s.piece == piece) {
      ++s.cells;
      s.pieces += pieces;
      return;
    }
  }
  splits_.push_back({kind, piece, 1, pieces});
}

MeshFile MeshBuilder::finish() {
  // One line per kind of piece: "split 27 hexahedra and 4 prisms into 174 tetrahedra".
  std::vector<std::string> done;
  for (const Split& s : splits_) {
    if (std::find(done.begin(), done.end(), s.piece) != done.end()) continue;
    done.push_back(s.piece);
    std::vector<std::string> parts;
    std::size_t pieces = 0;
    for (const Split& t : splits_) {
      if (t.piece != s.piece) continue;
      parts.push_back(plural_of(t.cells, t.kind));
      pieces += t.pieces;
    }
    std::string line = "split ";
    for (std::size_t i = 0; i < parts.size(); ++i)
      line += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    mesh_.notices.push_back(line + " into " + plural_of(pieces, s.piece));
  }
  // node_ids or triangle_ids that are not parallel to their data (a reader that added some directly)
  // are dropped rather than left wrong.
  if (mesh_.node_ids.size() != mesh_.positions.size()) mesh_.node_ids.clear();
  if (mesh_.triangle_ids.size() != mesh_.triangles.size()) mesh_.triangle_ids.clear();
  return std::move(mesh_);
}

}  // namespace pliant::io::detail
