// A generated program launched over a whole extent (the GPU leg and the compiled CPU leg): the
// host bytes of every launch argument, built from the program's argument sets, and the
// interpreter's arguments over them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "culift/ast/module.hpp"
#include "culift/interpreter.hpp"
#include "program.hpp"

namespace culift::rel {

// Host bytes for every launch argument of `fn` (the signature without extents).
struct LaunchData {
  std::vector<const KernelParam*> params;
  std::vector<std::vector<std::uint8_t>> bytes;  // arrays: all elements; scalars: one value
  std::int64_t n[3] = {1, 1, 1};
  std::int64_t elements = 1;
  unsigned rank = 0;  // the program's index parameters (0: element-wise)
  interp::Extent extent() const;
};

// Signaling NaNs of `bytes` (elements of `t`) made quiet.
void quietNaNs(Scalar t, std::vector<std::uint8_t>& bytes);

// The launch of `fn` (program `spec`, translated) over kAxisExtent: an element-wise kernel's
// per-element scalars drawn from the argument sets in turn (starting at `set`), arrays and
// scalars from argument set `set`;
// `quiet`: every signaling NaN made quiet (the GPU leg: the host library and the GPU treat them
// differently where a function defines a number for a NaN argument).
LaunchData prepareLaunch(const Function& fn, const ProgramSpec& spec, bool quiet, std::size_t set = 0);

bool isArrayRole(ParamRole r);
// The interpreter's launch arguments, arrays pointing into `bytes` (a copy of LaunchData::bytes).
std::vector<interp::Arg> interpreterArgs(const LaunchData& d, std::vector<std::vector<std::uint8_t>>& bytes);

// The launch's scalar arguments and extent, as a finding names them ("s0=3 a=-0.5; extent 4x4x4"),
// so that it can be replayed natively.
std::string describeLaunch(const LaunchData& d);

}  // namespace culift::rel
