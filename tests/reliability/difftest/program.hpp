// A generated (or replayed) test program as the oracle sees it: C++ source text, the kernel's
// parameters, and argument sets. Independent of how the program was made, so regression files
// and the generator feed the same oracle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "culift/ast/type.hpp"

namespace culift::rel {

// Every array parameter of a generated kernel has this many elements; generated code masks
// its array indices into range, so any index expression stays in bounds. The arrays a loop
// planner's shape reads unmasked (k plus terms without k, as the plans lift them) have
// kPlanArrayLength, which every such index stays below (generator.cpp, contraction()).
inline constexpr std::size_t kArrayLength = 64;
inline constexpr std::size_t kPlanArrayLength = 1024;

struct ParamSpec {
  std::string name;
  Scalar type = Scalar::I32;
  bool array = false;     // a pointer parameter of `length` elements
  bool writable = false;  // T* rather than const T*
  int axis = -1;          // index parameter i/j/k: 0, 1, 2
  // An array of structs (`const S* p`, every field of `type`): kArrayLength records of `record`
  // elements each, the struct `recordType`; the translated kernel takes them as one array of
  // `type`.
  unsigned record = 0;
  std::string recordType = "";
  std::size_t length = kArrayLength;  // elements (records) of an array
  std::size_t elements() const { return array ? length * (record ? record : 1) : 1; }
};

// One value per parameter, as raw little-endian bytes of the parameter's type (arrays:
// ParamSpec::elements()).
struct ArgSet {
  std::vector<std::vector<std::uint8_t>> values;
};

// What every generated translation unit includes before its functions (<array>: local arrays
// may be spelled as std::arrays).
inline constexpr const char* kProgramIncludes =
    "#include <culift/annotate.hpp>\n#include <algorithm>\n#include <array>\n#include <cmath>\n#include <cstdint>\n\n";

struct ProgramSpec {
  std::string name;    // unique within a batch: "p17"
  std::string kernel;  // the annotated function: "p17_kernel"
  Scalar returnType = Scalar::Void;
  std::vector<ParamSpec> params;
  std::string functions;  // the program's functions (no #includes)
  // What the NVRTC leg compiles when it differs: the same program printed without its checksum
  // (GProgram::checksum), whose folds, inlined by NVRTC at every value, would multiply the
  // compile time; the GPU leg compiles and runs the checksum itself. Empty: `functions`.
  std::string deviceFunctions;
  std::vector<ArgSet> argSets;
  bool exactMathOnly = false;  // GPU leg: every math call is exact on the device
  std::uint64_t seed = 0;      // generator seed (0 for replayed programs)

  // The whole translation unit: includes, then the functions.
  std::string source() const;
  // `const float* x`, `int i`: the C++ spelling of one parameter.
  static std::string declare(const ParamSpec& p);
  std::string signature() const;  // "float p17_kernel(const float* x, int i)"
};

// C++ spelling of a scalar type in generated code ("signed char", "unsigned long long").
std::string cppType(Scalar s);
// The value bytes printed for people: "-5", "0x1.8p+0f (1.5)", "nan".
std::string formatValue(Scalar s, const std::uint8_t* bytes);
std::string describeArgs(const ProgramSpec& p, const ArgSet& a);

}  // namespace culift::rel
