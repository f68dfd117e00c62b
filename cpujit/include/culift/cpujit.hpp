// The compiled CPU backend's code generator: a kernel's typed AST lowered to LLVM IR (no Clang),
// optimized at -O2 without fast-math or contraction, and compiled by LLVM's ORC JIT for the host.
// A compiled kernel computes the interpreter's results bit for bit (docs/runtime.md); a construct
// it does not lower leaves the kernel out, with the reason, and the interpreter runs it instead.
//
// This header includes nothing of LLVM: a host app links culift_cpujit without LLVM's headers.
//
//   auto program = culift::cpujit::Program::compile(module);
//   if (const auto* k = program->kernel(*module->find("GramDot"))) k->run(args, 0, rows * cols);
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "culift/ast/module.hpp"

namespace culift::cpujit {

// Deliberate bugs, for the tests of the differential tester's compiled leg only (a test must show
// the leg finds each). Every real use leaves Options::plantedBug at None.
enum class PlantedBug : unsigned {
  None = 0,
  SignedShiftRightLogical,    // >> on a signed value shifts in zeros (lshr, not ashr)
  NaNLessThanTrue,            // floating a < b is true when either is NaN (an unordered compare)
  UnsignedNarrowSignExtends,  // unsigned char / short widened to a wider type sign-extends
};
inline constexpr unsigned kPlantedBugs = 3;

struct Options {
  // Checked code: an array index out of range, an integer division (or remainder) by zero or
  // overflowing, and a shift count out of range stop the launch with a located error, as the
  // interpreter reports them. Unchecked code (the default) gives the GPU's behaviour for those:
  // no crash, a result C++ does not define. assert()s are checked in both.
  bool checked = false;
  // Neighbouring outputs of a row computed side by side, each in its own order (so with the same
  // bits): their loops run in lock step and their independent chains overlap in the CPU. A
  // kernel that writes memory other than its locals, or whose control flow differs between
  // neighbouring outputs, runs one output at a time (Kernel::lanes says which). 1: always one.
  unsigned lanes = 8;
  PlantedBug plantedBug = PlantedBug::None;  // tests of the differential tester only
};

// The arguments of one launch, one entry per parameter of the kernel signature (extents
// included), in its order: an array's first element, or the address of a scalar's value stored
// in the parameter's own type. `lengths` holds each array's element count (checked code reads
// it; 0 for scalars).
struct LaunchArgs {
  std::vector<const void*> params;
  std::vector<std::uint64_t> lengths;
  std::int64_t extent[3] = {1, 1, 1};  // per axis; element-wise kernels use extent[0]
  std::uint64_t outputs() const;       // the product over the kernel's rank
};

// The first failing output of a range: its index in C order and the error, with the source
// location of the failing operation.
struct RunError {
  std::uint64_t output = 0;
  Diagnostic diagnostic;
};

class Kernel {
 public:
  // Computes outputs [first, last) of a launch (C order: (i, j) is i * nj + j), each exactly as
  // the interpreter's launch does. Thread-safe: launches split one range over threads. A
  // reassociating kernel (Function::reassociatedSums) adds in its plan's order unless
  // `loopAsWritten`. Returns the first failing output's error, if any.
  std::optional<RunError> run(const LaunchArgs& args, std::uint64_t first, std::uint64_t last,
                              bool loopAsWritten = false) const;
  bool reassociates() const { return reassociated_ != nullptr; }
  // Outputs the as-written code computes side by side (Options::lanes), 1 when one at a time;
  // then whyOneLane() says why ("line 4: a condition that differs between neighbouring outputs").
  unsigned lanes() const { return lanes_; }
  const std::string& whyOneLane() const { return whyOneLane_; }
  const Function& function() const { return *fn_; }

  using Entry = std::uint64_t (*)(const void* const* params, const std::uint64_t* lengths, const std::int64_t* extent,
                                  std::uint64_t first, std::uint64_t last, std::uint32_t* site);
  Kernel(const Function* fn, Entry asWritten, Entry reassociated, std::vector<Diagnostic> sites, unsigned lanes = 1,
         std::string whyOneLane = {});
  // A 2-D kernel's tile entry: Entry's signature with (row, column) for (first, last); computes
  // outputs (row + r, column + c), r < rows, c < columns; returns 0, or 1 when one failed.
  void setTile(Entry tile, unsigned rows, unsigned columns) {
    tile_ = tile;
    tileRows_ = rows;
    tileColumns_ = columns;
  }
  bool tiled() const { return tile_ != nullptr; }
  unsigned tileRows() const { return tileRows_; }
  unsigned tileColumns() const { return tileColumns_; }

 private:
  bool runBlocked(const LaunchArgs& args, std::uint64_t first, std::uint64_t last) const;

  const Function* fn_;
  Entry asWritten_;
  Entry reassociated_;
  std::vector<Diagnostic> sites_;  // per failure site of the code (site 0 is unused)
  unsigned lanes_;
  std::string whyOneLane_;
  Entry tile_ = nullptr;
  unsigned tileRows_ = 1;
  unsigned tileColumns_ = 1;
};

class Program {
 public:
  // Lowers and compiles every kernel of `module` that can be lowered. Throws std::runtime_error
  // only when the host has no usable JIT (available() says why).
  static std::shared_ptr<const Program> compile(std::shared_ptr<const Module> module, Options options = {});

  const Module& module() const;
  // The compiled kernel of `fn` (a kernel of this program's module), or null when it was not
  // lowered; whyNot() then says why ("line 4: atomic min of a float is not lowered yet").
  const Kernel* kernel(const Function& fn) const;
  std::string whyNot(const Function& fn) const;
  double compileMilliseconds() const;  // lowering, optimization and machine code, all kernels
  const Options& options() const;

  ~Program();
  struct Impl;

 private:
  explicit Program(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Whether this process can JIT for its host, and if not why ("no LLVM target for x86_64-...").
bool available(std::string* whyNot = nullptr);
// The host the code is compiled for: "x86_64-pc-linux-gnu, CPU znver3".
std::string hostDescription();

}  // namespace culift::cpujit
