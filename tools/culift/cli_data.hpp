// Data for `culift run` and `culift launch` from files: --args @FILE (JSON read from a file, "-"
// for stdin), {"npy": "x.npy"} for an array inside the JSON, and arrays written back as NumPy
// .npy files (culift launch --out-npy DIR). docs/cli.md describes both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "culift/ast/type.hpp"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace culift::cli {

// The JSON text of an --args value: the value itself, or with "@FILE" the file's contents
// ("@-": standard input). `baseDir` is where relative .npy paths inside it are found: FILE's
// directory, else the working directory (""). False with `why` when the file cannot be read.
bool readArgsText(const std::string& value, std::string& text, std::string& baseDir, std::string& why);

// An array read from a .npy file: its elements' bytes, as the kernel takes them, in the file's
// buffer (no copy: a launch copies them once, into the kernel's buffer).
struct NpyData {
  std::unique_ptr<llvm::MemoryBuffer> file;
  const std::byte* data = nullptr;  // count elements
  std::size_t bytes = 0;
  std::size_t count = 0;  // elements (the product of the shape)
  std::vector<std::uint64_t> shape;
};

// The .npy path of a JSON argument of the form {"npy": "x.npy"} (relative to `baseDir`), or ""
// when `j` is not such an object. An object of another form sets `why`.
std::string npyPath(const llvm::json::Value& j, const std::string& baseDir, std::string& why);

// Reads a NumPy .npy file (format 1.0 to 3.0, little-endian, C order) whose dtype must be
// `element`'s ('<f4' for float, '<i4' for int, '|b1' for bool, ...). False with `why`: the file
// cannot be read, is not .npy, has another dtype, is in Fortran order or big-endian, or holds
// fewer (truncated) or more bytes than its shape says.
bool readNpy(const std::string& path, Scalar element, NpyData& out, std::string& why);

// Writes `count` elements of `element` as a one-dimensional .npy file (format 1.0).
bool writeNpy(const std::string& path, Scalar element, const void* data, std::size_t count, std::string& why);

// "<f4", "<i8", "|b1", ...: the NumPy dtype of a scalar type.
std::string npyDtype(Scalar element);

}  // namespace culift::cli
