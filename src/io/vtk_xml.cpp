// The VTK XML container (vtk_xml.hpp): tags, attributes and DataArray decoding for .vtu and .vtp.
#include "io/vtk_xml.hpp"

#include "io/base64.hpp"
#include "io/readers.hpp"
#include "pliant/core/escape.hpp"

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace pliant::io::detail {
namespace {

// Deflate cannot shrink data by more than about 1032:1 (RFC 1951: a 258-byte match costs at least
// 2 bits), so a block that claims more is a lie; this bounds what a hostile file can make us allocate.
constexpr std::uint64_t kMaxInflateRatio = 1032;

std::size_t scalar_size(const std::string& type, bool& real, bool& is_signed) {
  real = type.rfind("Float", 0) == 0;
  is_signed = type.rfind("Int", 0) == 0 || real;
  if (type == "Int8" || type == "UInt8") return 1;
  if (type == "Int16" || type == "UInt16") return 2;
  if (type == "Int32" || type == "UInt32" || type == "Float32") return 4;
  if (type == "Int64" || type == "UInt64" || type == "Float64") return 8;
  return 0;
}

}  // namespace

VtkXmlFile::VtkXmlFile(std::string_view text, std::string name)
    : text_(text), name_(std::move(name)), xml_end_(text.size()) {
  std::size_t pos = 0;
  XmlTag tag;
  // Sniff first: anything but markup (after an optional UTF-8 byte-order mark) is not XML at all.
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;
  const std::size_t first = text_.find_first_not_of(" \t\r\n", pos);
  if (first == std::string_view::npos || text_[first] != '<')
    fail_at(0, "not a VTK XML file: it does not start with '<'");
  if (!next_tag(pos, tag) || tag.name != "VTKFile") fail_at(0, "not a VTK XML file: expected <VTKFile>");
  type_ = attr(tag, "type");
  if (type_ != "UnstructuredGrid" && type_ != "PolyData")
    fail_at(tag.begin, "VTK XML type '" + escape_for_message(type_, 30) +
                           "' is not supported (only UnstructuredGrid and PolyData)");
  const std::string compressor = attr(tag, "compressor");
  if (compressor == "vtkZLibDataCompressor") {
    zlib_ = true;
  } else if (!compressor.empty()) {
    fail_at(tag.begin, "compressor " + escape_for_message(compressor, 40) +
                           " is not supported (only vtkZLibDataCompressor): write the file with zlib or "
                           "without compression");
  }
  const std::string order = attr(tag, "byte_order", "LittleEndian");
  if (order != "LittleEndian" && order != "BigEndian")
    fail_at(tag.begin, "unknown byte_order " + quoted_for_message(order));
  big_endian_ = order == "BigEndian";
  const std::string header = attr(tag, "header_type", "UInt32");
  if (header == "UInt64") {
    header_size_ = 8;
  } else if (header != "UInt32") {
    fail_at(tag.begin, "unsupported header_type " + quoted_for_message(header) + " (UInt32 or UInt64)");
  }

  const std::size_t app = text_.find("<AppendedData");
  if (app != std::string_view::npos) {
    std::size_t p = app;
    XmlTag at;
    if (!next_tag(p, at)) fail_at(app, "malformed <AppendedData>");
    xml_end_ = app;
    const std::string enc = attr(at, "encoding", "raw");
    if (enc != "raw" && enc != "base64")
      fail_at(app, "unknown AppendedData encoding " + quoted_for_message(enc));
    appended_base64_ = enc == "base64";
    const std::size_t underscore = text_.find('_', at.end);
    if (underscore == std::string_view::npos) fail_at(app, "<AppendedData> has no '_' before its data");
    appended_ = underscore + 1;
  }

  // Walk the tree, remembering the DataArrays and the element each sits in.
  std::vector<std::string> stack{"VTKFile"};
  int pieces = 0;
  while (next_tag(pos, tag)) {
    if (tag.closing) {
      if (stack.empty() || stack.back() != tag.name) fail_at(tag.begin, "unexpected </" + tag.name + ">");
      stack.pop_back();
      continue;
    }
    if (tag.name == "Piece") {
      if (++pieces > 1) fail_at(tag.begin, "files with several <Piece> elements are not supported");
      piece_ = tag;
    }
    if (tag.name == "DataArray") {
      XmlArray a{tag, stack.empty() ? "" : stack.back(), tag.end};
      if (!tag.self_closing) {
        const std::size_t close = text_.find("</DataArray", tag.end);
        if (close == std::string_view::npos || close >= xml_end_)
          fail_at(tag.begin, "<DataArray> is not closed");
        // VTK may nest <InformationKey> elements after the data: the data ends at the first tag.
        a.content_end = std::min(close, text_.find('<', tag.end));
        pos = close;
      }
      arrays_.push_back(std::move(a));
    }
    if (!tag.self_closing) stack.push_back(tag.name);
  }
  if (pieces == 0) fail_at(0, "no <Piece> element");
}

std::size_t VtkXmlFile::line_of(std::size_t offset) const {
  std::size_t line = 1;
  for (std::size_t i = 0; i < offset && i < text_.size(); ++i) line += text_[i] == '\n';
  return line;
}

void VtkXmlFile::fail_at(std::size_t offset, const std::string& what) const {
  throw_failure(name_ + ":" + std::to_string(line_of(offset)) + ": " + what);
}

bool VtkXmlFile::next_tag(std::size_t& pos, XmlTag& tag) const {
  while (true) {
    const std::size_t lt = text_.find('<', pos);
    if (lt == std::string_view::npos || lt >= xml_end_) return false;
    if (text_.compare(lt, 4, "<!--") == 0) {
      const std::size_t e = text_.find("-->", lt);
      if (e == std::string_view::npos) fail_at(lt, "unterminated XML comment");
      pos = e + 3;
      continue;
    }
    if (text_.compare(lt, 2, "<?") == 0 || text_.compare(lt, 2, "<!") == 0) {
      const std::size_t e = text_.find('>', lt);
      if (e == std::string_view::npos) fail_at(lt, "unterminated XML declaration");
      pos = e + 1;
      continue;
    }
    tag = XmlTag{};
    tag.begin = lt;
    std::size_t i = lt + 1;
    if (i < text_.size() && text_[i] == '/') {
      tag.closing = true;
      ++i;
    }
    const auto is_name = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '-';
    };
    while (i < text_.size() && is_name(text_[i])) tag.name += text_[i++];
    if (tag.name.empty()) fail_at(lt, "malformed XML tag");
    while (true) {
      while (i < text_.size() && std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
      if (i >= text_.size()) fail_at(lt, "unterminated XML tag <" + tag.name + ">");
      if (text_[i] == '>') {
        ++i;
        break;
      }
      if (text_[i] == '/' && i + 1 < text_.size() && text_[i + 1] == '>') {
        tag.self_closing = true;
        i += 2;
        break;
      }
      std::string key;
      while (i < text_.size() && is_name(text_[i])) key += text_[i++];
      if (key.empty()) fail_at(i, "malformed attribute in <" + tag.name + ">");
      while (i < text_.size() && std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
      if (i >= text_.size() || text_[i] != '=')
        fail_at(i, "attribute " + key + " of <" + tag.name + "> has no value");
      ++i;
      while (i < text_.size() && std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
      if (i >= text_.size() || (text_[i] != '"' && text_[i] != '\''))
        fail_at(i, "attribute " + key + " is not quoted");
      const char quote = text_[i++];
      const std::size_t close = text_.find(quote, i);
      if (close == std::string_view::npos) fail_at(i, "unterminated attribute " + key);
      tag.attrs[key] = std::string(text_.substr(i, close - i));
      i = close + 1;
    }
    tag.end = i;
    pos = i;
    return true;
  }
}

std::string VtkXmlFile::attr(const XmlTag& t, const std::string& key, const std::string& fallback) {
  const auto it = t.attrs.find(key);
  return it == t.attrs.end() ? fallback : it->second;
}

long long VtkXmlFile::int_attr(const XmlTag& t, const std::string& key, long long lo, long long hi) const {
  const auto it = t.attrs.find(key);
  if (it == t.attrs.end()) fail_at(t.begin, "<" + t.name + "> has no " + key);
  long long v = 0;
  const std::string& s = it->second;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size())
    fail_at(t.begin, key + "=\"" + escape_for_message(s, 30) + "\" is not an integer");
  if (v < lo || v > hi)
    fail_at(t.begin,
            key + " " + s + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

const XmlArray* VtkXmlFile::array(const std::string& section, const std::string& name) const {
  for (const XmlArray& a : arrays_) {
    if (a.section == section && (name.empty() || attr(a.tag, "Name") == name)) return &a;
  }
  return nullptr;
}

std::string VtkXmlFile::encoding(const XmlArray& a) const {
  std::string format = attr(a.tag, "format", "ascii");
  if (format == "appended") format = appended_base64_ ? "appended base64" : "appended raw";
  if (zlib_ && format != "ascii") format += ", zlib";
  return format;
}

std::uint64_t VtkXmlFile::word(std::string_view bytes, std::size_t index) const {
  ByteCursor b(bytes, name_, index * header_size_, big_endian_);
  return header_size_ == 4 ? b.read<std::uint32_t>("header") : b.read<std::uint64_t>("header");
}

// VTK encodes a binary array's header and its data either as one base64 stream or as two, each
// padded; a '=' at the end of the separately encoded header tells which (when the header is a
// multiple of 3 bytes long both give the same characters). Returns the `body` bytes after `head`.
std::string VtkXmlFile::base64_payload(std::string_view encoded, std::size_t head, std::uint64_t body,
                                       std::size_t where, const std::string& what) const {
  const std::size_t head_chars = base64_length(head);
  const bool separate = head % 3 != 0 && encoded.size() >= head_chars && encoded[head_chars - 1] == '=';
  const std::size_t start = separate ? head_chars : 0;
  const std::uint64_t available = encoded.size() > start ? (encoded.size() - start) / 4 * 3 : 0;
  const std::uint64_t wanted = separate ? body : head + body;
  if (wanted > available) {
    fail_at(where, what + ": header says " + std::to_string(body) +
                       " bytes, but the base64 data holds at most " + std::to_string(available));
  }
  std::size_t bad = 0;
  const std::size_t chars = base64_length(static_cast<std::size_t>(wanted));
  auto decoded = base64_decode(encoded.substr(start, chars), bad);
  if (!decoded) fail_at(where, what + ": bad base64 data at character " + std::to_string(start + bad));
  if (!separate) decoded->erase(0, head);
  if (decoded->size() < body) fail_at(where, what + ": base64 data is shorter than its header says");
  decoded->resize(static_cast<std::size_t>(body));
  return std::move(*decoded);
}

// The header of an uncompressed array is one word, the byte count; of a compressed one, the block
// count, the uncompressed block size, the uncompressed size of the last block (0: a full block) and
// the compressed size of each block.
std::string VtkXmlFile::decode_base64(std::string_view encoded, std::size_t where, const std::string& what,
                                      std::uint64_t expected) const {
  const std::size_t words = zlib_ ? 3 : 1;
  std::size_t bad = 0;
  const std::size_t first_chars = base64_length(words * header_size_);
  if (encoded.size() < first_chars) fail_at(where, what + ": base64 data is too short for its header");
  const auto first = base64_decode(encoded.substr(0, first_chars), bad);
  if (!first) fail_at(where, what + ": bad base64 data at character " + std::to_string(bad));
  if (first->size() < words * header_size_)
    fail_at(where, what + ": base64 data is too short for its header");
  if (!zlib_) return base64_payload(encoded, header_size_, word(*first, 0), where, what);
  const std::uint64_t blocks = word(*first, 0);
  if (blocks > encoded.size() / header_size_)
    fail_at(where, what + ": header declares " + std::to_string(blocks) +
                       " compressed blocks, more than the " + std::to_string(encoded.size()) +
                       " characters of base64 data could hold");
  const std::size_t head = static_cast<std::size_t>(3 + blocks) * header_size_;
  const std::size_t head_chars = base64_length(head);
  if (encoded.size() < head_chars) fail_at(where, what + ": base64 data is too short for its header");
  auto header = base64_decode(encoded.substr(0, head_chars), bad);
  if (!header) fail_at(where, what + ": bad base64 data at character " + std::to_string(bad));
  if (header->size() < head) fail_at(where, what + ": base64 data is too short for its header");
  header->resize(head);
  std::uint64_t compressed = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::uint64_t size = word(*header, 3 + b);
    if (size > encoded.size())
      fail_at(where, what + ": compressed block " + std::to_string(b) + " of " + std::to_string(size) +
                         " bytes is longer than the base64 data");
    compressed += size;
  }
  const std::string data = base64_payload(encoded, head, compressed, where, what);
  return inflate(*header, data, where, what, expected);
}

std::string VtkXmlFile::decode_raw(std::size_t at, const std::string& what, std::uint64_t expected) const {
  ByteCursor b(text_, name_, at, big_endian_);
  const auto next = [&] {
    return header_size_ == 4 ? std::uint64_t{b.read<std::uint32_t>("appended block header")}
                             : b.read<std::uint64_t>("appended block header");
  };
  if (!zlib_) {
    const std::uint64_t n = next();
    b.check_count(n, 1, "bytes of " + what);
    return std::string(text_.substr(b.offset(), static_cast<std::size_t>(n)));
  }
  const std::size_t start = b.offset();
  const std::uint64_t blocks = next();
  b.check_count(blocks, header_size_, "compressed blocks of " + what);
  b.skip(2 * header_size_, "appended block header");
  for (std::uint64_t k = 0; k < blocks; ++k) next();
  const std::string_view header = text_.substr(start, b.offset() - start);
  // inflate checks each block's compressed size against what follows.
  return inflate(header, text_.substr(b.offset()), at, what, expected);
}

std::string VtkXmlFile::inflate(std::string_view header, std::string_view data, std::size_t where,
                                const std::string& what, std::uint64_t expected) const {
  const std::uint64_t blocks = word(header, 0), block_size = word(header, 1), last = word(header, 2);
  // Everything is checked against the size the caller expects before anything is allocated.
  std::uint64_t total = 0;
  std::uint64_t packed_total = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t size = b + 1 == blocks && last != 0 ? last : block_size;
    const std::uint64_t packed = word(header, 3 + b);
    if (packed > data.size() - packed_total)
      fail_at(where, what + ": zlib block " + std::to_string(b) + " of " + std::to_string(packed) +
                         " bytes runs past the end of the data (truncated)");
    packed_total += packed;
    if (size > packed * kMaxInflateRatio + 64)
      fail_at(where, what + ": zlib block " + std::to_string(b) + " claims " + std::to_string(size) +
                         " bytes from " + std::to_string(packed) +
                         " compressed bytes, more than zlib can expand");
    total += size;
    if (total > expected) break;
  }
  if (total != expected)
    fail_at(where, what + ": zlib header says " + (total > expected ? "more than " : "") +
                       std::to_string(total) + " bytes, expected " + std::to_string(expected));
  std::string out(static_cast<std::size_t>(expected), '\0');
  std::size_t in_at = 0, out_at = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t size = b + 1 == blocks && last != 0 ? last : block_size;
    const std::uint64_t packed = word(header, 3 + b);
    uLongf got = static_cast<uLongf>(size);
    const int rc =
        uncompress(reinterpret_cast<Bytef*>(out.data() + out_at), &got,
                   reinterpret_cast<const Bytef*>(data.data() + in_at), static_cast<uLong>(packed));
    if (rc != Z_OK || got != size) {
      const std::string why =
          rc == Z_DATA_ERROR ? "damaged data"
          : rc == Z_BUF_ERROR
              ? (got == size ? "more data than its header says" : "truncated or shorter than its header says")
          : rc == Z_OK ? std::to_string(got) + " bytes instead of " + std::to_string(size)
                       : "zlib error " + std::to_string(rc);
      fail_at(where, what + ": zlib block " + std::to_string(b) + " cannot be decompressed: " + why);
    }
    in_at += static_cast<std::size_t>(packed);
    out_at += static_cast<std::size_t>(size);
  }
  return out;
}

std::string VtkXmlFile::binary_bytes(const XmlArray& a, const std::string& what,
                                     std::uint64_t expected) const {
  const std::string format = attr(a.tag, "format", "ascii");
  if (format == "binary") {
    std::string encoded;
    for (std::size_t i = a.tag.end; i < a.content_end; ++i) {
      if (!std::isspace(static_cast<unsigned char>(text_[i]))) encoded += text_[i];
    }
    return decode_base64(encoded, a.tag.begin, what, expected);
  }
  if (format != "appended") fail_at(a.tag.begin, what + ": unknown format " + quoted_for_message(format));
  if (appended_ == std::string_view::npos)
    fail_at(a.tag.begin, what + ": format=\"appended\" but there is no <AppendedData>");
  const long long offset = int_attr(a.tag, "offset", 0, static_cast<long long>(text_.size()));
  const std::size_t at = appended_ + static_cast<std::size_t>(offset);
  if (at > text_.size())
    fail_at(a.tag.begin, what + ": offset " + std::to_string(offset) + " is past the end of the file");
  if (!appended_base64_) return decode_raw(at, what, expected);
  std::size_t end = text_.find('<', at);
  if (end == std::string_view::npos) end = text_.size();
  std::string_view block = text_.substr(at, end - at);
  while (!block.empty() && std::isspace(static_cast<unsigned char>(block.back()))) block.remove_suffix(1);
  return decode_base64(block, a.tag.begin, what, expected);
}

template <class T>
void VtkXmlFile::read_numbers(const XmlArray& a, std::size_t count, std::vector<T>& out,
                              const std::string& what) const {
  const std::string type = attr(a.tag, "type");
  bool real = false, is_signed = false;
  const std::size_t size = scalar_size(type, real, is_signed);
  if (size == 0) fail_at(a.tag.begin, what + ": unsupported data type " + quoted_for_message(type));
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
    TextCursor in(text_.substr(0, a.content_end), name_);
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
  const std::uint64_t expected = static_cast<std::uint64_t>(count) * size;
  const std::string bytes = binary_bytes(a, what, expected);
  if (bytes.size() != expected) {
    fail_at(a.tag.begin, what + ": holds " + std::to_string(bytes.size()) + " bytes, expected " +
                             std::to_string(count) + " values of " + type + " (" + std::to_string(expected) +
                             " bytes)");
  }
  ByteCursor b(bytes, name_, 0, big_endian_);
  out.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
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
      out[k] = real ? d : static_cast<double>(i);
      if (!std::isfinite(out[k]))
        fail_at(a.tag.begin, what + ": value " + std::to_string(k) + " of the DataArray is NaN or infinite");
    } else {
      out[k] = i;
    }
  }
}

void VtkXmlFile::read_reals(const XmlArray& a, std::size_t count, std::vector<double>& out,
                            const std::string& what) const {
  read_numbers(a, count, out, what);
}

void VtkXmlFile::read_ints(const XmlArray& a, std::size_t count, std::vector<long long>& out,
                           const std::string& what) const {
  read_numbers(a, count, out, what);
}

MeshFile read_vtk_xml(std::string_view bytes, const std::string& name) {
  const VtkXmlFile file(bytes, name);
  return file.type() == "PolyData" ? read_xml_polydata(file) : read_xml_grid(file);
}

}  // namespace pliant::io::detail
