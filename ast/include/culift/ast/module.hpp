// Lifted functions, their classification (index mode) and kernel signatures, and the module
// that holds them together with the emitted CUDA source. No Clang dependency: a host app can
// load and run pre-translated kernels with only this, the interpreter and the runtime.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "culift/ast/nodes.hpp"

namespace culift {

enum class IndexMode : std::uint8_t {
  Grid1D,       // one index parameter i: i = blockIdx.x * blockDim.x + threadIdx.x
  Grid2D,       // i (rows, on y) and j (columns, on x)
  Grid3D,       // i (y), j (x), k (z)
  ElementWise,  // all-scalar parameters and a return value: each scalar becomes an array
  DeviceOnly,   // callable from other lifted functions only
};
std::string_view name(IndexMode m);  // "Grid1D", ..., "ElementWise", "DeviceOnly"
unsigned rank(IndexMode m);          // 1, 2, 3 for grids; 1 for ElementWise; 0 for DeviceOnly

// The role a parameter of the emitted __global__ kernel plays.
enum class ParamRole : std::uint8_t {
  InputArray,    // const T* of the user's function: read only
  OutputArray,   // T* of the user's function: written (and possibly read)
  Scalar,        // a user scalar passed by value, the same for every thread
  ElementInput,  // ElementWise: a user scalar parameter, now a const T* read at the element index
  Out,           // the implicit result array (functions returning a value)
  Extent,        // the implicit index-space extent (long long), one per axis
};
std::string_view name(ParamRole r);

struct KernelParam {
  std::string name;        // as emitted; the user's name for user parameters
  Type type;               // as emitted: pointers for arrays, long long for extents
  ParamRole role = ParamRole::Scalar;
  int userParam = -1;      // index of the user's parameter, -1 for Out/Extent
  int axis = -1;           // Extent: 0 = i, 1 = j, 2 = k (ElementWise: 0)
};

struct KernelSignature {
  std::vector<KernelParam> params;  // in the order the __global__ function takes them
  std::string toString() const;     // "(const float* x, int cols, float* out, long long n_i)"
};

struct Function {
  std::string name;
  Type returnType;
  std::vector<Var> vars;  // parameters first (vars[0 .. numParams)), then locals
  unsigned numParams = 0;
  StmtPtr body;
  SourceRange range;

  bool annotated = false;                // marked with CULIFT_KERNEL or picked by name
  std::vector<std::string> indexNames;   // names of the index parameters (default i, j, k)

  // Filled by classify():
  IndexMode mode = IndexMode::DeviceOnly;
  std::vector<int> indexParams;          // user parameter of axis 0, 1, 2
  KernelSignature signature;             // empty for DeviceOnly
  std::string deviceName;                // name of the __device__ function
  std::string kernelName;                // the __global__ wrapper with 32-bit indices ("" for DeviceOnly)
  std::string wideKernelName;            // the same wrapper with 64-bit indices: covers any launch
  // Consecutive indices of the innermost axis one thread of `kernelName` takes per step of its
  // grid-stride loop: 4 for loop-free functions (four loads in flight per thread; element-wise
  // kernels read and write them as one vector each), 1 otherwise. The wide kernel takes one.
  unsigned itemsPerThread = 1;
  // Byte alignment the 32-bit entry assumes of every array argument (0: none). Set where one
  // thread reads neighbouring elements of an array (records like x[2 * i], x[2 * i + 1]): NVVM
  // may then merge them into one vector load. The runtime checks it before taking that entry.
  unsigned arrayAlignment = 0;

  const Var& param(unsigned p) const { return vars[p]; }
  bool isKernel() const { return mode != IndexMode::DeviceOnly; }
};

// A translated source file: every lifted function (callers and callees) and the CUDA source.
struct Module {
  std::string sourcePath;               // the file translated (or the virtual file name)
  std::vector<Function> functions;      // callees may follow their callers
  std::string cudaSource;               // every device function and kernel, one .cu text

  const Function* find(std::string_view name) const;
  std::vector<const Function*> kernels() const;  // functions with a kernel wrapper
};

}  // namespace culift
