// VTK XML unstructured grid (.vtu) reader: DataArrays in ascii, binary (base64 inline) and appended
// (base64 or raw) form, header_type UInt32 or UInt64, either byte order. Compressed files are
// reported as unsupported. Layout as in "VTK File Formats", section "XML File Formats".
//
// This is not a general XML parser: it reads the tags of the VTKFile/UnstructuredGrid/Piece tree up
// to <AppendedData>, whose raw payload may contain any byte and is addressed by offsets only.
#include "io/base64.hpp"
#include "io/parse.hpp"
#include "io/readers.hpp"
#include "io/vtk_cells.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace pliant::io::detail {
namespace {

struct Tag {
  std::string name;  // without '/', e.g. "DataArray"
  std::map<std::string, std::string> attrs;
  bool closing = false;
  bool self_closing = false;
  std::size_t begin = 0;  // offset of '<'
  std::size_t end = 0;    // offset after '>'
};

struct ArrayRef {
  Tag tag;
  std::size_t content_end = 0;  // offset of the matching "</DataArray"
};

struct Vtu {
  std::string_view text;
  std::string name;
  std::size_t xml_end;                            // start of <AppendedData ...> or end of text
  std::size_t appended = std::string_view::npos;  // first byte after '_'
  bool appended_base64 = false;
  bool big_endian = false;
  std::size_t header_size = 4;

  Vtu(std::string_view t, std::string n) : text(t), name(std::move(n)), xml_end(t.size()) {}

  std::size_t line_of(std::size_t offset) const {
    std::size_t line = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) line += text[i] == '\n';
    return line;
  }
  [[noreturn]] void fail_at(std::size_t offset, const std::string& what) const {
    throw_failure(name + ":" + std::to_string(line_of(offset)) + ": " + what);
  }
  [[noreturn]] void fail_byte(std::size_t offset, const std::string& what) const {
    throw_failure(name + ": byte " + std::to_string(offset) + ": " + what);
  }

  // The next tag at or after `pos` (before xml_end), skipping declarations and comments.
  bool next_tag(std::size_t& pos, Tag& tag) const {
    while (true) {
      const std::size_t lt = text.find('<', pos);
      if (lt == std::string_view::npos || lt >= xml_end) return false;
      if (text.compare(lt, 4, "<!--") == 0) {
        const std::size_t e = text.find("-->", lt);
        if (e == std::string_view::npos) fail_at(lt, "unterminated XML comment");
        pos = e + 3;
        continue;
      }
      if (text.compare(lt, 2, "<?") == 0 || text.compare(lt, 2, "<!") == 0) {
        const std::size_t e = text.find('>', lt);
        if (e == std::string_view::npos) fail_at(lt, "unterminated XML declaration");
        pos = e + 1;
        continue;
      }
      tag = Tag{};
      tag.begin = lt;
      std::size_t i = lt + 1;
      if (i < text.size() && text[i] == '/') {
        tag.closing = true;
        ++i;
      }
      const auto is_name = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '-';
      };
      while (i < text.size() && is_name(text[i])) tag.name += text[i++];
      if (tag.name.empty()) fail_at(lt, "malformed XML tag");
      while (true) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i >= text.size()) fail_at(lt, "unterminated XML tag <" + tag.name + ">");
        if (text[i] == '>') {
          ++i;
          break;
        }
        if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '>') {
          tag.self_closing = true;
          i += 2;
          break;
        }
        std::string key;
        while (i < text.size() && is_name(text[i])) key += text[i++];
        if (key.empty()) fail_at(i, "malformed attribute in <" + tag.name + ">");
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i >= text.size() || text[i] != '=')
          fail_at(i, "attribute " + key + " of <" + tag.name + "> has no value");
        ++i;
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i >= text.size() || (text[i] != '"' && text[i] != '\''))
          fail_at(i, "attribute " + key + " is not quoted");
        const char quote = text[i++];
        const std::size_t close = text.find(quote, i);
        if (close == std::string_view::npos) fail_at(i, "unterminated attribute " + key);
        tag.attrs[key] = std::string(text.substr(i, close - i));
        i = close + 1;
      }
      tag.end = i;
      pos = i;
      return true;
    }
  }

  static std::string attr(const Tag& t, const std::string& key, const std::string& fallback = "") {
    const auto it = t.attrs.find(key);
    return it == t.attrs.end() ? fallback : it->second;
  }

  long long int_attr(const Tag& t, const std::string& key, long long lo, long long hi) const {
    const auto it = t.attrs.find(key);
    if (it == t.attrs.end()) fail_at(t.begin, "<" + t.name + "> has no " + key);
    long long v = 0;
    const std::string& s = it->second;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size())
      fail_at(t.begin, key + "=\"" + s.substr(0, 30) + "\" is not an integer");
    if (v < lo || v > hi)
      fail_at(t.begin,
              key + " " + s + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
  }

  static std::size_t scalar_size(const std::string& type, bool& real, bool& is_signed) {
    real = type.rfind("Float", 0) == 0;
    is_signed = type.rfind("Int", 0) == 0 || real;
    if (type == "Int8" || type == "UInt8") return 1;
    if (type == "Int16" || type == "UInt16") return 2;
    if (type == "Int32" || type == "UInt32" || type == "Float32") return 4;
    if (type == "Int64" || type == "UInt64" || type == "Float64") return 8;
    return 0;
  }

  // Decodes one header+data block of base64 starting at `encoded` (VTK encodes the header and the
  // data either as one stream or as two, each padded; the '=' at the end of a separately encoded
  // header tells which). `where` is the offset of the block in the file for messages.
  std::string decode_block(std::string_view encoded, std::size_t where, const std::string& what) const {
    const std::size_t header_chars = base64_length(header_size);
    if (encoded.size() < header_chars) fail_at(where, what + ": base64 data is too short for its header");
    std::size_t bad = 0;
    const auto head = base64_decode(encoded.substr(0, header_chars), bad);
    if (!head) fail_at(where, what + ": bad base64 data at character " + std::to_string(bad));
    const std::uint64_t bytes = header_value(*head);
    const bool separate = encoded[header_chars - 1] == '=';
    const std::uint64_t chars = separate ? base64_length(bytes) : base64_length(header_size + bytes);
    const std::size_t start = separate ? header_chars : 0;
    if (bytes > encoded.size() || chars > encoded.size() - start) {
      fail_at(where, what + ": header says " + std::to_string(bytes) +
                         " bytes, but the base64 data holds at most " +
                         std::to_string((encoded.size() - start) / 4 * 3));
    }
    auto decoded = base64_decode(encoded.substr(start, chars), bad);
    if (!decoded) fail_at(where, what + ": bad base64 data at character " + std::to_string(start + bad));
    if (!separate) decoded->erase(0, header_size);
    if (decoded->size() < bytes) fail_at(where, what + ": base64 data is shorter than its header says");
    decoded->resize(bytes);
    return std::move(*decoded);
  }

  std::uint64_t header_value(std::string_view head) const {
    ByteCursor b(head, name, 0, big_endian);
    return header_size == 4 ? b.read<std::uint32_t>("header") : b.read<std::uint64_t>("header");
  }

  // Reads `count` numbers of array `a` into `out` (as double when `real_out`, else as integers).
  template <class T>
  void read_array(const ArrayRef& a, std::size_t count, std::vector<T>& out, const std::string& what) {
    const std::string type = attr(a.tag, "type");
    bool real = false, is_signed = false;
    const std::size_t size = scalar_size(type, real, is_signed);
    if (size == 0) fail_at(a.tag.begin, what + ": unsupported data type '" + type.substr(0, 30) + "'");
    if constexpr (!std::is_floating_point_v<T>) {
      if (real) fail_at(a.tag.begin, what + " must be integers, the file has " + type);
    }
    const std::string format = attr(a.tag, "format", "ascii");
    if (format == "ascii") {
      const std::size_t content = a.content_end - a.tag.end;
      if (count > content / 2 + 1) {
        fail_at(a.tag.begin, what + ": needs " + std::to_string(count) + " numbers, but its text has " +
                                 std::to_string(content) + " bytes");
      }
      TextCursor in(text.substr(0, a.content_end), name);
      in.seek(a.tag.end);
      out.resize(count);
      for (auto& v : out) {
        if constexpr (std::is_floating_point_v<T>) {
          v = in.real(what);
        } else {
          v = in.integer(what);
        }
      }
      if (!in.at_end()) {
        in.token(what);
        in.fail(what + ": more values than the " + std::to_string(count) + " expected");
      }
      return;
    }
    std::string bytes;
    std::size_t where = a.tag.begin;
    if (format == "binary") {
      std::string encoded;
      for (std::size_t i = a.tag.end; i < a.content_end; ++i) {
        if (!std::isspace(static_cast<unsigned char>(text[i]))) encoded += text[i];
      }
      bytes = decode_block(encoded, a.tag.begin, what);
    } else if (format == "appended") {
      if (appended == std::string_view::npos)
        fail_at(a.tag.begin, what + ": format=\"appended\" but there is no <AppendedData>");
      const long long offset = int_attr(a.tag, "offset", 0, static_cast<long long>(text.size()));
      const std::size_t at = appended + static_cast<std::size_t>(offset);
      if (at > text.size())
        fail_at(a.tag.begin, what + ": offset " + std::to_string(offset) + " is past the end of the file");
      where = at;
      if (appended_base64) {
        std::size_t end = text.find('<', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view block = text.substr(at, end - at);
        while (!block.empty() && std::isspace(static_cast<unsigned char>(block.back())))
          block.remove_suffix(1);
        bytes = decode_block(block, a.tag.begin, what);
      } else {
        ByteCursor b(text, name, at, big_endian);
        const std::uint64_t n = header_size == 4 ? b.read<std::uint32_t>("appended block header")
                                                 : b.read<std::uint64_t>("appended block header");
        b.check_count(n, 1, "bytes of " + what);
        bytes = std::string(text.substr(b.offset(), n));
        where = b.offset();
      }
    } else {
      fail_at(a.tag.begin, what + ": unknown format '" + format.substr(0, 30) + "'");
    }
    if (bytes.size() != count * size) {
      fail_at(a.tag.begin, what + ": holds " + std::to_string(bytes.size()) + " bytes, expected " +
                               std::to_string(count) + " values of " + type + " (" +
                               std::to_string(count * size) + " bytes)");
    }
    ByteCursor b(bytes, name, 0, big_endian);
    out.resize(count);
    for (auto& v : out) {
      double d = 0;
      long long i = 0;
      switch (size) {
        case 1:
          i = is_signed ? static_cast<long long>(b.read<std::int8_t>(what)) : b.read<std::uint8_t>(what);
          break;
        case 2:
          i = is_signed ? static_cast<long long>(b.read<std::int16_t>(what)) : b.read<std::uint16_t>(what);
          break;
        case 4:
          if (real)
            d = b.read<float>(what);
          else
            i = is_signed ? static_cast<long long>(b.read<std::int32_t>(what)) : b.read<std::uint32_t>(what);
          break;
        default:
          if (real)
            d = b.read<double>(what);
          else
            i = is_signed ? b.read<std::int64_t>(what) : static_cast<long long>(b.read<std::uint64_t>(what));
          break;
      }
      if constexpr (std::is_floating_point_v<T>) {
        v = real ? d : static_cast<double>(i);
        if (!std::isfinite(v)) fail_byte(where, what + " holds a NaN or infinite value");
      } else {
        v = i;
      }
    }
  }

  MeshFile run() {
    std::size_t pos = 0;
    Tag tag;
    // Sniff first: anything but markup (after an optional UTF-8 byte-order mark) is not XML at all.
    if (text.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;
    const std::size_t first = text.find_first_not_of(" \t\r\n", pos);
    if (first == std::string_view::npos || text[first] != '<')
      fail_at(0, "not a VTK XML file: it does not start with '<'");
    if (!next_tag(pos, tag) || tag.name != "VTKFile") fail_at(0, "not a VTK XML file: expected <VTKFile>");
    const std::string type = attr(tag, "type");
    if (type != "UnstructuredGrid")
      fail_at(tag.begin,
              "VTK XML type '" + type.substr(0, 30) + "' is not supported (only UnstructuredGrid)");
    if (tag.attrs.count("compressor") && !attr(tag, "compressor").empty()) {
      fail_at(tag.begin, "compressed VTU (" + attr(tag, "compressor").substr(0, 40) +
                             ") is not supported: write the file without compression");
    }
    const std::string order = attr(tag, "byte_order", "LittleEndian");
    if (order != "LittleEndian" && order != "BigEndian")
      fail_at(tag.begin, "unknown byte_order '" + order.substr(0, 30) + "'");
    big_endian = order == "BigEndian";
    const std::string header = attr(tag, "header_type", "UInt32");
    if (header == "UInt64") {
      header_size = 8;
    } else if (header != "UInt32") {
      fail_at(tag.begin, "unsupported header_type '" + header.substr(0, 30) + "' (UInt32 or UInt64)");
    }

    const std::size_t app = text.find("<AppendedData");
    if (app != std::string_view::npos) {
      xml_end = app;
      std::size_t p = app;
      Tag at;
      xml_end = text.size();
      if (!next_tag(p, at)) fail_at(app, "malformed <AppendedData>");
      xml_end = app;
      const std::string enc = attr(at, "encoding", "raw");
      if (enc != "raw" && enc != "base64")
        fail_at(app, "unknown AppendedData encoding '" + enc.substr(0, 30) + "'");
      appended_base64 = enc == "base64";
      const std::size_t underscore = text.find('_', at.end);
      if (underscore == std::string_view::npos) fail_at(app, "<AppendedData> has no '_' before its data");
      appended = underscore + 1;
    }

    // Walk the tree, remembering the DataArrays directly inside <Points> and <Cells>.
    std::vector<std::string> stack{"VTKFile"};
    Tag piece;
    int pieces = 0;
    std::vector<ArrayRef> points, cells;
    while (next_tag(pos, tag)) {
      if (tag.closing) {
        if (stack.empty() || stack.back() != tag.name) fail_at(tag.begin, "unexpected </" + tag.name + ">");
        stack.pop_back();
        continue;
      }
      if (tag.name == "Piece") {
        if (++pieces > 1) fail_at(tag.begin, "files with several <Piece> elements are not supported");
        piece = tag;
      }
      if (tag.name == "DataArray") {
        ArrayRef a{tag, tag.end};
        if (!tag.self_closing) {
          const std::size_t close = text.find("</DataArray", tag.end);
          if (close == std::string_view::npos || close >= xml_end)
            fail_at(tag.begin, "<DataArray> is not closed");
          a.content_end = close;
          pos = close;
        }
        const std::string parent = stack.empty() ? "" : stack.back();
        if (parent == "Points") points.push_back(a);
        if (parent == "Cells") cells.push_back(a);
      }
      if (!tag.self_closing) stack.push_back(tag.name);
    }
    if (pieces == 0) fail_at(0, "no <Piece> element");
    const auto n_points =
        static_cast<std::size_t>(int_attr(piece, "NumberOfPoints", 0, std::numeric_limits<Index>::max()));
    const auto n_cells =
        static_cast<std::size_t>(int_attr(piece, "NumberOfCells", 0, std::numeric_limits<Index>::max()));
    if (points.empty()) fail_at(piece.begin, "no <Points> DataArray");
    if (int_attr(points[0].tag, "NumberOfComponents", 1, 1000) != 3)
      fail_at(points[0].tag.begin, "points must have 3 components");

    std::string format = std::string("VTU ") + (attr(points[0].tag, "format", "ascii") == "appended"
                                                    ? (appended_base64 ? "appended base64" : "appended raw")
                                                    : attr(points[0].tag, "format", "ascii"));
    MeshBuilder builder(format);
    std::vector<double> coords;
    read_array(points[0], 3 * n_points, coords, "points");
    builder.reserve_nodes(n_points);
    for (std::size_t i = 0; i < n_points; ++i) {
      builder.add_node(static_cast<long long>(i), Vec3(coords[3 * i], coords[3 * i + 1], coords[3 * i + 2]));
    }
    if (n_cells == 0) return builder.finish();
    const ArrayRef* conn = nullptr;
    const ArrayRef* offs = nullptr;
    const ArrayRef* types = nullptr;
    for (const auto& a : cells) {
      const std::string n = attr(a.tag, "Name");
      if (n == "connectivity") conn = &a;
      if (n == "offsets") offs = &a;
      if (n == "types") types = &a;
    }
    if (!conn || !offs || !types)
      fail_at(piece.begin, "<Cells> needs DataArrays named connectivity, offsets and types");
    std::vector<long long> offsets, type_ids, connectivity;
    read_array(*offs, n_cells, offsets, "cell offsets");
    read_array(*types, n_cells, type_ids, "cell types");
    const long long total = offsets.back();
    if (total < 0 || total > static_cast<long long>(text.size())) {
      fail_at(offs->tag.begin, "last cell offset " + std::to_string(total) + " is impossible for this file");
    }
    read_array(*conn, static_cast<std::size_t>(total), connectivity, "cell connectivity");
    long long begin = 0;
    auto fail = [&](const std::string& m) { fail_at(conn->tag.begin, m); };
    for (std::size_t c = 0; c < n_cells; ++c) {
      const long long end = offsets[c];
      if (end < begin || end > total) {
        fail_at(offs->tag.begin, "cell " + std::to_string(c) + " has offset " + std::to_string(end) +
                                     " (offsets must be ascending and at most " + std::to_string(total) +
                                     ")");
      }
      add_vtk_cell(builder, type_ids[c], connectivity.data() + begin, end - begin, static_cast<long long>(c),
                   fail);
      begin = end;
    }
    return builder.finish();
  }
};

}  // namespace

MeshFile read_vtu(std::string_view bytes, const std::string& name) {
  Vtu vtu(bytes, name);
  return vtu.run();
}

}  // namespace pliant::io::detail
