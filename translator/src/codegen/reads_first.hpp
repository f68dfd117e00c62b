// The per-thread wrapper's reads in flight: a loop-free kernel whose body is declarations and one
// return (layer norm's normalize step, softmax's, an RMS norm's) is run with its array reads of
// several outputs issued before any of their arithmetic. Called once per output, the device
// function's division or square root branches to its slow path before the next output's load, so
// a thread had one load in flight (an H200 moved 2.2-2.7 TB/s through such kernels, 3.2-3.8 with
// eight outputs' reads first). The same operations on the same values: the same bits.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "code_writer.hpp"
#include "culift/ast/module.hpp"

namespace culift::codegen {

// Outputs a thread of a reads-first wrapper takes per step (blockDim.x apart along the last axis).
inline constexpr unsigned kReadsFirstItems = 8;

// The reads a wrapper may issue first, in the order the function evaluates them: the array reads
// every call performs (not under ?:, && or ||) whose index is made of parameters and literals
// alone; nothing when the function does not qualify (`why` says why): a 1-, 2- or 3-D kernel
// returning a scalar whose body holds only scalar declarations with initializers and a final
// return, whose expressions write nothing and call no lifted function, with at least one such
// read and at most kReadsFirstNodes expression nodes (eight copies of the body are emitted).
std::optional<std::vector<const Expr*>> readsIssuedFirst(const Function& fn, std::string* why = nullptr);
inline constexpr unsigned kReadsFirstNodes = 160;

// The same for statements `stmts` of fn (declarations with initializers and a final return: the
// statements after a loop), the kernel's own checks aside.
std::optional<std::vector<const Expr*>> readsIssuedFirstIn(const Function& fn, const std::vector<const Stmt*>& stmts,
                                                           std::string* why = nullptr);

// One step of kReadsFirstItems indices `<loopVar[inner]>_<u> = <first> + u * <stride>` below
// `innerExtent`: every read of each index behind its bounds test (a read whose index does not
// involve the parameter `stepped` once, by index 0, which the caller's loop keeps in range), then
// each index's statements on the values read, its return stored as `store(indices, value)` says.
// `argumentsAt(indices)` gives what each user parameter stands for at those indices (the per-thread
// wrapper's call of the device function passes it so).
using IndexNames = std::array<std::string, 3>;
using ArgumentsAt = std::function<std::vector<std::string>(const IndexNames& indices)>;
using StoreAt = std::function<std::string(const IndexNames& indices, const std::string& value)>;
struct ReadsFirstStep {
  const std::vector<const Expr*>* reads = nullptr;  // readsIssuedFirst's, or readsIssuedFirstIn's for stmts
  std::vector<const Stmt*> stmts;                   // what each index runs
  VarId stepped = kNone;                            // the parameter the step's indices stand for
  IndexNames loopVar;
  unsigned inner = 0;
  std::string first, innerExtent;
  std::string stride = "(int)blockDim.x";
  ArgumentsAt argumentsAt;
  StoreAt store;
  // Where set, the text of read `read` at `indices` given its text from memory (a stash instead).
  std::function<std::string(const Expr* read, const IndexNames& indices, const std::string& memory)> readAt;
};
// The per-thread wrapper's innermost step for such a function (its 32-bit entry), or a plan entry's
// step over the indices of one axis.
void emitReadsFirstStep(const Module& module, const Function& fn, const ReadsFirstStep& step, CodeWriter& out);

}  // namespace culift::codegen
