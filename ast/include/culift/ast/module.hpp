// Lifted functions, their classification (index mode) and kernel signatures, and the module
// that holds them together with the emitted CUDA source. No Clang dependency: a host app can
// load and run pre-translated kernels with only this, the interpreter and the runtime.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "culift/ast/nodes.hpp"

namespace culift {

enum class IndexMode : std::uint8_t {
  Grid1D,       // one index parameter i: i = blockIdx.x * blockDim.x + threadIdx.x
  Grid2D,       // i (rows, on y) and j (columns, on x)
  Grid3D,       // i (z), j (y), k (x): C order, out[(i * nj + j) * nk + k]
  ElementWise,  // no index, a result, scalars (each becomes an array read per element) and const arrays (uniform)
  DeviceOnly,   // callable from other lifted functions only
};
std::string_view name(IndexMode m);  // "Grid1D", ..., "ElementWise", "DeviceOnly"
unsigned rank(IndexMode m);          // 1, 2, 3 for grids; 1 for ElementWise; 0 for DeviceOnly

// The role a parameter of the emitted __global__ kernel plays.
enum class ParamRole : std::uint8_t {
  ReadOnlyArray,     // const T* of the user's function: read only
  WritableArray,     // T* of the user's function: written (and possibly read)
  Scalar,            // a user scalar passed by value, the same for every thread (ElementWise: a uniform parameter)
  PerElementScalar,  // ElementWise: a user scalar parameter, now a const T* read at the element index
  ResultArray,       // the implicit result array (functions returning a value)
  Extent,            // the implicit index-space extent (long long), one per axis
};
std::string_view name(ParamRole r);

// Tensor cores a kernel's contraction may use (CULIFT_KERNEL_TENSOR_CORES, or the translate
// option): its operands rounded to the format (tf32, bf16 or fp16) and multiplied by the matrix
// units, with fp32 accumulation in the units' own order. It leaves the exact contract on purpose
// (docs/numerical-contract.md#tensor-cores says which bits change and the bound).
enum class TensorCores : std::uint8_t { None, TF32, BF16, FP16 };
std::string_view name(TensorCores t);  // "none", "tf32", "bf16", "fp16"
// The format a name ("tf32", "bf16", "fp16", "none") names, or nothing.
std::optional<TensorCores> tensorCoresNamed(std::string_view text);

struct Function;
struct KernelParam;
// The role as a user reads it: name(role), except "uniform" for a scalar of an element-wise
// kernel (one value for every element, beside the element inputs read per element) and
// "uniform array" for its arrays (the same array for every element: a table it reads).
std::string_view roleName(const Function& fn, const KernelParam& p);

// An array of structs as a kernel parameter (const Particle* p): the struct as the host
// compiler lays it out. Every field is of one scalar type, so the kernel takes the records'
// memory as an array of that type, elements() per record, and p[i].vy reads p[i * 7 + 4]. The
// emitted CUDA declares the struct with this layout and asserts it; the runtime checks a typed
// buffer's element size against it at launch.
struct RecordField {
  std::string path;          // "vy"; a nested struct's fields joined with '_' ("pos_x")
  std::uint32_t offset = 0;  // bytes from the start of the record
  friend bool operator==(const RecordField&, const RecordField&) = default;
};
struct RecordView {
  std::string name;                 // the C++ type as written ("Particle", "Body<float>")
  Scalar scalar = Scalar::Void;     // every field's type
  std::uint32_t size = 0;           // sizeof, bytes
  std::uint32_t align = 0;          // alignof, bytes
  std::vector<RecordField> fields;  // in declaration order, nested structs flattened
  std::uint32_t elements() const { return byteSize(scalar) ? size / byteSize(scalar) : 0; }
  friend bool operator==(const RecordView&, const RecordView&) = default;
};

struct KernelParam {
  std::string name;  // as emitted; the user's name for user parameters
  Type type;         // as emitted: pointers for arrays, long long for extents
  ParamRole role = ParamRole::Scalar;
  int userParam = -1;  // index of the user's parameter, -1 for Out/Extent
  int axis = -1;       // Extent: 0 = i, 1 = j, 2 = k (ElementWise: 0)
  // An array of structs (type: a pointer to the record's scalar type): the record's layout.
  std::optional<RecordView> record = std::nullopt;
};

struct KernelSignature {
  std::vector<KernelParam> params;  // in the order the __global__ function takes them
  std::string toString() const;     // "(const float* x, int cols, float* out, long long n_i)"
};

// How a kernel's loop runs (the loop planner's decision; docs/loop-plans.md shows each form).
// One enumerator per line of plans.def, in its order (the planner's order of preference).
enum class LoopPlan : std::uint8_t {
#define CULIFT_LOOP_PLAN(Name, name, Mapping, fileId) Name,
#include "culift/ast/plans.def"
};
inline constexpr unsigned kLoopPlanCount = 0
#define CULIFT_LOOP_PLAN(Name, name, Mapping, fileId) +1
#include "culift/ast/plans.def"
    ;
std::string_view name(LoopPlan p);  // "per-thread", "tiled contraction", ...
// Whether the entries of plan `p` run on tensor cores (not exact: the kernel opted in).
inline bool onTensorCores(LoopPlan p) {
  return p == LoopPlan::TensorCoreContraction || p == LoopPlan::BatchedTensorCoreContraction;
}

// How the blocks of a plan entry map to its outputs (plans.def): what the runtime computes the
// entry's grid from.
enum class BlockMapping : std::uint8_t {
#define CULIFT_BLOCK_MAPPING(Name, parts, description) Name,
#include "culift/ast/plans.def"
};
std::string_view name(BlockMapping m);  // "Tiles2D", ...
// Whether entries of mapping `m` run a part of a launch (whole rows from culift_first; plans.def).
bool takesParts(BlockMapping m);
// The mapping plans.def gives the entries of plan `p`.
BlockMapping blockMapping(LoopPlan p);

// The byte a module file stores for a plan (plans.def's fileId), and the plan of a byte (nothing
// for a byte no plan of this version has).
std::uint8_t moduleFileId(LoopPlan p);
std::optional<LoopPlan> loopPlanOfModuleFileId(std::uint8_t id);

// An entry of a kernel beside the two per-thread ones, generated for its loop plan. The runtime
// launches it instead of them when the launch allows (rt::choosePlanEntry says when); every
// entry gives the per-thread entry's results bit for bit, except a reassociating one: it gives
// the bits of its own fixed order (docs/numerical-contract.md), which the CPU backend reproduces.
// Shared memory a block may take without the device's opt-in (static and dynamic together), and
// the most a plan's entry takes with it (every device from sm_80 on gives a block that much).
inline constexpr unsigned kStaticSharedBytes = 48 * 1024;
inline constexpr unsigned kPlanSharedBudget = 96 * 1024;

// An operand an entry copies by bulk tensor copies (the TF32 entries on warpgroups, sm_90a): the
// array parameter `buffer` read as a row-major matrix whose rows lie `stride` elements apart (the
// scalar parameter `strideParam`, or the literal `stride` where it is kNone), copied in boxes of
// boxCols x boxRows elements with the 128-byte swizzle. At each launch the runtime encodes one
// tensor map per operand (where the matrix allows one: 16-byte aligned, a whole number of 16-byte
// groups a row) and passes them after the entry's other parameters, then a mask of the maps that
// hold; the entry checks the index's steps against the stride before it copies a tile with one.
struct TensorMapOperand {
  VarId buffer = kNone;
  VarId strideParam = kNone;
  std::int64_t stride = 0;
  unsigned boxCols = 0, boxRows = 0;
  bool operator==(const TensorMapOperand&) const = default;
};

struct PlanEntry {
  std::string kernelName;
  LoopPlan plan = LoopPlan::PerThread;
  unsigned tileRows = 1;    // outputs along i one block computes (a row reduction: rows per step)
  unsigned tileCols = 1;    // outputs along j one block computes
  unsigned threads = 32;    // threads per block (x only)
  bool squareOnly = false;  // only for launches with as many rows as columns (mirrored tiles)
  // Dynamic shared memory the entry's blocks take (bytes; 0: its shared memory is all static).
  // Above 48 KiB a device must opt in: the runtime sets the function's limit, and takes another
  // entry where the device has less.
  unsigned sharedBytes = 0;
  // The blocks a multiprocessor holds as the entry asks for them (its __launch_bounds__), where
  // they decide how the runtime splits its launch (a stencil's slabs); 0: not known.
  unsigned blocksPerSm = 0;
  std::vector<TensorMapOperand> tensorMaps;  // bulk tensor copies' operands, in parameter order
  // The entry computes only the blocks (of a batch) it finds whole, every tile in range; a kernel
  // of its own, edgeKernelName(), computes the others: the runtime launches it after the entry,
  // with the same grid, threads, shared memory and arguments (the tiled contractions' checked
  // form: a call of it in the entry's kernel cost the GEMM 5 %, docs/loop-plans.md).
  bool edgeKernel = false;
  // How its blocks map to outputs; unset, its plan's mapping (plans.def). The planner sets it;
  // module files do not store it (every entry has its plan's mapping, which a loaded entry gets).
  std::optional<BlockMapping> mapping = std::nullopt;
  BlockMapping blockMapping() const { return mapping ? *mapping : culift::blockMapping(plan); }
};

// The kernel that computes the blocks a PlanEntry with edgeKernel leaves. It sits behind the
// entry's guard (entryMacro(e.kernelName)): compiled for the entry alone, the module holds both.
inline std::string edgeKernelName(const PlanEntry& e) { return e.kernelName + "_edge"; }

// An entry on warpgroups: the TF32 contraction's <f>_wg256 and <f>_wg128, named by their tile's rows
// (wgmma where compiled for sm_90a, the mma.sync entry's body elsewhere). The runtime takes them on
// sm_90 devices only.
inline constexpr std::string_view kWarpgroupSuffix = "_wg";
inline bool onWarpgroups(const PlanEntry& e) {
  const std::string suffix = std::string(kWarpgroupSuffix) + std::to_string(e.tileRows);
  const std::string_view name = e.kernelName;
  return e.plan == LoopPlan::TensorCoreContraction && name.size() > suffix.size() &&
         name.substr(name.size() - suffix.size()) == suffix;
}

struct Function {
  std::string name;
  Type returnType;
  std::vector<Var> vars;  // parameters first (vars[0 .. numParams)), then locals
  unsigned numParams = 0;
  StmtPtr body;
  SourceRange range;

  bool annotated = false;               // marked with CULIFT_KERNEL or picked by name
  std::vector<std::string> indexNames;  // names of the index parameters (default i, j, k)
  // The user allowed its loop's sums to be reassociated (CULIFT_KERNEL_REASSOCIATE, or the
  // translate option): a 1-D kernel whose loop only adds terms to its sums may then take a warp
  // per output.
  bool reassociate = false;
  // The user allowed its contraction to run on tensor cores in this format (TensorCores).
  TensorCores tensorCores = TensorCores::None;
  // Scalar parameters the user marked uniform (CULIFT_UNIFORM): in an element-wise kernel they
  // are passed once, the same for every element, instead of read per element.
  std::vector<std::string> uniformNames;
  // Parameters that are arrays of structs (user parameter index, layout): set by the front end,
  // copied into the kernel signature by classify(). Front end only: module files do not hold it
  // (the signature's KernelParam::record does), so a loaded module has it empty.
  std::vector<std::pair<unsigned, RecordView>> recordParams;
  // A kernel returning a struct (every field of one scalar type): the struct's host layout. The
  // function is void and writes the struct's fields through its last parameters, references
  // (ret_x, ...), one per field in order; the kernel's `out` is an array of the struct (a module
  // file keeps it as the out parameter's record).
  std::optional<RecordView> resultRecord = std::nullopt;
  // How C++ names the function from the global scope and its type, as the front end saw them
  // ("::ns::Clip<float>", "float (const float *, float, float, int)"), for its host launcher
  // (codegen.hpp: hostLauncherSource); empty where C++ cannot name it so. Front end only, as
  // recordParams.
  std::string hostName = {};
  std::string hostType = {};
  // A kernel the translator made of two of the module's kernels (row statistics in one pass,
  // docs/loop-plans.md): their names, in the order it takes their results; empty for the user's.
  std::vector<std::string> fusedOf = {};
  // The user parameter of the first result field (numParams - fields) or numParams when none.
  unsigned firstResultParam() const {
    return resultRecord ? numParams - static_cast<unsigned>(resultRecord->fields.size()) : numParams;
  }

  // Filled by classify():
  IndexMode mode = IndexMode::DeviceOnly;
  std::vector<int> indexParams;  // user parameter of axis 0, 1, 2
  KernelSignature signature;     // empty for DeviceOnly
  std::string deviceName;        // name of the __device__ function
  std::string kernelName;        // the __global__ wrapper with 32-bit indices ("" for DeviceOnly)
  std::string wideKernelName;    // the same wrapper with 64-bit indices: covers any launch
  // The wrapper of a part of a launch (partKernelName): the outputs [first, last) in row-major
  // order, 64-bit indices; what a launch split over devices runs on each ("" where
  // wideKernelName is).
  std::string partKernelName() const { return wideKernelName.empty() ? std::string() : name + "_kernel_part"; }
  // Consecutive indices of the innermost axis one thread of `kernelName` takes per step of its
  // grid-stride loop: 4 for loop-free functions (four loads in flight per thread; element-wise
  // kernels read and write them as one vector each), 1 otherwise. The wide kernel takes one.
  unsigned itemsPerThread = 1;
  // Byte alignment the 32-bit entry assumes of every array argument (0: none). Set where one
  // thread reads neighbouring elements of an array (records like x[2 * i], x[2 * i + 1]): NVVM
  // may then merge them into one vector load. The runtime checks it before taking that entry.
  unsigned arrayAlignment = 0;

  // Filled by planLoops() (after classify()): how the loop of a kernel's body runs, why it runs
  // per thread when the planner did not lift it ("" when there is no loop to lift) or, for a
  // kernel allowed to reassociate, why its loop keeps its order ("not reassociated: ..."), and
  // the extra entries the plan generates, fastest first.
  LoopPlan loopPlan = LoopPlan::PerThread;
  std::string loopPlanReason;
  std::vector<PlanEntry> planEntries;
  // A reassociating row reduction's sums (the locals and scalar parameters the loop adds its
  // terms to), in order of declaration; empty for every other plan.
  std::vector<VarId> reassociatedSums;

  const Var& param(unsigned p) const { return vars[p]; }
  bool isKernel() const { return mode != IndexMode::DeviceOnly; }
};

// Device code compiled ahead of time from a module's CUDA source (culift_add_kernels): the
// runtime loads the image made for the device with the engine's compile options instead of
// compiling the source with NVRTC.
struct DeviceImage {
  std::string target;                // "sm_90" (a cubin) or "compute_90" (PTX)
  std::vector<std::string> options;  // the NVRTC options it was compiled with, but the architecture
  std::string bytes;                 // the image, held by the module
  // Or the image in memory that outlives the module, not copied: a module file built into the
  // program (loadModule with ImageBytes::Borrow), whose cubins are megabytes read at every start.
  std::string_view borrowed = {};

  std::string_view image() const { return borrowed.empty() ? std::string_view(bytes) : borrowed; }
};

// The emitted source puts each kernel (a wrapper or a plan entry, with the functions only it
// calls) between `#if !defined(CULIFT_ONLY_ENTRIES) || defined(CULIFT_ENTRY_<kernel>)` and
// `#endif`: compiled with -DCULIFT_ONLY_ENTRIES and -D<entryMacro(kernel)> for some kernels, it
// holds those alone (EngineOptions::compileEachEntry); otherwise every kernel.
inline constexpr std::string_view kOnlyEntriesMacro = "CULIFT_ONLY_ENTRIES";
inline std::string entryMacro(std::string_view kernel) { return "CULIFT_ENTRY_" + std::string(kernel); }

// A translated source file: every lifted function (callers and callees) and the CUDA source.
struct Module {
  std::string sourcePath;           // the file translated (or the virtual file name)
  std::vector<Function> functions;  // callees may follow their callers
  std::string cudaSource;           // every device function and kernel, one .cu text
  // Precompiled cudaSource, if any (module files carry them). Initialized here so that brace
  // initializers naming only the fields above stay free of missing-initializer warnings.
  std::vector<DeviceImage> images = {};

  const Function* find(std::string_view name) const;
  std::vector<const Function*> kernels() const;  // functions with a kernel wrapper
};

}  // namespace culift
