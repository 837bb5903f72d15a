// Private parsing toolkit shared by the mesh readers.
//
// Readers load the whole file into memory and walk it with a TextCursor (tokens with line numbers)
// or a ByteCursor (little/big-endian scalars with byte offsets). Any defect throws ParseFailure with
// the final one-line message; the public entry points (mesh_file.cpp) turn it into a Result. Every
// declared count is checked against the bytes that remain before anything is allocated for it, so a
// lying header costs an error message, not gigabytes.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/io/mesh_file.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pliant::io::detail {

/// The one-line error a reader throws; `message` already names the file and line or byte offset.
struct ParseFailure {
  std::string message;
};

[[noreturn]] void throw_failure(std::string message);

/// ASCII lower case (file extensions, VTK keywords).
inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}
/// The path's extension in ASCII lower case, with its dot (".obj"), or "".
inline std::string lower_extension(const std::filesystem::path& path) {
  return ascii_lower(path.extension().string());
}

/// Token-wise reader of a text buffer that knows the line of every token. Lines end with LF, CRLF or
/// a lone CR (classic Mac OS); all three count lines the same way.
class TextCursor {
 public:
  /// `name` prefixes messages; `comment` (if not 0) starts a comment that runs to the end of a line.
  TextCursor(std::string_view text, std::string name, char comment = 0);

  /// True when only whitespace (and comments) remain.
  bool at_end();
  /// The next whitespace-separated token; fails at end of file, naming `what` was expected.
  std::string_view token(std::string_view what);
  /// The next token without consuming anything, not even whitespace ("" at end of file).
  std::string_view peek();
  /// True when nothing but spaces/tabs remain before the next newline (or end of file).
  bool at_line_end();
  /// Skips to the start of the next line.
  void skip_line();
  /// The rest of the current line (without newline), and moves past the newline.
  std::string_view rest_of_line();
  /// Reads an integer token; `what` names it in messages ("node count").
  long long integer(std::string_view what);
  /// Reads an integer in [lo, hi].
  long long integer_in(std::string_view what, long long lo, long long hi);
  /// Reads a finite real number (NaN and infinities are rejected with the line).
  double real(std::string_view what);
  /// Reads three finite reals.
  Vec3 point(std::string_view what);
  /// Expects the exact token `word`.
  void expect(std::string_view word);

  /// Rejects `count` when even `min_bytes_each` bytes per entry cannot fit in what remains.
  void check_count(long long count, std::size_t min_bytes_each, std::string_view what);

  [[noreturn]] void fail(const std::string& what) const;
  std::size_t line() const { return token_line_; }
  std::size_t offset() const { return pos_; }
  void seek(std::size_t offset);
  std::size_t remaining() const { return text_.size() - pos_; }
  const std::string& name() const { return name_; }
  std::string_view text() const { return text_; }

 private:
  void skip_space();
  /// Length of the line break at `pos` (LF, CRLF or a lone CR as in old Mac files), 0 if none.
  std::size_t newline_at(std::size_t pos) const {
    if (pos >= text_.size()) return 0;
    if (text_[pos] == '\n') return 1;
    if (text_[pos] == '\r') return pos + 1 < text_.size() && text_[pos + 1] == '\n' ? 2 : 1;
    return 0;
  }
  std::string_view text_;
  std::string name_;
  char comment_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;        // line at pos_
  std::size_t token_line_ = 1;  // line of the last token read
};

/// Reader of binary scalars with bounds checks; messages name the byte offset.
class ByteCursor {
 public:
  ByteCursor(std::string_view bytes, std::string name, std::size_t start = 0, bool big_endian = false)
      : bytes_(bytes), name_(std::move(name)), pos_(start), big_endian_(big_endian) {}

  template <class T>
  T read(std::string_view what) {
    need(sizeof(T), what);
    T value;
    char buf[sizeof(T)];
    std::memcpy(buf, bytes_.data() + pos_, sizeof(T));
    if (big_endian_) {
      for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(buf[i], buf[sizeof(T) - 1 - i]);
    }
    std::memcpy(&value, buf, sizeof(T));
    pos_ += sizeof(T);
    return value;
  }
  /// Fails unless `n` more bytes are available.
  void need(std::size_t n, std::string_view what) const;
  /// Rejects a count whose entries of `bytes_each` bytes cannot fit in what remains.
  void check_count(std::uint64_t count, std::size_t bytes_each, std::string_view what) const;
  [[noreturn]] void fail(const std::string& what) const;
  void skip(std::size_t n, std::string_view what) {
    need(n, what);
    pos_ += n;
  }
  std::size_t offset() const { return pos_; }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  void set_big_endian(bool big) { big_endian_ = big; }

 private:
  std::string_view bytes_;
  std::string name_;
  std::size_t pos_;
  bool big_endian_;
};

/// Collects nodes and elements, mapping a file's node ids to compact indices and checking every
/// reference. Element callbacks give the file's node ids; `where` names the element for messages.
class MeshBuilder {
 public:
  explicit MeshBuilder(std::string format) { mesh_.format = std::move(format); }

  void reserve_nodes(std::size_t n) {
    mesh_.positions.reserve(n);
    ids_.reserve(n);
  }
  /// Adds node `id` at `p`; returns false when the id was already used.
  bool add_node(long long id, const Vec3& p);
  /// Compact index of node `id`, or -1.
  Index find(long long id) const;
  /// Adds an element of `count` node ids (2 = edge, 3 = triangle, 4 = tetrahedron). On a bad id the
  /// returned string is the error text ("references node 9, but ...") and nothing is added.
  std::string add_element(const long long* ids, int count, long long element_id = -1);
  /// Adds a triangle of compact indices, recording `element_id` (the file's number of the element it
  /// came from; -1: the triangle's index) in triangle_ids.
  void add_triangle(const Tri& t, long long element_id = -1) {
    mesh_.triangle_ids.push_back(element_id >= 0 ? element_id
                                                 : static_cast<long long>(mesh_.triangles.size()));
    mesh_.triangles.push_back(t);
  }
  void skip_element(const std::string& kind, std::size_t count = 1);
  std::size_t node_count() const { return mesh_.positions.size(); }
  /// Records that one cell of `kind` was split into `pieces` elements of kind `piece` ("hexahedron"
  /// into 6 "tetrahedron"); finish() turns the records into one notice line per kind of piece.
  void note_split(const std::string& kind, const std::string& piece, std::size_t pieces);
  /// The mesh read, with the notices of note_split.
  MeshFile finish();
  MeshFile& mesh() { return mesh_; }

 private:
  struct Split {
    std::string kind, piece;
    std::size_t cells = 0, pieces = 0;
  };
  MeshFile mesh_;
  std::unordered_map<long long, Index> ids_;
  std::vector<Split> splits_;
};

/// Parses a whole token as a double (an optional '+' allowed): correctly rounded, subnormals kept
/// (std::from_chars reports them as out of range; strtod then gives the value), overflow as ±inf so
/// that the caller's finiteness check names it. False when the token is not a number.
bool parse_double(std::string_view token, double& value);

/// Checks a coordinate triple is finite; returns false otherwise.
inline bool finite(const Vec3& p) { return p.allFinite(); }

}  // namespace pliant::io::detail
