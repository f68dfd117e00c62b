// Module files: a translated Module saved as bytes and loaded back without Clang, so a host app
// can ship kernels translated ahead of time (`culift emit --module`, culift_add_kernels).
// docs/module-files.md describes the format; a file of another format version is refused with
// a message that says so, never read as something else.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "culift/ast/module.hpp"

namespace culift {

// The format version this culift writes and the only one it reads. Any change to what a module
// file holds (a field of the AST, of a Function or of a plan entry; an enumerator's meaning)
// changes the bytes, so it bumps this number.
inline constexpr std::uint32_t kModuleFileVersion = 12;

// Why a module file could not be read or written: the file (or "<memory>") and what is wrong
// with it ("truncated", "corrupt", "format version 7, this culift reads version 1", ...).
class ModuleFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The module file's bytes. The same module always gives the same bytes, so
// saveModule(*loadModule(saveModule(m))) == saveModule(m).
std::string saveModule(const Module& module);
// Writes saveModule(module) to `path`; throws ModuleFileError when the file cannot be written.
void saveModuleFile(const Module& module, const std::string& path);

// Loads a module from a module file's bytes; `name` names them in errors. Throws
// ModuleFileError when the bytes are not a module file this culift reads: truncated, corrupt
// (the content's checksum does not match), another format version, or content that does not
// form a module (an index out of range, a node without its operands).
// With ImageBytes::Borrow the module's device images point into `bytes` instead of holding a
// copy (DeviceImage::borrowed): for bytes that outlive the module, as a module file built into
// the program does (culift embed).
enum class ImageBytes { Copy, Borrow };
std::shared_ptr<Module> loadModule(std::string_view bytes, std::string_view name = "<memory>",
                                   ImageBytes images = ImageBytes::Copy);
// Loads the module file at `path` (ModuleFileError also when it cannot be read).
std::shared_ptr<Module> loadModuleFile(const std::string& path);

// Whether `bytes` start as a module file does (any format version).
bool isModuleFile(std::string_view bytes);

}  // namespace culift
