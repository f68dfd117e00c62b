#include "cli_data.hpp"

#include <cstring>

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace culift::cli {
namespace {

constexpr char kNpyMagic[] = "\x93NUMPY";  // 6 bytes, then major and minor version

// The value of `'key': ` in a .npy header's Python dict literal, up to the next top-level
// comma (or the closing parenthesis of a tuple).
std::string dictValue(llvm::StringRef header, llvm::StringRef key) {
  for (const char quote : {'\'', '"'}) {
    const std::string pattern = std::string(1, quote) + key.str() + std::string(1, quote);
    std::size_t at = header.find(pattern);
    if (at == llvm::StringRef::npos) continue;
    llvm::StringRef rest = header.substr(at + pattern.size()).ltrim();
    if (!rest.consume_front(":")) return {};
    rest = rest.ltrim();
    if (rest.startswith("(")) return rest.substr(0, rest.find(')') + 1).str();
    return rest.substr(0, rest.find_first_of(",}")).rtrim().str();
  }
  return {};
}

}  // namespace

std::string npyDtype(Scalar element) {
  switch (element) {
    case Scalar::Bool: return "|b1";
    case Scalar::I8: return "|i1";
    case Scalar::U8: return "|u1";
    case Scalar::I16: return "<i2";
    case Scalar::U16: return "<u2";
    case Scalar::I32: return "<i4";
    case Scalar::U32: return "<u4";
    case Scalar::I64: return "<i8";
    case Scalar::U64: return "<u8";
    case Scalar::F32: return "<f4";
    case Scalar::F64: return "<f8";
    case Scalar::Void: break;
  }
  return "";
}

bool readArgsText(const std::string& value, std::string& text, std::string& baseDir, std::string& why) {
  baseDir.clear();
  if (value.empty() || value[0] != '@') {
    text = value;
    return true;
  }
  const std::string path = value.substr(1);
  auto buffer = path == "-" ? llvm::MemoryBuffer::getSTDIN() : llvm::MemoryBuffer::getFile(path, false, false);
  if (!buffer) {
    why = "cannot read the arguments from '" + (path == "-" ? std::string("standard input") : path) +
          "': " + buffer.getError().message();
    return false;
  }
  text = (*buffer)->getBuffer().str();
  if (path != "-") baseDir = llvm::sys::path::parent_path(path).str();
  return true;
}

std::string npyPath(const llvm::json::Value& j, const std::string& baseDir, std::string& why) {
  const llvm::json::Object* o = j.getAsObject();
  if (!o) return {};
  const llvm::json::Value* file = o->get("npy");
  if (!file || !file->getAsString() || o->size() != 1) {
    why = "an array given as an object must be {\"npy\": \"FILE.npy\"}";
    return {};
  }
  const std::string path = file->getAsString()->str();
  if (path.empty()) {
    why = "{\"npy\": \"\"} names no file";
    return {};
  }
  if (baseDir.empty() || llvm::sys::path::is_absolute(path)) return path;
  llvm::SmallString<256> joined(baseDir);
  llvm::sys::path::append(joined, path);
  return std::string(joined.str());
}

bool readNpy(const std::string& path, Scalar element, NpyData& out, std::string& why) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) {
    why = path + ": cannot read: " + buffer.getError().message();
    return false;
  }
  const llvm::StringRef file = (*buffer)->getBuffer();
  if (file.size() < 10 || !file.startswith(llvm::StringRef(kNpyMagic, 6))) {
    why = path + ": not a NumPy .npy file (no \\x93NUMPY signature)";
    return false;
  }
  const unsigned major = static_cast<unsigned char>(file[6]);
  std::size_t headerLength = 0, headerStart = 0;
  if (major == 1) {
    headerLength = llvm::support::endian::read16le(file.data() + 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (file.size() < 12) {
      why = path + ": truncated inside the .npy header";
      return false;
    }
    headerLength = llvm::support::endian::read32le(file.data() + 8);
    headerStart = 12;
  } else {
    why = path + ": .npy format version " + std::to_string(major) + " (culift reads 1.0 to 3.0)";
    return false;
  }
  if (file.size() < headerStart + headerLength) {
    why = path + ": truncated inside the .npy header";
    return false;
  }
  const llvm::StringRef header = file.substr(headerStart, headerLength);
  const std::string descr = dictValue(header, "descr"), fortran = dictValue(header, "fortran_order"),
                    shape = dictValue(header, "shape");
  if (descr.size() < 2 || fortran.empty() || shape.empty()) {
    why = path + ": the .npy header has no descr, fortran_order or shape";
    return false;
  }
  std::string dtype = descr.substr(1, descr.size() - 2);  // without the quotes
  // '=' is the host's order (culift runs on little-endian hosts); one-byte types have none ('|').
  if (dtype.size() == 3 && dtype[0] == '=') dtype[0] = '<';
  if (dtype.size() == 3 && dtype[2] == '1') dtype[0] = '|';
  if (dtype.size() == 3 && dtype[0] == '>') {
    why = path + ": big-endian data (" + dtype + "); culift reads little-endian .npy files (NumPy: x.astype('" +
          npyDtype(element) + "'))";
    return false;
  }
  if (dtype != npyDtype(element)) {
    why = path + ": dtype " + dtype + ", but the parameter is " + std::string(spelling(element)) + " (dtype " +
          npyDtype(element) + ")";
    return false;
  }
  if (fortran != "False") {
    why = path + ": Fortran order; culift reads C order (NumPy: np.ascontiguousarray)";
    return false;
  }
  out.shape.clear();
  out.count = 1;
  llvm::StringRef dims = llvm::StringRef(shape).trim("() ");
  while (!dims.empty()) {
    auto [dim, rest] = dims.split(',');
    dim = dim.trim();
    dims = rest.trim();
    if (dim.empty()) continue;
    std::uint64_t n = 0;
    if (dim.getAsInteger(10, n)) {
      why = path + ": the .npy shape " + shape + " is not a tuple of integers";
      return false;
    }
    if (n != 0 && out.count > ~std::uint64_t{0} / n / 16) {
      why = path + ": the .npy shape " + shape + " is too large";
      return false;
    }
    out.shape.push_back(n);
    out.count *= n;
  }
  const std::size_t expected = out.count * byteSize(element);
  const std::size_t available = file.size() - headerStart - headerLength;
  if (available < expected) {
    why = path + ": truncated: the shape " + shape + " needs " + std::to_string(expected) +
          " bytes of data, the file has " + std::to_string(available);
    return false;
  }
  if (available > expected) {
    why = path + ": " + std::to_string(available - expected) + " bytes more than the shape " + shape + " holds";
    return false;
  }
  out.data = reinterpret_cast<const std::byte*>(file.data() + headerStart + headerLength);
  out.bytes = expected;
  out.file = std::move(*buffer);
  return true;
}

bool writeNpy(const std::string& path, Scalar element, const void* data, std::size_t count, std::string& why) {
  std::string header = "{'descr': '" + npyDtype(element) + "', 'fortran_order': False, 'shape': (" +
                       std::to_string(count) + ",), }";
  // Magic, version, length, header and newline padded so the data starts at a multiple of 64.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (!ec) {
    os.write(kNpyMagic, 6);
    os << '\x01' << '\x00';
    const std::uint16_t length = static_cast<std::uint16_t>(header.size());
    os << static_cast<char>(length & 0xff) << static_cast<char>(length >> 8);
    os << header;
    os.write(static_cast<const char*>(data), count * byteSize(element));
    os.close();
    ec = os.error();
  }
  if (ec) why = path + ": cannot write: " + ec.message();
  return !ec;
}

}  // namespace culift::cli
