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

// The innermost step of the 32-bit wrapper for such a function: its kReadsFirstItems indices
// `<loopVar[inner]>_<u> = <first> + u * blockDim.x` below `innerExtent`, every read of each index
// behind its bounds test, then each index's statements on the values read, its return stored as
// `store(indices, value)` says. `argumentsAt(indices)` gives what the wrapper's call of the device
// function passes for each user parameter at those indices (the statements read them so).
using IndexNames = std::array<std::string, 3>;
using ArgumentsAt = std::function<std::vector<std::string>(const IndexNames& indices)>;
using StoreAt = std::function<std::string(const IndexNames& indices, const std::string& value)>;
void emitReadsFirstStep(const Module& module, const Function& fn, const std::vector<const Expr*>& reads,
                        const IndexNames& loopVar, unsigned inner, const std::string& first,
                        const std::string& innerExtent, const ArgumentsAt& argumentsAt, const StoreAt& store,
                        CodeWriter& out);

}  // namespace culift::codegen
