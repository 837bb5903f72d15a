// Private: the VTK XML container shared by the .vtu (UnstructuredGrid) and .vtp (PolyData) readers:
// the tag tree up to <AppendedData>, and the decoding of a DataArray in every encoding VTK writes
// (ascii; binary = base64 inline; appended, raw or base64; each binary form uncompressed or
// compressed with vtkZLibDataCompressor), header_type UInt32 or UInt64, either byte order.
// Layout as in "VTK File Formats" (VTK User's Guide, section "XML File Formats").
//
// This is not a general XML parser: it reads the tags of the VTKFile/<dataset>/Piece tree up to
// <AppendedData>, whose raw payload may contain any byte and is addressed by offsets only.
#pragma once

#include "io/parse.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::io::detail {

struct XmlTag {
  std::string name;  // without '/', e.g. "DataArray"
  std::map<std::string, std::string> attrs;
  bool closing = false;
  bool self_closing = false;
  std::size_t begin = 0;  // offset of '<'
  std::size_t end = 0;    // offset after '>'
};

struct XmlArray {
  XmlTag tag;
  std::string section;          // the element it sits directly in: "Points", "Cells", "Polys", ...
  std::size_t content_end = 0;  // offset of the matching "</DataArray" (tag.end when self-closing)
};

/// One VTK XML file, parsed on construction (throws ParseFailure).
class VtkXmlFile {
 public:
  VtkXmlFile(std::string_view text, std::string name);

  /// The VTKFile type attribute: "UnstructuredGrid" or "PolyData" (others are rejected).
  const std::string& type() const { return type_; }
  /// The one <Piece> element.
  const XmlTag& piece() const { return piece_; }
  /// The DataArray named `name` directly inside `section` of the piece, or the first unnamed-or-not
  /// array there when `name` is empty; nullptr when there is none.
  const XmlArray* array(const std::string& section, const std::string& name = "") const;
  /// How the file stores its data ("ascii", "binary", "appended raw", ... plus ", zlib").
  std::string encoding(const XmlArray& a) const;

  static std::string attr(const XmlTag& t, const std::string& key, const std::string& fallback = "");
  /// Integer attribute in [lo, hi]; a missing or bad one is an error naming the tag's line.
  long long int_attr(const XmlTag& t, const std::string& key, long long lo, long long hi) const;

  /// Reads `count` numbers of array `a` (finite reals; NaN or infinity is an error naming the array).
  void read_reals(const XmlArray& a, std::size_t count, std::vector<double>& out,
                  const std::string& what) const;
  /// Reads `count` integers of array `a` (integer types only).
  void read_ints(const XmlArray& a, std::size_t count, std::vector<long long>& out,
                 const std::string& what) const;

  [[noreturn]] void fail_at(std::size_t offset, const std::string& what) const;
  const std::string& name() const { return name_; }

 private:
  bool next_tag(std::size_t& pos, XmlTag& tag) const;
  std::size_t line_of(std::size_t offset) const;
  std::uint64_t word(std::string_view bytes, std::size_t index) const;
  std::string base64_payload(std::string_view encoded, std::size_t head, std::uint64_t body,
                             std::size_t where, const std::string& what) const;
  std::string decode_base64(std::string_view encoded, std::size_t where, const std::string& what,
                            std::uint64_t expected) const;
  std::string decode_raw(std::size_t at, const std::string& what, std::uint64_t expected) const;
  std::string inflate(std::string_view header, std::string_view data, std::size_t where,
                      const std::string& what, std::uint64_t expected) const;
  std::string binary_bytes(const XmlArray& a, const std::string& what, std::uint64_t expected) const;
  template <class T>
  void read_numbers(const XmlArray& a, std::size_t count, std::vector<T>& out, const std::string& what) const;

  std::string_view text_;
  std::string name_;
  std::string type_;
  std::size_t xml_end_;                            // start of <AppendedData ...> or end of text
  std::size_t appended_ = std::string_view::npos;  // first byte after '_'
  bool appended_base64_ = false;
  bool big_endian_ = false;
  bool zlib_ = false;
  std::size_t header_size_ = 4;
  XmlTag piece_;
  std::vector<XmlArray> arrays_;
};

/// Reads the `count` points of the piece into `builder` (node ids 0..count-1).
void read_xml_points(const VtkXmlFile& file, std::size_t count, MeshBuilder& builder);
/// Reads the `count` offsets of `section` ("Cells", "Polys", ...) and the connectivity they index,
/// checking that the offsets ascend.
void read_xml_cells(const VtkXmlFile& file, const std::string& section, std::size_t count,
                    std::vector<long long>& offsets, std::vector<long long>& connectivity);

/// Reads the dataset of an opened file (UnstructuredGrid or PolyData, by its type attribute).
MeshFile read_xml_grid(const VtkXmlFile& file);
MeshFile read_xml_polydata(const VtkXmlFile& file);

}  // namespace pliant::io::detail
