#include "generator.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>

#include "printer.hpp"
#include "type_rules.hpp"

namespace culift::rel {

Rng::Rng(std::uint64_t seed) {
  // splitmix64 to spread the seed over the state.
  for (auto& s : s_) {
    seed += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    s = z ^ (z >> 31);
  }
}

std::uint64_t Rng::next() {
  auto rotl = [](std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

namespace {

constexpr Scalar kAllScalars[] = {Scalar::Bool, Scalar::I8,  Scalar::U8,  Scalar::I16, Scalar::U16, Scalar::I32,
                                  Scalar::U32,  Scalar::I64, Scalar::U64, Scalar::F32, Scalar::F64};
constexpr Scalar kPromoted[] = {Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64};
constexpr Scalar kInts[] = {Scalar::I8,  Scalar::U8,  Scalar::I16, Scalar::U16,
                            Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64};
constexpr Scalar kSmall[] = {Scalar::Bool, Scalar::I8, Scalar::U8, Scalar::I16, Scalar::U16};

// Math functions the device computes exactly (bit-identical to the host library).
const std::vector<std::pair<std::string, unsigned>> kExactMath = {{"sqrt", 1},  {"fabs", 1},      {"fmin", 2},
                                                                  {"fmax", 2},  {"fdim", 2},      {"fma", 3},
                                                                  {"floor", 1}, {"ceil", 1},      {"round", 1},
                                                                  {"trunc", 1}, {"rint", 1},      {"nearbyint", 1},
                                                                  {"fmod", 2},  {"remainder", 2}, {"copysign", 2}};
const std::vector<std::pair<std::string, unsigned>> kTranscendental = {
    {"cbrt", 1},  {"exp", 1},   {"exp2", 1}, {"expm1", 1},  {"log", 1},    {"log2", 1},  {"log10", 1},
    {"log1p", 1}, {"pow", 2},   {"sin", 1},  {"cos", 1},    {"tan", 1},    {"asin", 1},  {"acos", 1},
    {"atan", 1},  {"atan2", 2}, {"sinh", 1}, {"cosh", 1},   {"tanh", 1},   {"asinh", 1}, {"acosh", 1},
    {"atanh", 1}, {"erf", 1},   {"erfc", 1}, {"tgamma", 1}, {"lgamma", 1}, {"hypot", 2}};

// Float functions whose glibc versions often differ in the last bit from the double function's
// result rounded to float (for a fifth to a half of the arguments in [-16, 16]): of an argument,
// they show a float function computed in double (PlantedBug::FloatMathInDouble).
const std::vector<std::pair<std::string, unsigned>> kMisrounded = {{"tgamma", 1}, {"lgamma", 1}, {"atanh", 1},
                                                                   {"sinh", 1},   {"cosh", 1},   {"log10", 1},
                                                                   {"erfc", 1},   {"asinh", 1}};

struct Callable {
  std::string name;
  Scalar ret = Scalar::I32;
  std::vector<GVar> params;
  bool needsArrays = false;
  bool refOut = false;  // the last parameter is a T& out-parameter: called only as a declaration's value
  GFunction::Template templateKind = GFunction::kNone;
  bool classTemplate = false;
  std::vector<int> nValues;            // kTemplateValue: the N its calls use (one or two)
  std::vector<std::string> spellings;  // kTemplateType: the T its calls use (one or two)
  int retStruct = -1;                  // returns this struct (called only as a whole value: StructCall)
  bool writesStruct = false;           // takes a struct by S&: called only as a declaration's value
  bool writes() const { return refOut || writesStruct; }
};

// Share of programs with value structs (one or two struct types).
constexpr unsigned kStructShare = 35;

class Generator {
 public:
  Generator(std::uint64_t seed, unsigned index, const GenOptions& o) : r_(seed * 1000003ull + index), o_(o) {
    prefix_ = "p" + std::to_string(index) + "_";
  }

  Generated run() {
    Generated g;
    g.tree.name = prefix_.substr(0, prefix_.size() - 1);
    g.tree.aliasTypes = r_.chance(20);
    g.tree.checksum = o_.checksum;
    makeStructs();
    GFunction kernel = makeKernelSignature();
    const unsigned helpers = static_cast<unsigned>(r_.below(3));
    std::vector<GFunction> helperFns;
    for (unsigned h = 0; h < helpers; ++h) helperFns.push_back(makeHelper(h, kernel));
    fillBody(kernel, o_.maxStatements);
    for (auto& [key, f] : clamps_) g.tree.functions.push_back(f);
    for (int byRef = 0; byRef < 2; ++byRef)
      if (needApply_[byRef]) {
        GFunction a;
        a.name = applyName(byRef != 0);
        a.isApplyHelper = true;
        a.applyByRef = byRef != 0;
        g.tree.functions.push_back(std::move(a));
      }
    for (auto& f : helperFns) g.tree.functions.push_back(std::move(f));
    g.tree.functions.push_back(std::move(kernel));
    g.tree.structs = structs_;

    ProgramSpec& s = g.spec;
    s.name = g.tree.name;
    const GFunction& k = g.tree.functions.back();
    s.kernel = k.name;
    s.returnType = k.returnType;
    for (unsigned p = 0; p < k.numParams; ++p) {
      const GVar& v = k.vars[p];
      ParamSpec q{v.name, v.type, v.isArray, v.isArray && v.writable, v.axis};
      if (v.isArray && !v.isStruct()) q.length = v.extent;
      if (v.isStruct()) {  // an array of structs: records of the struct's one scalar type
        q.type = st(v.strct).uniform;
        q.record = static_cast<unsigned>(st(v.strct).leaves.size());
        q.recordType = st(v.strct).name;
      }
      s.params.push_back(q);
    }
    s.exactMathOnly = o_.exactMathOnly;
    refreshSpec(g.tree, s);
    s.argSets = generateArgSets(s.params, r_.next(), o_.argSets);
    return g;
  }

 private:
  // ---- signatures -----------------------------------------------------------------------
  Scalar anyScalar() { return r_.pick(kAllScalars); }

  GFunction makeKernelSignature() {
    GFunction f;
    f.name = prefix_ + "kernel";
    f.kernel = true;
    const unsigned modeRoll = static_cast<unsigned>(r_.below(100));
    mode_ = modeRoll < 35 ? 1 : modeRoll < 55 ? 2 : modeRoll < 70 ? 3 : 0;  // 0: element-wise
    const unsigned idxRoll = static_cast<unsigned>(r_.below(100));
    indexType_ = idxRoll < 70 ? Scalar::I32 : idxRoll < 85 ? Scalar::I64 : Scalar::U32;
    std::vector<GVar> params;
    static const char* kAxis[] = {"i", "j", "k"};
    for (int a = 0; a < mode_; ++a) params.push_back(GVar{kAxis[a], indexType_, 0, false, true, false, false, a});
    const bool isVoid = mode_ != 0 && r_.chance(35);
    if (mode_ != 0) {
      const unsigned inputs = static_cast<unsigned>(r_.range(isVoid ? 0 : 1, 2));
      for (unsigned a = 0; a < inputs; ++a)
        params.push_back(GVar{"a" + std::to_string(a), anyNonBool(), kArrayLength, true, true, false, false, -1});
      if (isVoid) {
        const unsigned outs = static_cast<unsigned>(r_.range(1, 2));
        for (unsigned a = 0; a < outs; ++a)
          params.push_back(GVar{"o" + std::to_string(a), anyNonBool(), kArrayLength, true, true, true, false, -1});
        // Often an output of a 1-D kernel has the last input's type (a scan's pair: scan()).
        if (mode_ == 1 && inputs > 0 && r_.chance(60)) params.back().type = params[params.size() - 1 - outs].type;
      }
    }
    // Arrays of structs whose fields share one scalar type: records read (const S* ra0) and, by
    // a void kernel, written at the thread's own index (S* ro0).
    if (mode_ != 0) {
      std::vector<int> uniform;
      for (std::size_t k = 0; k < structs_.size(); ++k)
        if (structs_[k].uniform != Scalar::Void) uniform.push_back(static_cast<int>(k));
      if (!uniform.empty() && r_.chance(70)) {
        GVar records{"ra0", Scalar::Void, kArrayLength, true, true, false, false, -1};
        records.strct = r_.pick(uniform);
        params.push_back(records);
      }
      if (!uniform.empty() && isVoid && r_.chance(60)) {
        GVar records{"ro0", Scalar::Void, kArrayLength, true, true, true, false, -1};
        records.strct = r_.pick(uniform);
        params.push_back(records);
      }
    }
    const unsigned scalars = static_cast<unsigned>(r_.range(mode_ == 0 ? 1 : 0, mode_ == 0 ? 4 : 3));
    for (unsigned s = 0; s < scalars; ++s)
      params.push_back(GVar{"s" + std::to_string(s), anyScalar(), 0, false, true, true, false, -1});
    // Shuffle (Fisher-Yates with our generator, so the order is the same everywhere).
    for (std::size_t n = params.size(); n > 1; --n) std::swap(params[n - 1], params[r_.below(n)]);
    // A void kernel's hash goes to an output of its own (GProgram::checksum), last.
    if (isVoid && o_.checksum) {
      params.push_back(GVar{"cko", Scalar::U64, kArrayLength, true, true, true, false, -1});
      f.checksumOut = static_cast<int>(params.size() - 1);
    }
    f.vars = params;
    f.numParams = static_cast<unsigned>(params.size());
    f.returnType = isVoid ? Scalar::Void : anyScalar();
    return f;
  }

  Scalar anyNonBool() {
    Scalar s;
    do s = anyScalar();
    while (s == Scalar::Bool);
    return s;
  }

  GFunction makeHelper(unsigned h, const GFunction& kernel) {
    GFunction f;
    f.name = prefix_ + "h" + std::to_string(h);
    f.returnType = anyScalar();
    const unsigned n = static_cast<unsigned>(r_.range(1, 3));
    for (unsigned p = 0; p < n; ++p)
      f.vars.push_back(GVar{"q" + std::to_string(p), anyScalar(), 0, false, true, true, false, -1});
    bool needsArrays = false;
    if (r_.chance(30)) {
      for (unsigned p = 0; p < kernel.numParams; ++p) {
        const GVar& v = kernel.vars[p];
        if (v.isArray && !v.writable && !v.isStruct()) {
          f.vars.push_back(GVar{"x", v.type, kArrayLength, true, true, false, false, -1});
          needsArrays = true;
          break;
        }
      }
    }
    // Some scalar parameters are const references, some helpers write a T& out-parameter.
    for (unsigned p = 0; p < n; ++p)
      if (r_.chance(20)) {
        f.vars[p].isRef = true;
        f.vars[p].writable = false;
      }
    // Value structs: parameters by const S&, S& (the caller's struct, written) or S (a copy),
    // and a struct result.
    bool structHelper = false;
    if (!structs_.empty() && r_.chance(50)) {
      const unsigned count = static_cast<unsigned>(r_.range(1, 2));
      for (unsigned k = 0; k < count; ++k) {
        GVar q{"q" + std::to_string(f.vars.size()), Scalar::Void, 0, false, true, true, false, -1};
        q.strct = static_cast<int>(r_.below(structs_.size()));
        const unsigned mode = static_cast<unsigned>(r_.below(100));
        if (mode < 70) q.isRef = true;
        if (mode < 40) q.writable = false;
        f.vars.push_back(q);
      }
      structHelper = true;
    }
    if (!structs_.empty() && r_.chance(30)) {
      f.returnStruct = static_cast<int>(r_.below(structs_.size()));
      f.returnType = Scalar::Void;
      structHelper = true;
    }
    const bool refOut = f.returnStruct < 0 && r_.chance(20);
    if (refOut) {
      GVar out{"r", anyScalar(), 0, false, true, true, false, -1};
      out.isRef = true;
      f.vars.push_back(out);
    }
    f.numParams = static_cast<unsigned>(f.vars.size());
    // Templates: template <int N> (a function, or a class template's static member), or
    // template <typename T>; called with one or two instances.
    Callable c;
    c.name = f.name;
    c.ret = f.returnType;
    c.params = f.vars;
    c.needsArrays = needsArrays;
    c.refOut = refOut;
    c.retStruct = f.returnStruct;
    for (const GVar& q : f.vars) c.writesStruct |= q.isStruct() && q.isRef && q.writable;
    // (No template takes or returns a struct.)
    const unsigned templateRoll = structHelper ? 100 : static_cast<unsigned>(r_.below(100));
    if (templateRoll < 20) {
      f.templateKind = c.templateKind = GFunction::kTemplateValue;
      f.classTemplate = c.classTemplate = r_.chance(40);
      GVar nv{"N", Scalar::I32, 0, false, false, false, false, -1};
      nv.templateParam = true;
      f.vars.push_back(nv);
      c.nValues.push_back(static_cast<int>(r_.range(-3, 9)));
      if (r_.chance(60)) c.nValues.push_back(static_cast<int>(r_.range(-3, 9)));
    } else if (templateRoll < 40) {
      f.templateKind = c.templateKind = GFunction::kTemplateType;
      // A type with a second spelling of its own (long vs long long: the same values, another
      // instance), or one of the function's own types.
      if (r_.chance(40)) f.generic = r_.chance(50) ? Scalar::I64 : Scalar::U64;
      else f.generic = r_.chance(30) ? f.returnType : f.vars[r_.below(n)].type;
      c.spellings.push_back(cppType(f.generic));
      // (Not when the out-parameter is a T&: a long& cannot bind the caller's long long.)
      const bool outIsT = refOut && f.vars.back().type == f.generic;
      if (f.generic == Scalar::I64 && r_.chance(70) && !outIsT) c.spellings.push_back("long");
      if (f.generic == Scalar::U64 && r_.chance(70) && !outIsT) c.spellings.push_back("unsigned long");
    }
    fillBody(f, o_.maxStatements / 2);
    callables_.push_back(std::move(c));
    return f;
  }

  void fillBody(GFunction& f, unsigned statements) {
    fn_ = &f;
    scopes_.assign(1, {});
    for (unsigned p = 0; p < f.vars.size(); ++p) scopes_[0].push_back(static_cast<int>(p));
    loopDepth_ = 0;
    ret_ = f.returnType;
    retStruct_ = f.returnStruct;
    writeFloor_ = 0;
    lambdaScope_ = -1;
    scanOut_ = -1;
    excluded_.clear();
    inLambda_ = false;
    lambdaStmts_.clear();
    templateParam_ = -1;
    for (unsigned p = 0; p < f.vars.size(); ++p)
      if (f.vars[p].templateParam) templateParam_ = static_cast<int>(p);
    if (f.kernel && mode_ != 0) {
      auto idx = [&](int axis) { return var(axis); };
      auto mulAdd = [&](GExprPtr a, std::int64_t m, GExprPtr b) {
        auto mul = binary("*", indexType_, a, lit(indexType_, bitsOfInt(indexType_, m)));
        mul->arith = isSignedInt(indexType_) ? Arith::Wrapped : Arith::Direct;
        auto add = binary("+", indexType_, mul, b);
        add->arith = mul->arith;
        return add;
      };
      int axisParam[3] = {-1, -1, -1};
      for (unsigned p = 0; p < f.numParams; ++p)
        if (f.vars[p].axis >= 0) axisParam[f.vars[p].axis] = static_cast<int>(p);
      if (mode_ == 1) own_ = idx(axisParam[0]);
      if (mode_ == 2) own_ = mulAdd(idx(axisParam[0]), 8, idx(axisParam[1]));
      if (mode_ == 3) own_ = mulAdd(mulAdd(idx(axisParam[0]), 4, idx(axisParam[1])), 4, idx(axisParam[2]));
      freeze(own_);
      if (f.checksumOut >= 0) f.checksumIndex = own_;
    }
    // A share of 1-D and 2-D kernels take the shape the loop planner lifts (a row reduction or
    // a contraction), so that its entries are compiled, and on the GPU run, on varied bodies.
    if (f.kernel && (mode_ == 1 || mode_ == 2 || mode_ == 3) && r_.chance(mode_ == 3 ? 20 : 30))
      f.body = contraction(f, statements);
    else if (f.kernel && mode_ == 3 && f.returnType != Scalar::Void && r_.chance(20))  // (the plan's kernels return)
      f.body = convolution(f, statements);
    else if (f.kernel && (mode_ == 2 || mode_ == 3) && r_.chance(mode_ == 3 ? 40 : 20)) f.body = stencil(f, statements);
    else if (f.kernel && mode_ == 1 && r_.chance(50)) f.body = scan(f, statements);
    else f.body = block(0, statements, false);
    if (f.returnStruct >= 0) {
      auto ret = std::make_shared<GStmt>();
      ret->kind = GStmtKind::Return;
      ret->a = structValue(f.returnStruct);
      f.body.push_back(ret);
    } else if (f.returnType == Scalar::Void) {
      // A planned shape's outputs at the plain own index (GFunction::plainOwnIndex).
      if (f.stencil || f.scan) {
        const ShapeParams q = shapeParams(f);
        auto axis = [&](int a) { return asInt(var(q.axis[a])); };
        auto step = [&](GExprPtr a, std::int64_t n, GExprPtr b) {
          return binary("+", Scalar::I32, binary("*", Scalar::I32, std::move(a), intLit(n)), std::move(b));
        };
        GExprPtr own = axis(0);
        if (mode_ == 2) own = step(std::move(own), 8, axis(1));
        if (mode_ == 3) own = step(step(std::move(own), 4, axis(1)), 4, axis(2));
        freeze(own);
        f.plainOwnIndex = true;
        own_ = own;
        if (f.checksumOut >= 0) f.checksumIndex = own;
      }
      for (unsigned p = 0; p < f.numParams; ++p) {
        if (!f.vars[p].isArray || !f.vars[p].writable || static_cast<int>(p) == f.checksumOut ||
            static_cast<int>(p) == scanOut_)
          continue;
        if (f.vars[p].isStruct()) {
          for (GStmtPtr& s : recordStores(static_cast<int>(p))) f.body.push_back(std::move(s));
          continue;
        }
        f.body.push_back(store(static_cast<int>(p), 2));
      }
      auto ret = std::make_shared<GStmt>();
      ret->kind = GStmtKind::Return;
      f.body.push_back(ret);
    } else {
      auto ret = std::make_shared<GStmt>();
      ret->kind = GStmtKind::Return;
      ret->a = conv(f.returnType, 3);
      f.body.push_back(ret);
    }
  }

  // Loop-free statements, then `acc = <conv>;` and a counted loop folding array reads into it,
  // then loop-free statements; the return the caller appends may read acc. The loop takes a shape
  // a loop plan lifts: products of reads indexed by (i, k) and (j, k) (1-D: (i, k) and k alone)
  // added or multiplied into acc (a contraction, a row reduction), the largest or smallest term
  // (a min/max row reduction), or in 2-D one array read at ((i * 9 + k) * 8 + j) (a column
  // reduction). Those reads are unmasked, unit steps of k as the plans need them, into arrays of
  // kPlanArrayLength elements: i < 64 (8 in 2-D), k < 10 and a row width of at most 16 keep them
  // in bounds.
  std::vector<GStmtPtr> contraction(GFunction& f, unsigned statements) {
    const ShapeParams q = shapeParams(f);
    const std::vector<int>& inputs = q.inputs;
    const int(&axisParam)[3] = q.axis;
    if (inputs.empty() || (mode_ == 3 && (axisParam[0] < 0 || axisParam[1] < 0 || axisParam[2] < 0)))
      return block(0, statements, false);
    noLoops_ = true;
    // 1-D: no array parameter written before the loop, so that a sum may be reassociated (a
    // warp runs those statements once per lane).
    const int floor = writeFloor_;
    if (mode_ == 1) writeFloor_ = std::max(writeFloor_, static_cast<int>(f.numParams));
    std::vector<GStmtPtr> body = block(0, statements / 3, false);
    writeFloor_ = floor;
    // A 2-D sum of float products that opts into tensor cores, in the CPU campaigns only (the GPU
    // leg compares bit for bit; its programs draw nothing for this): its entries then compile
    // through NVRTC on random shapes.
    const bool tensorCores = !o_.exactMathOnly && mode_ == 2 && r_.chance(50);
    const Scalar t = tensorCores || r_.chance(50) ? Scalar::F32 : Scalar::F64;
    auto acc = accumulator(t);
    body.push_back(acc);
    auto loop = openPlainLoop(0, r_.range(0, 9), "c");  // the body stays `acc = acc + a * b`
    static const std::int64_t kWidths[] = {1, 4, 9, 16};
    const std::int64_t width = r_.pick(kWidths);
    auto wrapped = [&](const char* op, GExprPtr x, GExprPtr y) {
      auto e = binary(op, indexType_, std::move(x), std::move(y));
      e->arith = isSignedInt(indexType_) ? Arith::Wrapped : Arith::Direct;
      return e;
    };
    auto literal = [&](std::int64_t n) { return lit(indexType_, bitsOfInt(indexType_, n)); };
    // `array[index]` unmasked, converted to t.
    auto element = [&](int array, GExprPtr index) {
      fn_->vars[static_cast<std::size_t>(array)].extent = kPlanArrayLength;
      return castTo(t, unmaskedRead(array, std::move(index)));
    };
    // An element of `array` at (axis, k), or at k alone for axis -1.
    auto read = [&](int array, int axis) {
      GExprPtr k = var(loop->var);
      if (axis < 0 || axisParam[axis] < 0) return element(array, k);
      return element(array, wrapped("+", wrapped("*", var(axisParam[axis]), literal(width)), k));
    };
    int a = r_.pick(inputs), b = r_.pick(inputs);
    if (tensorCores) {  // float operands where the function has float arrays
      std::vector<int> floats;
      for (int x : inputs)
        if (fn_->vars[static_cast<std::size_t>(x)].type == Scalar::F32) floats.push_back(x);
      if (!floats.empty()) a = r_.pick(floats), b = r_.pick(floats);
    }
    const unsigned shape = tensorCores ? 0u : static_cast<unsigned>(r_.below(10));
    auto update = stmt(GStmtKind::Assign);
    update->var = acc->var;
    if (mode_ == 3) {
      // A batched contraction over (batch i, row j, column k): a[(i * 4 + j) * 16 + c] times
      // b[(i * 16 + c) * 4 + k], or times b[c * 4 + k] shared by every batch.
      auto row = wrapped("+", wrapped("*", var(axisParam[0]), literal(4)), var(axisParam[1]));
      auto left = element(a, wrapped("+", wrapped("*", row, literal(16)), var(loop->var)));
      GExprPtr inner = var(loop->var);
      if (r_.chance(70)) inner = wrapped("+", wrapped("*", var(axisParam[0]), literal(16)), std::move(inner));
      auto right = element(b, wrapped("+", wrapped("*", inner, literal(4)), var(axisParam[2])));
      update->a = binary(r_.chance(80) ? "+" : "*", t, var(acc->var),
                         binary("*", t, std::move(left), std::move(right)));
    } else if (mode_ == 2 && shape >= 8 && axisParam[0] >= 0 && axisParam[1] >= 0) {
      // A column: acc = acc + a[(i * 9 + k) * 8 + j].
      auto row = wrapped("+", wrapped("*", var(axisParam[0]), literal(9)), var(loop->var));
      update->a = binary("+", t, var(acc->var),
                         element(a, wrapped("+", wrapped("*", row, literal(8)), var(axisParam[1]))));
    } else if (shape >= 7) {
      // The largest or smallest term: std::max(acc, x) / std::min, or x > acc ? x : acc.
      const bool largest = r_.chance(50);
      if (r_.chance(60)) {
        update->a = math(largest ? "max" : "min", t, {var(acc->var), read(a, 0)});
      } else {
        auto cond = make(GExprKind::Cond, t);
        cond->args.push_back(binary(largest ? ">" : "<", Scalar::Bool, read(a, 0), var(acc->var)));
        cond->args.push_back(read(a, 0));
        cond->args.push_back(var(acc->var));
        update->a = cond;
      }
    } else {
      const int secondAxis = tensorCores ? 1 : mode_ == 2 ? (r_.chance(70) ? 1 : 0) : (r_.chance(50) ? -1 : 0);
      auto product = binary("*", t, read(a, 0), read(b, secondAxis));
      const bool sum = tensorCores || r_.chance(80);
      update->a = binary(sum ? "+" : "*", t, var(acc->var), product);
      if (tensorCores) {
        static const char* kFormats[] = {"tf32", "bf16", "fp16"};
        f.tensorCores = kFormats[r_.below(3)];
      }
      // Most 1-D sums may be reassociated: the GPU entry and the interpreter's launch then add
      // in the plan's order (the native legs and calls keep the loop's).
      if (mode_ == 1 && sum && r_.chance(75)) f.reassociate = true;
    }
    loop->body.push_back(update);
    closeLoops(1);
    body.push_back(loop);
    auto after = block(0, statements / 3, false);
    body.insert(body.end(), after.begin(), after.end());
    noLoops_ = false;
    return body;
  }

  // Loop-free statements, then `acc = <conv>;` and the neighbours of the output's own element in
  // an input array folded into acc, then loop-free statements (a stencil, the shape the stencil
  // plans lift): reads at the output's index plus constant offsets, as written or walked by window
  // loops with literal bounds (`for (int d = -1; d < 2; ++d)`). The array is padded by one on each
  // side of each axis (rows of 10 in 2-D, 6 x 6 planes in 3-D), so that every offset in -1..+1 is
  // in bounds; nothing else reads it, and no array parameter is written but at the output's index,
  // so that the plan holds. Most 3-D stencils (7 in 10) read an array of floats in a loop over the planes
  // (the first axis) at the top of the body: the shape whose planes the 2.5-D entry streams through
  // shared memory (where the kernel returns a 4-byte value: the entries of four outputs a thread).
  std::vector<GStmtPtr> stencil(GFunction& f, unsigned statements) {
    ShapeParams q = shapeParams(f);
    const unsigned rank = mode_ == 3 ? 3 : 2;
    for (unsigned a = 0; a < rank; ++a)
      if (q.axis[a] < 0) q.inputs.clear();
    if (q.inputs.empty()) return block(0, statements, false);
    const int array = r_.pick(q.inputs);
    fn_->vars[static_cast<std::size_t>(array)].extent = kPlanArrayLength;
    const bool planes = rank == 3 && r_.chance(70);
    if (planes) {
      // (No statement reads the array or returns yet.)
      fn_->vars[static_cast<std::size_t>(array)].type = Scalar::F32;
      if (f.returnType != Scalar::Void && f.returnStruct < 0)
        f.returnType = r_.chance(70) ? Scalar::F32 : r_.chance(50) ? Scalar::I32 : Scalar::U32;
    }
    const int floor = beginShape(f, {array});
    f.stencil = true;
    // (Where the planes are streamed, no statements before the loop: only guards may come before it.)
    std::vector<GStmtPtr> body = planes ? std::vector<GStmtPtr>{} : block(0, statements / 3, false);
    const Scalar t = r_.chance(50) ? Scalar::F32 : Scalar::F64;
    auto acc = accumulator(t);
    body.push_back(acc);
    const std::int64_t width = rank == 3 ? 6 : 10;  // the padded row (and plane side)
    // Axis a's padded coordinate: (int)index + 1 + offset, the offset a literal or a window counter.
    auto coordinate = [&](unsigned a, int counter, std::int64_t offset) {
      GExprPtr x = binary("+", Scalar::I32, asInt(var(q.axis[a])), intLit(1 + offset));
      if (counter >= 0) x = binary("+", Scalar::I32, std::move(x), var(counter));
      return x;
    };
    // acc = acc + w * array[index] (or without the weight), at offsets `offset` and counters `counter`.
    auto update = [&](const int counter[3], const std::int64_t offset[3]) {
      GExprPtr index = coordinate(0, counter[0], offset[0]);
      for (unsigned a = 1; a < rank; ++a)
        index = binary("+", Scalar::I32, binary("*", Scalar::I32, std::move(index), intLit(width)),
                       coordinate(a, counter[a], offset[a]));
      GExprPtr term = castTo(t, unmaskedRead(array, std::move(index)));
      if (r_.chance(60)) term = binary("*", t, randomLit(t), std::move(term));
      auto u = stmt(GStmtKind::Assign);
      u->var = acc->var;
      u->a = binary(r_.chance(85) ? "+" : "-", t, var(acc->var), std::move(term));
      return u;
    };
    if (planes || r_.chance(50)) {
      // Window loops over some axes (counters -1..+1), the other axes at a constant offset (the
      // planes' loop always where they are streamed).
      int counter[3] = {-1, -1, -1};
      std::int64_t offset[3] = {0, 0, 0};
      std::vector<GStmtPtr>* into = &body;
      std::size_t loops = 0;
      for (unsigned a = 0; a < rank; ++a) {
        if (a + 1 < rank && !(planes && a == 0) && r_.chance(40)) {
          offset[a] = r_.range(-1, 1);
          continue;
        }
        auto loop = openPlainLoop(-1, 2, "d");
        counter[a] = loop->var;
        into->push_back(loop);
        into = &loop->body;
        ++loops;
      }
      into->push_back(update(counter, offset));
      closeLoops(loops);
    } else {
      // Two to five reads at offsets as written.
      const int none[3] = {-1, -1, -1};
      const unsigned reads = static_cast<unsigned>(r_.range(2, 5));
      for (unsigned n = 0; n < reads; ++n) {
        std::int64_t offset[3] = {0, 0, 0};
        for (unsigned a = 0; a < rank; ++a) offset[a] = r_.range(-1, 1);
        body.push_back(update(none, offset));
      }
    }
    // (Where the planes are streamed, at most one statement after the loop: the entry runs them as
    // selects, which loops, switches and returns inside other statements rule out.)
    auto after = block(0, planes ? static_cast<unsigned>(r_.range(0, 1)) : statements / 3, false);
    body.insert(body.end(), after.begin(), after.end());
    endShape(floor);
    return body;
  }

  // Loop-free statements, then `acc = <conv>;` and a perfect nest of three counted loops (c, r, s)
  // adding products of an input read by the position and a filter read by the channel (a
  // convolution over (channel i, position j, k), the shape the convolution plan lifts), then
  // loop-free statements: acc = acc + x[((c * 6) + j + r) * 6 + k + s] * w[((i * 3 + c) * 3 + r) * 3 + s]
  // with c, r, s below 1 to 3 each (6 x 6 planes of x per c: in bounds for j, k < 4); nothing
  // else reads either array.
  std::vector<GStmtPtr> convolution(GFunction& f, unsigned statements) {
    const ShapeParams q = shapeParams(f);
    if (q.inputs.empty() || q.axis[0] < 0 || q.axis[1] < 0 || q.axis[2] < 0) return block(0, statements, false);
    const int x = r_.pick(q.inputs), w = r_.pick(q.inputs);
    fn_->vars[static_cast<std::size_t>(x)].extent = kPlanArrayLength;
    fn_->vars[static_cast<std::size_t>(w)].extent = kPlanArrayLength;
    const int floor = beginShape(f, {x, w});
    std::vector<GStmtPtr> body;  // (no statements before: an early return would rule the plan out)
    const Scalar t = r_.chance(50) ? Scalar::F32 : Scalar::F64;
    auto acc = accumulator(t);
    body.push_back(acc);
    auto add = [&](GExprPtr a, GExprPtr b) { return binary("+", Scalar::I32, std::move(a), std::move(b)); };
    auto mul = [&](GExprPtr a, std::int64_t n) { return binary("*", Scalar::I32, std::move(a), intLit(n)); };
    int counter[3];
    std::vector<GStmtPtr>* into = &body;
    for (int& c : counter) {
      auto loop = openPlainLoop(0, r_.range(1, 3), "c");
      c = loop->var;
      into->push_back(loop);
      into = &loop->body;
    }
    // x[((c * 6) + j + r) * 6 + k + s] and w[((i * 3 + c) * 3 + r) * 3 + s].
    auto position = add(mul(add(add(mul(var(counter[0]), 6), asInt(var(q.axis[1]))), var(counter[1])), 6),
                        add(asInt(var(q.axis[2])), var(counter[2])));
    auto channel = add(mul(add(mul(add(mul(asInt(var(q.axis[0])), 3), var(counter[0])), 3), var(counter[1])), 3),
                       var(counter[2]));
    auto update = stmt(GStmtKind::Assign);
    update->var = acc->var;
    update->a = binary("+", t, var(acc->var),
                       binary("*", t, castTo(t, unmaskedRead(x, std::move(position))),
                              castTo(t, unmaskedRead(w, std::move(channel)))));
    into->push_back(update);
    closeLoops(3);
    auto after = block(0, statements / 3, false);
    body.insert(body.end(), after.begin(), after.end());
    endShape(floor);
    f.convolution = true;
    return body;
  }

  // Loop-free statements, then `acc = <conv>;` and a counted loop that writes as it goes (a scan,
  // the shape the scan plan lifts): `acc = acc op a[i * W + c]; o[i * W + c] = acc;` (converted),
  // then loop-free statements. The loop's trip count is at most the row width W, so that rows do
  // not overlap (each output writes its own row of o); the arrays have elements of one size and
  // 1,024 of them; nothing else reads either array or writes o.
  std::vector<GStmtPtr> scan(GFunction& f, unsigned statements) {
    const int axis = shapeParams(f).axis[0];
    std::vector<std::pair<int, int>> pairs;  // (read, written)
    for (unsigned p = 0; p < f.numParams; ++p)
      for (unsigned q = 0; q < f.numParams; ++q) {
        const GVar &a = f.vars[p], &o = f.vars[q];
        if (a.isArray && !a.writable && !a.isStruct() && o.isArray && o.writable && !o.isStruct() &&
            static_cast<int>(q) != f.checksumOut && byteSize(a.type) == byteSize(o.type))
          pairs.emplace_back(static_cast<int>(p), static_cast<int>(q));
      }
    if (axis < 0 || pairs.empty()) return block(0, statements, false);
    const auto [array, out] = r_.pick(pairs);
    fn_->vars[static_cast<std::size_t>(array)].extent = kPlanArrayLength;
    fn_->vars[static_cast<std::size_t>(out)].extent = kPlanArrayLength;
    const int floor = beginShape(f, {array, out});
    scanOut_ = out;
    std::vector<GStmtPtr> body = block(0, statements / 3, false);
    const Scalar t = r_.chance(50) ? v(array).type : (r_.chance(50) ? Scalar::F64 : Scalar::I64);
    auto acc = accumulator(t);
    body.push_back(acc);
    static const std::int64_t kWidths[] = {4, 9, 16};
    const std::int64_t width = r_.pick(kWidths);
    auto loop = openPlainLoop(0, r_.range(0, std::min<std::int64_t>(width, 9)), "c");
    // i * W + c, in int (the index's own type may be unsigned: int keeps the plan's unit steps).
    auto index = [&] {
      return binary("+", Scalar::I32, binary("*", Scalar::I32, asInt(var(axis)), intLit(width)), var(loop->var));
    };
    // Integer accumulators wrap (unsigned arithmetic), floating ones add, multiply or keep the largest.
    auto update = stmt(GStmtKind::Assign);
    update->var = acc->var;
    const GExprPtr term = castTo(t, unmaskedRead(array, index()));
    if (isFloat(t)) {
      if (r_.chance(20)) update->a = math(r_.chance(50) ? "max" : "min", t, {var(acc->var), term});
      else update->a = binary(r_.chance(80) ? "+" : "*", t, var(acc->var), term);
    } else {
      auto wrap = [&](GExprPtr x) {
        auto c = make(GExprKind::Cast, Scalar::U64);
        c->args.push_back(std::move(x));
        return c;
      };
      auto sum = binary("+", Scalar::U64, wrap(var(acc->var)), wrap(term));
      update->a = castTo(t, std::move(sum));
    }
    loop->body.push_back(update);
    auto write = stmt(GStmtKind::Store);
    write->var = out;
    write->unmasked = true;
    GExprPtr at = index();
    freeze(at);
    write->args = {std::move(at), castTo(v(out).type, var(acc->var))};
    loop->body.push_back(write);
    closeLoops(1);
    body.push_back(loop);
    auto after = block(0, statements / 3, false);
    body.insert(body.end(), after.begin(), after.end());
    endShape(floor);
    f.scan = true;
    return body;
  }

  // ---- what the planners' shapes share ------------------------------------------------------
  // A kernel's readable array parameters (arrays of structs aside) and its index parameter of
  // each axis (-1 where it has none).
  struct ShapeParams {
    std::vector<int> inputs;
    int axis[3] = {-1, -1, -1};
  };
  static ShapeParams shapeParams(const GFunction& f) {
    ShapeParams q;
    for (unsigned p = 0; p < f.numParams; ++p) {
      if (f.vars[p].isArray && !f.vars[p].writable && !f.vars[p].isStruct()) q.inputs.push_back(static_cast<int>(p));
      if (f.vars[p].axis >= 0 && f.vars[p].axis < 3) q.axis[f.vars[p].axis] = static_cast<int>(p);
    }
    return q;
  }
  static GExprPtr intLit(std::int64_t n) { return lit(Scalar::I32, bitsOfInt(Scalar::I32, n)); }
  // x in int (an index parameter may be unsigned or 64-bit: int keeps a plan's index arithmetic).
  static GExprPtr asInt(GExprPtr x) {
    if (x->type == Scalar::I32) return x;
    auto c = make(GExprKind::Cast, Scalar::I32);
    c->args.push_back(std::move(x));
    return c;
  }
  // `array[index]`, unmasked (in bounds by the shape's construction), the index frozen.
  GExprPtr unmaskedRead(int array, GExprPtr index) const {
    auto e = make(GExprKind::Index, v(array).type);
    e->var = array;
    e->unmasked = true;
    freeze(index);
    e->args.push_back(std::move(index));
    return e;
  }
  // `T acc<n> = <conv>;`, declared in the current scope.
  GStmtPtr accumulator(Scalar t) {
    auto acc = stmt(GStmtKind::Decl);
    acc->a = conv(t, 2);
    acc->var = newVar(GVar{fresh("acc"), t, 0, false, false, true, false, -1});
    return acc;
  }
  // A counted loop the planner lifts (`plain`: no checksum folds inside it), `for (int <stem><n> =
  // from; <stem><n> < to; ++<stem><n>)`, its counter in a scope of its own; closeLoops(n) leaves
  // the n innermost.
  GStmtPtr openPlainLoop(std::int64_t from, std::int64_t to, const char* stem) {
    auto loop = stmt(GStmtKind::For);
    loop->plain = true;
    loop->from = from;
    loop->to = to;
    loop->step = 1;
    scopes_.emplace_back();
    loop->var = newVar(GVar{fresh(stem), Scalar::I32, 0, false, false, false, false, -1});
    ++loopDepth_;
    return loop;
  }
  void closeLoops(std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
      --loopDepth_;
      scopes_.pop_back();
    }
  }
  // The statements of a shape and around it: no loops of their own, no array parameter written,
  // `excluded` read by nothing else. Returns what endShape restores.
  int beginShape(const GFunction& f, std::vector<int> excluded) {
    excluded_ = std::move(excluded);
    noLoops_ = true;
    const int floor = writeFloor_;
    writeFloor_ = std::max(writeFloor_, static_cast<int>(f.numParams));
    return floor;
  }
  void endShape(int floor) {
    writeFloor_ = floor;
    noLoops_ = false;
    excluded_.clear();
  }

  static void freeze(const GExprPtr& e) {
    e->frozen = true;
    for (auto& a : e->args) freeze(a);
  }

  // ---- variables and scopes ---------------------------------------------------------------
  const GVar& v(int id) const { return fn_->vars[static_cast<std::size_t>(id)]; }

  int newVar(GVar var) {
    fn_->vars.push_back(std::move(var));
    const int id = static_cast<int>(fn_->vars.size() - 1);
    scopes_.back().push_back(id);
    return id;
  }
  std::string fresh(const char* stem) { return stem + std::to_string(counter_++); }

  // Variables in scope; inside a lambda's body, only those of the outer function it can
  // capture (no references, no lambdas, arrays only local and by reference).
  template <typename Pred> std::vector<int> visible(Pred pred) const {
    std::vector<int> out;
    for (std::size_t si = 0; si < scopes_.size(); ++si)
      for (int id : scopes_[si]) {
        const GVar& x = v(id);
        if (lambdaScope_ >= 0 && si < static_cast<std::size_t>(lambdaScope_) &&
            (x.isRef || x.isLambda || x.templateParam || x.isBinding ||
             (x.isArray && (x.isParam || x.isStruct() || lambdaCapture_ == "="))))
          continue;
        if (std::find(excluded_.begin(), excluded_.end(), id) == excluded_.end() && pred(x)) out.push_back(id);
      }
    return out;
  }
  // Whether a statement here may write variable `id` (a lambda that writes no outer variable
  // sees them read-only).
  bool canWrite(int id) const { return v(id).writable && id >= writeFloor_; }
  int idOf(const GVar& x) const { return static_cast<int>(&x - fn_->vars.data()); }

  // ---- expressions --------------------------------------------------------------------------
  static GExprPtr make(GExprKind k, Scalar t) {
    auto e = std::make_shared<GExpr>();
    e->kind = k;
    e->type = t;
    return e;
  }
  static GExprPtr lit(Scalar t, std::uint64_t bits) {
    auto e = make(GExprKind::Lit, t);
    e->bits = bits;
    return e;
  }
  GExprPtr var(int id) const {
    auto e = make(GExprKind::Var, v(id).type);
    e->var = id;
    return e;
  }
  static GExprPtr binary(const std::string& op, Scalar t, GExprPtr a, GExprPtr b) {
    auto e = make(GExprKind::Binary, t);
    e->op = op;
    e->args = {std::move(a), std::move(b)};
    return e;
  }

  GExprPtr randomLit(Scalar t) {
    if (t == Scalar::Bool) return lit(t, r_.below(2));
    if (isFloat(t)) {
      double d = static_cast<double>(r_.range(-32, 32)) / 4.0;
      if (r_.chance(20)) d = static_cast<double>(r_.range(-1000000, 1000000)) / 1024.0;
      if (r_.chance(5)) d = t == Scalar::F32 ? 3.4e38 : 1.7e308;
      if (r_.chance(5)) d = 1e-40;
      return lit(t, bitsOfFloat(t, d));
    }
    if (r_.chance(10)) {  // an extreme of the type
      const unsigned w = bitWidth(t);
      if (isSignedInt(t)) {
        const std::int64_t mx = static_cast<std::int64_t>((std::uint64_t{1} << (w - 1)) - 1);
        return lit(t, bitsOfInt(t, r_.chance(50) ? mx : -mx - 1));
      }
      return lit(t, w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1);
    }
    const std::int64_t lo = isSignedInt(t) ? -20 : 0;
    return lit(t, bitsOfInt(t, r_.range(lo, 40)));
  }

  GExprPtr leaf(Scalar t) {
    if (structsHere() && r_.chance(15)) {
      if (r_.chance(25))
        if (auto m = methodCall(t, false, 1)) return m;
      if (auto f = fieldRead(t)) return f;
    }
    if (r_.chance(12)) {
      auto arrays = visible([&](const GVar& x) { return x.isArray && x.type == t && !(x.isParam && x.writable); });
      if (!arrays.empty()) return indexRead(r_.pick(arrays), 1);
    }
    auto vars = visible([&](const GVar& x) { return !x.isArray && x.type == t; });
    if (!vars.empty() && r_.chance(75)) return var(r_.pick(vars));
    return randomLit(t);
  }

  // A value of the function's arguments, often: a scalar parameter of type t or an element of an
  // input array of t (its last bits vary with the argument set), else a leaf.
  GExprPtr argumentLeaf(Scalar t) {
    auto params = visible([&](const GVar& x) {
      return x.isParam && !x.isStruct() && !x.isRef && x.type == t && (!x.isArray || !x.writable);
    });
    if (params.empty() || r_.chance(40)) return leaf(t);
    const int p = r_.pick(params);
    return v(p).isArray ? indexRead(p, 1) : var(p);
  }

  GExprPtr indexRead(int array, int depth) {
    auto e = make(GExprKind::Index, v(array).type);
    e->var = array;
    e->args.push_back(depth > 0 ? genExpr(r_.pick(kInts), depth - 1) : leaf(Scalar::I32));
    return e;
  }

  GExprPtr clampTo(Scalar to, GExprPtr e) {
    const auto key = std::make_pair(static_cast<int>(to), static_cast<int>(e->type));
    auto it = clamps_.find(key);
    if (it == clamps_.end()) {
      GFunction f;
      f.name = prefix_ + "to_" + std::string(spelling(to) == "bool" ? "b" : "") + std::to_string(static_cast<int>(to)) +
               "_from_" + std::to_string(static_cast<int>(e->type));
      f.isClampHelper = true;
      f.returnType = to;
      f.clampFrom = e->type;
      f.vars.push_back(GVar{"x", e->type, 0, false, true, false, false, -1});
      f.numParams = 1;
      it = clamps_.emplace(key, std::move(f)).first;
    }
    auto c = make(GExprKind::Clamp, to);
    c->callee = it->second.name;
    c->args = {std::move(e)};
    return c;
  }

  GExprPtr castTo(Scalar to, GExprPtr e) {
    if (e->type == to) return e;
    if (isFloat(e->type) && isInt(to)) return clampTo(to, std::move(e));
    auto c = make(GExprKind::Cast, to);
    c->args = {std::move(e)};
    return c;
  }

  // An expression of type t, often converted from another type.
  GExprPtr conv(Scalar t, int depth) {
    if (r_.chance(70)) return genExpr(t, depth);
    return castTo(t, genExpr(anyScalar(), depth - 1));
  }

  GExprPtr genExpr(Scalar t, int depth) {
    if (depth <= 0 || r_.chance(22)) return leaf(t);
    if (t == Scalar::Bool) return genBool(depth);
    if (isFloat(t)) return genFloat(t, depth);
    if (isSmallInt(t)) return genSmall(t, depth);
    return genInt(t, depth);
  }

  // Two operand types whose usual arithmetic conversion is the promoted type p.
  std::pair<Scalar, Scalar> operandTypes(Scalar p) {
    Scalar a = p, b = p;
    if (r_.chance(50)) {
      if (p == Scalar::I32) {
        a = r_.chance(50) ? Scalar::I32 : r_.pick(kSmall);
        b = r_.chance(50) ? Scalar::I32 : r_.pick(kSmall);
      } else if (p == Scalar::U32) {
        static const Scalar o[] = {Scalar::Bool, Scalar::I8, Scalar::U16, Scalar::I32, Scalar::U32};
        b = r_.pick(o);
      } else if (p == Scalar::I64) {
        static const Scalar o[] = {Scalar::I8, Scalar::U16, Scalar::I32, Scalar::U32, Scalar::I64};
        b = r_.pick(o);
      } else {
        b = r_.pick(kInts);
      }
      if (r_.chance(50)) std::swap(a, b);
    }
    return {a, b};
  }

  Scalar promotingTo(Scalar p) { return p == Scalar::I32 && r_.chance(40) ? r_.pick(kSmall) : p; }

  GExprPtr arithmetic(const std::string& op, Scalar p, int depth) {
    auto [ta, tb] = operandTypes(p);
    auto e = binary(op, p, genExpr(ta, depth - 1), genExpr(tb, depth - 1));
    if (isFloat(p) || !isSignedInt(p)) return e;
    const bool small = isSmallInt(ta) && isSmallInt(tb);
    if (small && !(op == "*" && ta == Scalar::U16 && tb == Scalar::U16)) return e;  // no overflow in int
    if (r_.chance(50)) {
      e->arith = Arith::Wrapped;
    } else {
      e->arith = Arith::Bounded;
      e->bound = op == "*" ? (p == Scalar::I32 ? 46340 : 3037000499LL) : (p == Scalar::I32 ? (1LL << 30) : (1LL << 62));
    }
    return e;
  }

  GExprPtr division(const std::string& op, Scalar p, int depth) {
    auto [ta, tb] = operandTypes(p);
    if (r_.chance(50)) {  // a literal divisor, never 0 or -1: the dividend may be anything
      std::int64_t d = 0;
      while (d == 0 || d == -1) d = r_.range(isSignedInt(tb) ? -9 : 1, 13);
      if (tb == Scalar::Bool) d = 1;
      auto e = binary(op, p, genExpr(ta, depth - 1), lit(tb, bitsOfInt(tb, d)));
      return e;
    }
    auto e = binary(op, p, leaf(ta), leaf(tb));
    e->guarded = true;
    return e;
  }

  GExprPtr math(const std::string& name, Scalar t, std::vector<GExprPtr> args) {
    auto e = make(GExprKind::Math, t);
    e->name = name;
    e->args = std::move(args);
    return e;
  }

  // `e` with a NaN replaced by the type's lowest value: std::fmax(e, lowest) is e for every
  // other value (-inf becomes lowest, also negative), so its sign is e's sign. The sign and
  // payload of a NaN are promised by nobody (docs/numerical-contract.md): the host library,
  // GCC's constant folder and CUDA each choose their own. A program that reads the sign of a
  // possible NaN (std::signbit, std::copysign's sign argument) reads it through this.
  GExprPtr notNaN(GExprPtr e) {
    const Scalar t = e->type;
    const std::uint64_t lowest = t == Scalar::F32 ? std::bit_cast<std::uint32_t>(std::numeric_limits<float>::lowest())
                                                  : std::bit_cast<std::uint64_t>(std::numeric_limits<double>::lowest());
    return math("fmax", t, {std::move(e), lit(t, lowest)});
  }

  GExprPtr minMaxClamp(Scalar t, int depth) {
    // std::min(T, long long) would not deduce for T = long: no min/max/clamp of a type template's
    // 64-bit type.
    if (fn_->templateKind == GFunction::kTemplateType && t == fn_->generic && (t == Scalar::I64 || t == Scalar::U64))
      return genExpr(t, depth - 1);
    const unsigned roll = static_cast<unsigned>(r_.below(3));
    if (roll < 2) return math(roll ? "max" : "min", t, {genExpr(t, depth - 1), genExpr(t, depth - 1)});
    // clamp(v, lo, hi) needs lo <= hi: two literals, ordered.
    GExprPtr lo = randomLit(t), hi = randomLit(t);
    auto less = [&](const GExpr& a, const GExpr& b) {
      if (isFloat(t)) {
        double x, y;
        if (t == Scalar::F32) {
          float fx, fy;
          std::uint32_t bx = static_cast<std::uint32_t>(a.bits), by = static_cast<std::uint32_t>(b.bits);
          std::memcpy(&fx, &bx, 4);
          std::memcpy(&fy, &by, 4);
          x = fx, y = fy;
        } else {
          std::memcpy(&x, &a.bits, 8);
          std::memcpy(&y, &b.bits, 8);
        }
        return x < y;
      }
      if (isSignedInt(t)) return intOfBits(t, a.bits) < intOfBits(t, b.bits);
      return a.bits < b.bits;
    };
    if (less(*hi, *lo)) std::swap(lo, hi);
    return math("clamp", t, {genExpr(t, depth - 1), lo, hi});
  }

  std::string templateArgs(const Callable& c) {
    if (c.templateKind == GFunction::kTemplateValue)
      return "<" + std::to_string(r_.pick(c.nValues)) + ">" + (c.classTemplate ? "::eval" : "");
    if (c.templateKind == GFunction::kTemplateType) return "<" + r_.pick(c.spellings) + ">";
    return "";
  }

  // A call of a helper (its out-parameter, if any, left to the caller), or null.
  GExprPtr helperCall(const Callable& c, int depth) {
    auto e = make(c.retStruct >= 0 ? GExprKind::StructCall : GExprKind::Call, c.ret);
    e->strct = c.retStruct;
    e->callee = c.name;
    e->templateArgs = templateArgs(c);
    for (const GVar& p : c.params) {
      if (p.isStruct()) {
        if (p.isRef && p.writable) {
          // S&: a struct variable the caller may write (GExpr::slots: folded after the call).
          auto targets = visible([&](const GVar& x) { return x.strct == p.strct && !x.isArray && canWrite(idOf(x)); });
          if (targets.empty()) return nullptr;
          e->slots.push_back(static_cast<int>(e->args.size()));
          e->args.push_back(structVar(r_.pick(targets)));
        } else {
          e->args.push_back(structOperand(p.strct, 1));
        }
        continue;
      }
      if (p.isRef && p.writable) continue;  // the out-parameter: GExpr::outVar
      if (p.isArray) {
        auto arrays = visible([&](const GVar& x) { return x.isArray && x.isParam && !x.writable && x.type == p.type; });
        if (arrays.empty()) return nullptr;
        e->args.push_back(var(r_.pick(arrays)));
      } else {
        e->args.push_back(conv(p.type, depth - 1));
      }
    }
    return e;
  }

  // A call of lambda `id`: directly, or through the program's apply template (by value or by
  // reference) when it takes one argument.
  GExprPtr lambdaCall(int id, int depth) {
    const GStmt& l = *lambdaStmts_.at(id);
    auto e = make(GExprKind::Call, l.retType);
    e->callee = v(id).name;
    e->var = id;
    if (l.params.size() == 1 && r_.chance(35)) {
      const bool byRef = r_.chance(50);
      needApply_[byRef] = true;
      e->viaApply = true;
      e->callee = applyName(byRef);
      e->templateArgs = "<" + cppType(l.retType) + ">";
    }
    for (int p : l.params) e->args.push_back(conv(v(p).type, depth - 1));
    return e;
  }
  std::string applyName(bool byRef) const { return prefix_ + (byRef ? "applyr" : "apply"); }

  GExprPtr call(Scalar t, int depth) {
    std::vector<const Callable*> fits;
    for (const Callable& c : callables_)
      if (c.ret == t && !c.writes() && (!c.needsArrays || fn_->kernel)) fits.push_back(&c);
    // Lambdas that write no outer variable are called in expressions too.
    std::vector<int> lambdas;
    if (!inLambda_)
      for (int id : visible([](const GVar& x) { return x.isLambda; })) {
        const GStmt& l = *lambdaStmts_.at(id);
        if (!l.mutating && l.retType == t) lambdas.push_back(id);
      }
    // Const member functions of the structs in scope.
    if (structsHere() && r_.chance(30))
      if (auto m = methodCall(t, false, depth)) return m;
    if (fits.empty() && lambdas.empty()) return nullptr;
    const std::size_t k = r_.below(fits.size() + lambdas.size());
    if (k >= fits.size()) return lambdaCall(lambdas[k - fits.size()], depth);
    return helperCall(*fits[k], depth);
  }

  GExprPtr common(Scalar t, int depth, unsigned roll) {
    // Forms every type has: conditional, call, array read, comma. Null when none applies.
    if (roll < 30) {
      auto e = make(GExprKind::Cond, t);
      e->args = {genExpr(Scalar::Bool, depth - 1), genExpr(t, depth - 1), genExpr(t, depth - 1)};
      return e;
    }
    if (roll < 60) return call(t, depth);
    if (roll < 85) {
      auto arrays = visible([&](const GVar& x) { return x.isArray && x.type == t && !(x.isParam && x.writable); });
      return arrays.empty() ? nullptr : indexRead(r_.pick(arrays), depth - 1);
    }
    auto e = make(GExprKind::Comma, t);
    e->args = {genExpr(anyScalar(), depth - 1), genExpr(t, depth - 1)};
    return e;
  }

  GExprPtr genInt(Scalar p, int depth) {
    const unsigned roll = static_cast<unsigned>(r_.below(100));
    if (roll < 26) {
      static const char* ops[] = {"+", "-", "*"};
      return arithmetic(r_.pick(ops), p, depth);
    }
    if (roll < 36) {
      static const char* ops[] = {"&", "|", "^"};
      auto [ta, tb] = operandTypes(p);
      return binary(r_.pick(ops), p, genExpr(ta, depth - 1), genExpr(tb, depth - 1));
    }
    if (roll < 46) return division(r_.chance(50) ? "/" : "%", p, depth);
    if (roll < 54) {
      auto e = binary(r_.chance(50) ? "<<" : ">>", p, genExpr(promotingTo(p), depth - 1),
                      genExpr(r_.pick(kInts), depth - 1));
      return e;
    }
    if (roll < 60) {
      const Scalar ta = promotingTo(p);
      auto e = make(GExprKind::Unary, p);
      e->op = r_.chance(60) ? "-" : "~";
      e->args = {genExpr(ta, depth - 1)};
      if (e->op == "-" && isSignedInt(p) && !isSmallInt(ta)) {
        e->arith = r_.chance(50) ? Arith::Wrapped : Arith::Bounded;
        e->bound = 1 << 30;
      }
      return e;
    }
    if (roll < 72) return castTo(p, genExpr(anyScalar(), depth - 1));
    if (roll < 78) {
      if ((p == Scalar::I32 || p == Scalar::I64) && r_.chance(30)) {
        auto e = math("abs", p, {genExpr(p, depth - 1)});
        e->bound = 1 << 30;
        return e;
      }
      return minMaxClamp(p, depth);
    }
    if (auto e = common(p, depth, static_cast<unsigned>(r_.below(100)))) return e;
    return leaf(p);
  }

  GExprPtr genSmall(Scalar t, int depth) {
    const unsigned roll = static_cast<unsigned>(r_.below(100));
    if (roll < 40) return castTo(t, genExpr(r_.chance(50) ? Scalar::I32 : anyScalar(), depth - 1));
    if (roll < 50 && t != Scalar::Bool) return minMaxClamp(t, depth);
    if (auto e = common(t, depth, static_cast<unsigned>(r_.below(100)))) return e;
    return leaf(t);
  }

  GExprPtr genBool(int depth) {
    const unsigned roll = static_cast<unsigned>(r_.below(100));
    if (roll < 35) {
      static const char* ops[] = {"<", ">", "<=", ">=", "==", "!="};
      Scalar ta = anyScalar(), tb = r_.chance(60) ? ta : anyScalar();
      // Floating operands are often the arguments themselves, NaNs and infinities included.
      auto operand = [&](Scalar t) { return isFloat(t) && r_.chance(50) ? leaf(t) : genExpr(t, depth - 1); };
      return binary(r_.pick(ops), Scalar::Bool, operand(ta), operand(tb));
    }
    if (roll < 50) {
      if (r_.chance(25)) {
        // A short-circuit guarding a division: evaluating both sides divides by zero.
        const Scalar p = r_.pick(kPromoted);
        auto e = make(GExprKind::GuardedLogical, Scalar::Bool);
        e->op = r_.chance(50) ? "&&" : "||";
        e->name = r_.chance(50) ? "/" : "%";
        e->args = {genExpr(p, depth - 1), leaf(p)};
        return e;
      }
      auto operand = [&] {
        return r_.chance(80) ? genExpr(Scalar::Bool, depth - 1) : genExpr(r_.pick(kPromoted), depth - 1);
      };
      return binary(r_.chance(50) ? "&&" : "||", Scalar::Bool, operand(), operand());
    }
    if (roll < 58) {
      auto e = make(GExprKind::Unary, Scalar::Bool);
      e->op = "!";
      e->args = {genExpr(Scalar::Bool, depth - 1)};
      return e;
    }
    if (roll < 68) {
      // signbit only in programs for the CPU legs (as before: the GPU leg's set is unchanged),
      // and never of a NaN (notNaN): a NaN's sign is unspecified everywhere.
      static const char* fns[] = {"isnan", "isinf", "isfinite", "signbit"};
      // The argument first, then the function: the order GCC evaluated the two in before, so a
      // seed still gives the programs it gave.
      GExprPtr arg = genExpr(r_.chance(50) ? Scalar::F32 : Scalar::F64, depth - 1);
      const char* fn = fns[r_.below(o_.exactMathOnly ? 3 : 4)];
      return math(fn, Scalar::Bool, {std::string(fn) == "signbit" ? notNaN(std::move(arg)) : std::move(arg)});
    }
    if (roll < 78) {
      if (structsHere() && r_.chance(20))
        if (auto e = structEq(depth)) return e;
      return castTo(Scalar::Bool, genExpr(anyScalar(), depth - 1));
    }
    if (auto e = common(Scalar::Bool, depth, static_cast<unsigned>(r_.below(100)))) return e;
    return leaf(Scalar::Bool);
  }

  GExprPtr genFloat(Scalar t, int depth) {
    const unsigned roll = static_cast<unsigned>(r_.below(100));
    if (roll < 30) {
      static const char* ops[] = {"+", "-", "*", "/"};
      Scalar ta = t, tb = t;
      const unsigned mix = static_cast<unsigned>(r_.below(4));
      if (mix == 1) tb = r_.pick(kInts);
      if (mix == 2 && t == Scalar::F64) tb = Scalar::F32;
      if (r_.chance(50)) std::swap(ta, tb);
      return binary(r_.pick(ops), t, genExpr(ta, depth - 1), genExpr(tb, depth - 1));
    }
    if (roll < 36) {
      auto e = make(GExprKind::Unary, t);
      e->op = "-";
      e->args = {genExpr(t, depth - 1)};
      return e;
    }
    if (roll < 60) {
      const bool exact = o_.exactMathOnly || r_.chance(50);
      // A float transcendental often of an argument itself, often one whose float function is
      // not the double one rounded: its last bit reaches the checksum.
      const bool leafArgs = t == Scalar::F32 && !exact && r_.chance(50);
      // copysign only in programs for the CPU legs (see signbit), its sign never a NaN's.
      const auto& [name, arity] = exact ? kExactMath[r_.below(kExactMath.size() - (o_.exactMathOnly ? 1 : 0))]
                                  : leafArgs && r_.chance(50) ? r_.pick(kMisrounded)
                                                              : r_.pick(kTranscendental);
      std::vector<GExprPtr> args;
      const bool intArg = t == Scalar::F64 && arity == 1 && r_.chance(10);
      for (unsigned a = 0; a < arity; ++a)
        args.push_back(leafArgs ? argumentLeaf(t) : genExpr(intArg ? Scalar::I32 : t, depth - 1));
      if (name == "copysign") args[1] = notNaN(std::move(args[1]));
      auto e = math(name, t, std::move(args));
      e->cForm = t == Scalar::F32 && r_.chance(25);
      // The sign of fmin(-0.0, +0.0) is C++'s to leave open (x86-64 builds differ between -O0
      // and -O2; culift orders -0.0 first, as the GPU does): `+ 0.0` makes a zero result +0.0.
      if (name == "fmin" || name == "fmax") return binary("+", t, std::move(e), lit(t, bitsOfFloat(t, 0.0)));
      return e;
    }
    if (roll < 66) {
      if (r_.chance(30)) return math("abs", t, {genExpr(t, depth - 1)});
      return minMaxClamp(t, depth);
    }
    if (roll < 78) {
      if (t == Scalar::F32 && r_.chance(40)) {
        // A double zero with a sign (x * ±0.0), narrowed: -0.0 must stay negative.
        const double zero = r_.chance(50) ? -0.0 : 0.0;
        return castTo(t, binary("*", Scalar::F64, genExpr(Scalar::F64, depth - 1),
                                lit(Scalar::F64, bitsOfFloat(Scalar::F64, zero))));
      }
      return castTo(t, genExpr(anyScalar(), depth - 1));
    }
    if (auto e = common(t, depth, static_cast<unsigned>(r_.below(100)))) return e;
    return leaf(t);
  }

  // ---- statements ---------------------------------------------------------------------------
  static GStmtPtr stmt(GStmtKind k) {
    auto s = std::make_shared<GStmt>();
    s->kind = k;
    return s;
  }

  std::vector<GStmtPtr> block(int nest, unsigned count, bool pushScope = true) {
    if (pushScope) scopes_.emplace_back();
    std::vector<GStmtPtr> out;
    for (unsigned n = 0; n < count; ++n) {
      if (auto s = genStmt(nest)) out.push_back(std::move(s));
      for (GStmtPtr& p : pending_) out.push_back(std::move(p));
      pending_.clear();
    }
    if (pushScope) scopes_.pop_back();
    return out;
  }

  std::vector<int> writableScalars() const {
    return visible([&](const GVar& x) { return !x.isArray && !x.isStruct() && x.writable && idOf(x) >= writeFloor_; });
  }

  // ---- templates, references, range for, lambdas ------------------------------------------
  GStmtPtr newConstruct(int nest) {
    if (templateParam_ >= 0 && r_.chance(40)) return ifConstexpr(nest);
    const unsigned roll = static_cast<unsigned>(r_.below(100));
    if (roll < 25) return refDecl();
    if (roll < 55) return rangeFor(nest);
    if (roll < 77) return lambda(nest);
    if (roll < 92) return refCall();
    return ifConstexpr(nest);
  }

  // T& r = x;  or  T& r = arr[index];  (const T& for a read-only alias)
  GStmtPtr refDecl() {
    auto s = stmt(GStmtKind::RefDecl);
    bool writable = false;
    Scalar t;
    if (r_.chance(40)) {
      // An element of a local array, or of an input array (never of an output: other threads
      // write those on the GPU).
      auto arrays = visible([](const GVar& x) { return x.isArray && !x.isStruct() && (!x.isParam || !x.writable); });
      if (arrays.empty()) return nullptr;
      s->target = r_.pick(arrays);
      writable = canWrite(s->target) && !v(s->target).isParam && r_.chance(75);
      t = v(s->target).type;
      s->args.push_back(genExpr(r_.pick(kInts), 1));
    } else {
      auto vars = visible([](const GVar& x) { return !x.isArray && !x.isStruct() && !x.isLambda && !x.templateParam; });
      if (vars.empty()) return nullptr;
      s->target = r_.pick(vars);
      writable = canWrite(s->target) && r_.chance(75);
      t = v(s->target).type;
    }
    s->op = writable ? "" : "const";
    GVar r{fresh("r"), t, 0, false, false, writable, false, -1};
    r.isRef = true;
    s->var = newVar(r);
    return s;
  }

  // for (T& e : arr) / for (U e : arr) over a local array; for (S& e : sa) / for (S e : sa) over a
  // local array of structs.
  GStmtPtr rangeFor(int nest) {
    if (nest >= 3 || loopDepth_ >= 2 || noLoops_) return nullptr;
    auto arrays = visible([](const GVar& x) { return x.isArray && !x.isParam; });
    if (arrays.empty()) return nullptr;
    auto s = stmt(GStmtKind::RangeFor);
    s->target = r_.pick(arrays);
    const Scalar at = v(s->target).type;
    const bool byRef = r_.chance(60);
    Scalar et = at;
    // A copy may convert: integers to anything, floating values to floating types only (a
    // floating value out of an integer's range would be undefined).
    if (!byRef && r_.chance(30) && !v(s->target).isStruct())
      et = isFloat(at) ? (r_.chance(50) ? Scalar::F32 : Scalar::F64) : anyScalar();
    GVar e{fresh("e"), et, 0, false, false, byRef ? canWrite(s->target) : true, false, -1};
    e.isRef = byRef;
    e.strct = v(s->target).strct;
    s->op = byRef ? "&" : "";
    scopes_.emplace_back();
    s->var = newVar(e);
    ++loopDepth_;
    s->body = block(nest + 1, static_cast<unsigned>(r_.range(1, 3)));
    --loopDepth_;
    scopes_.pop_back();
    return s;
  }

  // auto f = [capture](params) -> R { ... return a; };  then a call of it (in a loop, often).
  GStmtPtr lambda(int nest) {
    if (inLambda_ || inMethod_ || noLoops_ || fn_->templateKind != GFunction::kNone || nest >= 3) return nullptr;
    auto s = stmt(GStmtKind::Lambda);
    const unsigned capture = static_cast<unsigned>(r_.below(3));
    s->op = capture == 0 ? "&" : capture == 1 ? "=" : "list";
    s->mutating = s->op != "=" && r_.chance(40);
    s->generic = r_.chance(25);
    s->retType = anyScalar();
    s->firstOwnVar = static_cast<int>(fn_->vars.size());
    const int savedLoop = loopDepth_, savedFloor = writeFloor_, savedScope = lambdaScope_;
    const Scalar savedRet = ret_;
    const int savedRetStruct = retStruct_;
    retStruct_ = -1;
    inLambda_ = true;
    loopDepth_ = 0;
    ret_ = s->retType;
    if (!s->mutating) writeFloor_ = s->firstOwnVar;
    lambdaScope_ = static_cast<int>(scopes_.size());
    lambdaCapture_ = s->op;
    scopes_.emplace_back();
    const unsigned params = static_cast<unsigned>(r_.below(3));
    for (unsigned p = 0; p < params; ++p)
      s->params.push_back(newVar(GVar{fresh("la"), anyScalar(), 0, false, false, true, false, -1}));
    s->body = block(nest + 1, static_cast<unsigned>(r_.range(1, 3)), false);
    s->a = conv(s->retType, 2);
    scopes_.pop_back();
    inLambda_ = false;
    loopDepth_ = savedLoop;
    writeFloor_ = savedFloor;
    lambdaScope_ = savedScope;
    ret_ = savedRet;
    retStruct_ = savedRetStruct;
    GVar f{fresh("f"), Scalar::Void, 0, false, false, false, false, -1};
    f.isLambda = true;
    s->var = newVar(f);
    lambdaStmts_[s->var] = s;
    // Its call: the whole value of a declaration (a lambda writing outer variables is called
    // nowhere else), in a counted loop when one may nest here.
    auto callDecl = [&] {
      auto d = stmt(GStmtKind::Decl);
      d->a = lambdaCall(s->var, 2);
      d->var = newVar(GVar{fresh("v"), s->retType, 0, false, false, true, false, -1});
      return d;
    };
    if (loopDepth_ < 2 && r_.chance(50)) {
      auto loop = stmt(GStmtKind::For);
      loop->from = 0;
      loop->to = r_.range(1, 4);
      loop->step = 1;
      scopes_.emplace_back();
      loop->var = newVar(GVar{fresh("c"), Scalar::I32, 0, false, false, false, false, -1});
      ++loopDepth_;
      loop->body.push_back(callDecl());
      --loopDepth_;
      scopes_.pop_back();
      pending_.push_back(loop);
    } else {
      pending_.push_back(callDecl());
    }
    return s;
  }

  // T v = h(args, out);  a helper writing its out-parameter `out`, or a lambda writing outer
  // variables: nothing else in the statement reads what they write.
  GStmtPtr refCall() {
    auto d = stmt(GStmtKind::Decl);
    if (structsHere() && r_.chance(30)) {
      // A member function writing its object (the object's fields folded after).
      d->a = methodCall(anyScalar(), true, 2);
      if (!d->a) return nullptr;
    } else if (!inLambda_ && r_.chance(40)) {
      std::vector<int> mutating;
      for (int id : visible([](const GVar& x) { return x.isLambda; }))
        if (lambdaStmts_.at(id)->mutating) mutating.push_back(id);
      if (mutating.empty()) return nullptr;
      d->a = lambdaCall(r_.pick(mutating), 2);
    } else {
      std::vector<const Callable*> fits;
      for (const Callable& c : callables_)
        if (c.writes() && c.retStruct < 0 && (!c.needsArrays || fn_->kernel)) fits.push_back(&c);
      if (fits.empty()) return nullptr;
      const Callable& c = *r_.pick(fits);
      std::vector<int> outs;
      if (c.refOut) {
        const Scalar outType = c.params.back().type;
        outs = visible([&](const GVar& x) { return !x.isArray && !x.isStruct() && x.type == outType; });
        std::erase_if(outs, [&](int id) { return !canWrite(id); });
        // In a template <typename T> over this type every such scalar is a T, and the instance
        // `long` (or `unsigned long`) cannot bind it to the helper's long long& (seed 20261259,
        // p2667: h1<long> calling h0(float, long long&) with its T).
        if (fn_->templateKind == GFunction::kTemplateType && fn_->generic == outType) outs.clear();
        if (outs.empty()) return nullptr;
      }
      d->a = helperCall(c, 2);
      if (!d->a) return nullptr;
      if (c.refOut) d->a->outVar = r_.pick(outs);
    }
    d->var = newVar(GVar{fresh("v"), d->a->type, 0, false, false, true, false, -1});
    return d;
  }

  // if constexpr (N <op> k) { ... } else { ... }  in a template <int N>.
  GStmtPtr ifConstexpr(int nest) {
    if (templateParam_ < 0 || nest >= 3) return nullptr;
    auto s = stmt(GStmtKind::IfConstexpr);
    s->var = templateParam_;
    static const char* ops[] = {"<", ">", "<=", ">=", "==", "!="};
    s->op = r_.pick(ops);
    s->from = r_.range(-2, 8);
    s->body = block(nest + 1, static_cast<unsigned>(r_.range(1, 3)));
    s->hasElse = r_.chance(70);
    if (s->hasElse) s->orelse = block(nest + 1, static_cast<unsigned>(r_.range(1, 3)));
    return s;
  }

  GStmtPtr store(int array, int depth) {
    auto s = stmt(GStmtKind::Store);
    s->var = array;
    const GVar& a = v(array);
    GExprPtr value;
    if (a.isParam && isFloat(a.type) && r_.chance(50)) {
      // A raw floating result in an output (the checksum folds NaNs as one value): arithmetic
      // on inputs, so a NaN argument's sign and payload, or an invalid operation's NaN, reach
      // the comparison (which is exact for NaNs between native -O0 and the interpreter).
      static const char* ops[] = {"+", "-", "*", "/"};
      value = binary(r_.pick(ops), a.type, leaf(a.type), genExpr(a.type, 1));
    } else {
      value = conv(a.type, depth);
    }
    s->args = {a.isParam ? own_ : genExpr(r_.pick(kInts), depth), value};
    s->unmasked = a.isParam && fn_->plainOwnIndex;
    return s;
  }

  GStmtPtr compound(int target) {
    auto s = stmt(GStmtKind::Compound);
    s->var = target;
    return compoundOp(*s, v(target).type) ? s : nullptr;
  }

  // s.op and s.a of `x op= a;` for an x of type t, none of which can overflow; false where none fits.
  bool compoundOp(GStmt& s, Scalar t) {
    if (isFloat(t)) {
      static const char* ops[] = {"+", "-", "*", "/"};
      s.op = r_.pick(ops);
      s.a = genExpr(r_.chance(70) ? t : r_.pick(kInts), 2);
      return true;
    }
    if (t == Scalar::Bool) return false;
    const unsigned roll = static_cast<unsigned>(r_.below(6));
    if (roll == 0) {  // bitwise: any integer operand
      static const char* ops[] = {"&", "|", "^"};
      s.op = r_.pick(ops);
      s.a = genExpr(r_.pick(kInts), 2);
      return true;
    }
    if (roll == 1) {  // division by a literal that is neither 0 nor -1
      s.op = r_.chance(50) ? "/" : "%";
      s.a = lit(Scalar::I32, bitsOfInt(Scalar::I32, r_.range(2, 9)));
      return true;
    }
    if (roll == 2) {  // shifts by an in-range literal; << only on unsigned types of int width and up
      const Scalar p = promote(t);
      if (isSignedInt(p) || r_.chance(50)) s.op = ">>";
      else s.op = "<<";
      s.a = lit(Scalar::I32, static_cast<std::uint64_t>(r_.below(bitWidth(p))));
      return true;
    }
    // + - *: operand types for which the computation cannot overflow.
    s.op = roll == 3 ? "+" : roll == 4 ? "-" : "*";
    Scalar rhs;
    if (t == Scalar::U64) rhs = r_.pick(kInts);
    else if (t == Scalar::U32) {
      static const Scalar o[] = {Scalar::I8, Scalar::U8, Scalar::I16, Scalar::U16, Scalar::I32, Scalar::U32};
      rhs = r_.pick(o);
    } else if (isSmallInt(t)) {
      static const Scalar o[] = {Scalar::Bool, Scalar::I8, Scalar::U8, Scalar::I16, Scalar::U16};
      rhs = r_.pick(o);
      if (s.op == "*" && t == Scalar::U16 && rhs == Scalar::U16) rhs = Scalar::U8;
    } else {
      return false;  // int and long long could overflow
    }
    s.a = genExpr(rhs, 2);
    return true;
  }

  GStmtPtr genStmt(int nest) {
    // (Not around a contraction's loop: the planner keeps its accumulator unaliased.)
    if (!noLoops_ && r_.chance(7))
      if (auto s = newConstruct(nest)) return s;
    if (structsHere() && r_.chance(16))
      if (auto s = structStmt(nest)) return s;
    const unsigned roll = static_cast<unsigned>(r_.below(100));
    if (roll < 18) {
      const Scalar t = anyScalar();
      auto s = stmt(GStmtKind::Decl);
      s->a = conv(t, 3);
      s->var = newVar(GVar{fresh("v"), t, 0, false, false, true, false, -1});
      return s;
    }
    if (roll < 23 && nest < 2 && !noLoops_) {
      const Scalar t = anyScalar();
      static const std::uint64_t extents[] = {2, 3, 4, 5, 8};
      const std::uint64_t n = r_.pick(extents);
      auto s = stmt(GStmtKind::ArrayDecl);
      const unsigned inits = static_cast<unsigned>(r_.below(n + 1));
      for (unsigned k = 0; k < inits; ++k) s->args.push_back(conv(t, 2));
      const bool isConst = r_.chance(25);
      s->var = newVar(GVar{fresh("arr"), t, n, true, false, !isConst, isConst, -1});
      return s;
    }
    if (roll < 38) {
      auto targets = writableScalars();
      if (targets.empty()) return nullptr;
      auto s = stmt(GStmtKind::Assign);
      s->var = r_.pick(targets);
      s->a = conv(v(s->var).type, 3);
      return s;
    }
    if (roll < 48) {
      auto targets = writableScalars();
      if (targets.empty()) return nullptr;
      return compound(r_.pick(targets));
    }
    if (roll < 55) {
      auto arrays = visible(
          [&](const GVar& x) { return x.isArray && !x.isStruct() && x.writable && idOf(x) >= writeFloor_; });
      if (arrays.empty()) return nullptr;
      return store(r_.pick(arrays), 2);
    }
    if (roll < 59) {
      auto targets = visible([&](const GVar& x) {
        return !x.isArray && !x.isStruct() && x.writable && idOf(x) >= writeFloor_ && x.type != Scalar::I32 &&
               x.type != Scalar::I64 && x.type != Scalar::Bool;
      });
      if (targets.empty()) return nullptr;
      auto s = stmt(GStmtKind::IncDec);
      s->var = r_.pick(targets);
      static const char* ops[] = {"++x", "x++", "--x", "x--"};
      s->op = r_.pick(ops);
      return s;
    }
    if (roll < 69 && nest < 3) {
      auto s = stmt(GStmtKind::If);
      s->cond = r_.chance(80) ? genExpr(Scalar::Bool, 3) : genExpr(r_.pick(kAllScalars), 2);
      s->body = block(nest + 1, static_cast<unsigned>(r_.range(1, 3)));
      s->hasElse = r_.chance(50);
      if (s->hasElse) s->orelse = block(nest + 1, static_cast<unsigned>(r_.range(1, 3)));
      return s;
    }
    if (roll < 82 && nest < 3 && loopDepth_ < 2 && !noLoops_) {
      const unsigned kindRoll = static_cast<unsigned>(r_.below(10));
      auto s = stmt(kindRoll < 6 ? GStmtKind::For : kindRoll < 8 ? GStmtKind::While : GStmtKind::DoWhile);
      static const Scalar counters[] = {Scalar::I32, Scalar::I32, Scalar::I32, Scalar::U32,
                                        Scalar::I64, Scalar::I16, Scalar::U8};
      const Scalar ct = r_.pick(counters);
      const std::int64_t trips = r_.range(1, loopDepth_ ? 4 : 8);
      s->from = 0;
      s->to = trips;
      s->step = 1;
      if (s->kind == GStmtKind::For) {
        const unsigned shape = static_cast<unsigned>(r_.below(3));
        if (shape == 1) s->step = 2;
        if (shape == 2) {
          s->step = -1;
          s->from = trips;
          s->to = 0;
        }
      }
      GVar counter{fresh("c"), ct, 0, false, false, false, false, -1};
      if (s->kind == GStmtKind::For) scopes_.emplace_back();
      s->var = newVar(counter);
      ++loopDepth_;
      s->body = block(nest + 1, static_cast<unsigned>(r_.range(1, 4)));
      --loopDepth_;
      if (s->kind == GStmtKind::For) scopes_.pop_back();
      return s;
    }
    if (roll < 87 && nest < 3) {
      auto s = stmt(GStmtKind::Switch);
      static const Scalar condTypes[] = {Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U8, Scalar::I16, Scalar::U64};
      const Scalar ct = r_.pick(condTypes);
      const Scalar p = promote(ct);
      if (isSignedInt(p) && r_.chance(40)) {
        auto e = make(GExprKind::Binary, p);
        e->op = "%";
        e->args = {genExpr(ct, 2), lit(Scalar::I32, 5)};
        s->cond = e;  // in (-5, 5): negative labels get hit
      } else {
        s->cond = binary("&", p, genExpr(ct, 2), lit(Scalar::I32, 7));
      }
      std::vector<std::int64_t> labels;
      for (std::int64_t l = isSignedInt(p) ? -4 : 0; l <= 7; ++l) labels.push_back(l);
      for (std::size_t n = labels.size(); n > 1; --n) std::swap(labels[n - 1], labels[r_.below(n)]);
      const unsigned cases = static_cast<unsigned>(r_.range(1, 4));
      std::size_t next = 0;
      for (unsigned c = 0; c < cases; ++c) {
        GCase gc;
        const unsigned nl = static_cast<unsigned>(r_.range(1, 2));
        for (unsigned k = 0; k < nl && next < labels.size(); ++k) gc.labels.push_back(labels[next++]);
        gc.body = block(nest + 1, static_cast<unsigned>(r_.range(0, 2)));
        gc.breaks = r_.chance(70);
        s->cases.push_back(std::move(gc));
      }
      if (r_.chance(60)) {
        GCase d;
        d.body = block(nest + 1, static_cast<unsigned>(r_.range(0, 2)));
        d.breaks = r_.chance(50);
        s->cases.insert(s->cases.begin() + static_cast<long>(r_.below(s->cases.size() + 1)), std::move(d));
      }
      return s;
    }
    if (roll < 93 && loopDepth_ > 0) {
      auto s = stmt(GStmtKind::If);
      s->cond = genExpr(Scalar::Bool, 2);
      s->body = {stmt(r_.chance(50) ? GStmtKind::Break : GStmtKind::Continue)};
      return s;
    }
    if (roll < 97) {
      auto s = stmt(GStmtKind::If);
      s->cond = genExpr(Scalar::Bool, 2);
      auto ret = stmt(GStmtKind::Return);
      if (retStruct_ >= 0) ret->a = structValue(retStruct_);
      else if (ret_ != Scalar::Void) ret->a = conv(ret_, 2);
      else return nullptr;  // void kernels must reach their output stores
      s->body = {ret};
      return s;
    }
    return nullptr;
  }

  // ---- value structs ------------------------------------------------------------------------
  const GStruct& st(int k) const { return structs_[static_cast<std::size_t>(k)]; }
  // Struct statements and reads: not in a member function, where the object's fields are plain
  // variables.
  bool structsHere() const { return !structs_.empty() && !inMethod_; }

  // One or two struct types: scalar fields of mixed types (half of them of one type, so that the
  // struct can be a kernel's array of structs), sometimes a nested struct or an array field,
  // default member initializers, a constructor, operators and member functions.
  void makeStructs() {
    if (!r_.chance(kStructShare)) return;
    const int count = r_.chance(40) ? 2 : 1;
    for (int k = 0; k < count; ++k) makeStruct(k);
  }

  void makeStruct(int k) {
    GStruct s;
    s.name = prefix_ + "S" + std::to_string(k);
    const bool uniform = r_.chance(50);
    Scalar ut = anyNonBool();
    if (k > 0 && st(0).uniform != Scalar::Void && r_.chance(60)) ut = st(0).uniform;
    const unsigned n = static_cast<unsigned>(r_.range(2, 4));
    for (unsigned f = 0; f < n; ++f) {
      GField fd;
      fd.type = uniform ? ut : anyScalar();
      const unsigned roll = static_cast<unsigned>(r_.below(100));
      if (k > 0 && roll < 30 && (!uniform || st(0).uniform == ut)) {
        fd.strct = 0;
        fd.name = "n" + std::to_string(f);
      } else if (!uniform && roll < 50) {
        fd.name = "w" + std::to_string(f);
        fd.extent = static_cast<std::uint64_t>(r_.range(2, 4));
        fd.hasDefault = true;
        const std::uint64_t given = r_.below(fd.extent + 1);
        for (std::uint64_t e = 0; e < given; ++e) fd.elements.push_back(randomLit(fd.type)->bits);
      } else {
        // (A default member initializer reading an earlier field is culift's only in a
        // declaration of a local: literals only.)
        fd.name = "m" + std::to_string(f);
        fd.hasDefault = r_.chance(50);
        if (fd.hasDefault) fd.bits = randomLit(fd.type)->bits;
      }
      s.fields.push_back(std::move(fd));
    }
    // A constructor of some scalar fields, beside S() = default: every other scalar field gets a
    // default member initializer, so that no constructor leaves a field unset.
    if (r_.chance(30)) {
      bool nestedDefaults = true;
      for (const GField& fd : s.fields)
        if (fd.strct >= 0 && !st(fd.strct).allDefaults) nestedDefaults = false;
      for (std::size_t f = 0; f < s.fields.size() && nestedDefaults; ++f) {
        GField& fd = s.fields[f];
        if (fd.strct >= 0 || fd.extent) continue;
        if (r_.chance(60)) {
          s.ctorFields.push_back(static_cast<int>(f));
        } else if (!fd.hasDefault) {
          fd.hasDefault = true;
          fd.bits = randomLit(fd.type)->bits;
        }
      }
    }
    s.allDefaults = true;
    for (const GField& fd : s.fields) {
      if (fd.strct >= 0) {
        for (const GLeaf& l : st(fd.strct).leaves) s.leaves.push_back(GLeaf{fd.name + "." + l.path, l.type, l.extent});
        s.allDefaults = s.allDefaults && st(fd.strct).allDefaults;
      } else {
        s.leaves.push_back(GLeaf{fd.name, fd.type, fd.extent});
        s.allDefaults = s.allDefaults && fd.hasDefault;
      }
    }
    s.uniform = s.leaves.front().type;
    for (const GLeaf& l : s.leaves)
      if (l.type != s.uniform || l.extent || l.type == Scalar::Bool) s.uniform = Scalar::Void;
    s.opAdd = r_.chance(40);
    s.opEq = r_.chance(40);
    s.opAddAssign = r_.chance(30);
    s.make = s.leaves.front().extent == 0 && r_.chance(30);
    structs_.push_back(std::move(s));
    if (r_.chance(55)) makeMethod(k, true);
    if (r_.chance(40)) makeMethod(k, false);
  }

  // A member function, generated as a helper is: the object's scalar and array fields are its
  // first variables (read-only in a const one), its parameters follow.
  void makeMethod(int k, bool isConst) {
    GFunction m;
    m.name = "mm" + std::to_string(st(k).methods.size());
    m.ownerStruct = k;
    m.constMethod = isConst;
    m.returnType = anyScalar();
    for (const GField& fd : st(k).fields) {
      if (fd.strct >= 0) continue;  // (a nested struct is not a variable of the member function)
      GVar x{fd.name, fd.type, fd.extent, fd.extent > 0, false, !isConst, isConst && fd.extent > 0, -1};
      x.isField = true;
      m.vars.push_back(x);
    }
    m.numFields = static_cast<unsigned>(m.vars.size());
    const unsigned params = static_cast<unsigned>(r_.range(0, 2));
    for (unsigned p = 0; p < params; ++p)
      m.vars.push_back(GVar{"q" + std::to_string(p), anyScalar(), 0, false, true, true, false, -1});
    m.numParams = static_cast<unsigned>(m.vars.size());
    inMethod_ = true;
    fillBody(m, o_.maxStatements / 3);
    inMethod_ = false;
    structs_[static_cast<std::size_t>(k)].methods.push_back(std::move(m));
  }

  GExprPtr structVar(int id) const {
    auto e = make(GExprKind::StructVal, Scalar::Void);
    e->var = id;
    e->strct = v(id).strct;
    return e;
  }

  // The index of an element of an array of structs or of an array field: a variable or a small
  // literal (culift wants an element's index free of side effects; the printer masks it).
  GExprPtr simpleIndex() {
    auto vars = visible([](const GVar& x) { return !x.isArray && !x.isStruct() && !x.isLambda && isInt(x.type); });
    if (!vars.empty() && r_.chance(70)) return var(r_.pick(vars));
    return lit(Scalar::I32, bitsOfInt(Scalar::I32, r_.range(0, 7)));
  }

  // Struct variables whose fields may be read here (never the records of an output array: other
  // threads write those on the GPU).
  std::vector<int> readableStructs() const {
    return visible([](const GVar& x) { return x.isStruct() && !(x.isArray && x.isParam && x.writable); });
  }

  // A leaf of type t read: s.f, s.n.f, s.w[k], ps[k].f, p[k].f, p->f.
  GExprPtr fieldRead(Scalar t) {
    std::vector<std::pair<int, std::size_t>> cands;
    for (int id : readableStructs())
      for (std::size_t l = 0; l < st(v(id).strct).leaves.size(); ++l)
        if (st(v(id).strct).leaves[l].type == t) cands.emplace_back(id, l);
    if (cands.empty()) return nullptr;
    const auto [id, l] = r_.pick(cands);
    const GLeaf& leaf = st(v(id).strct).leaves[l];
    auto e = make(GExprKind::Field, t);
    e->var = id;
    e->field = leaf.path;
    if (v(id).isArray) {
      // p->f: element 0 of an array-of-structs parameter (culift: a field of its own, not nested).
      if (v(id).isParam && leaf.path.find('.') == std::string::npos && r_.chance(15)) e->arrow = true;
      else e->args.push_back(simpleIndex());
    }
    if (leaf.extent) {
      e->fieldExtent = leaf.extent;
      e->args.push_back(simpleIndex());
    }
    return e;
  }

  // obj.mm(args): a const member function returning `want` (in any expression), or (`writes`) one
  // writing its object, returning any type (only as a declaration's whole value: the printer folds
  // the object after it).
  GExprPtr methodCall(Scalar want, bool writes, int depth) {
    std::vector<std::pair<int, std::size_t>> cands;
    const std::vector<int> objects = writes ? visible([&](const GVar& x) {
      return x.isStruct() && !(x.isArray && x.isParam) && canWrite(idOf(x));
    })
                                            : readableStructs();
    for (int id : objects) {
      const GStruct& s = st(v(id).strct);
      for (std::size_t m = 0; m < s.methods.size(); ++m)
        if (s.methods[m].constMethod != writes && (writes || s.methods[m].returnType == want))
          cands.emplace_back(id, m);
    }
    if (cands.empty()) return nullptr;
    const auto [id, mi] = r_.pick(cands);
    const GFunction& m = st(v(id).strct).methods[mi];
    auto e = make(GExprKind::Method, m.returnType);
    e->var = id;
    e->callee = m.name;
    if (v(id).isArray) e->args.push_back(simpleIndex());
    for (unsigned p = m.numFields; p < m.numParams; ++p) e->args.push_back(conv(m.vars[p].type, depth - 1));
    return e;
  }

  // a == b of two struct values.
  GExprPtr structEq(int depth) {
    std::vector<int> ks;
    for (std::size_t k = 0; k < structs_.size(); ++k)
      if (structs_[k].opEq) ks.push_back(static_cast<int>(k));
    if (ks.empty()) return nullptr;
    const int k = r_.pick(ks);
    auto e = make(GExprKind::StructEq, Scalar::Bool);
    e->args = {structOperand(k, depth - 1), structOperand(k, depth - 1)};
    return e;
  }

  // A struct value of type k held by a variable: s, ps[k], p[k], s.n (a nested struct).
  GExprPtr structRef(int k) {
    std::vector<std::pair<int, std::string>> cands;
    for (int id : readableStructs()) {
      const GVar& x = v(id);
      if (x.strct == k) cands.emplace_back(id, "");
      for (const GField& fd : st(x.strct).fields)
        if (fd.strct == k) cands.emplace_back(id, fd.name);
    }
    if (cands.empty()) return nullptr;
    const auto [id, field] = r_.pick(cands);
    auto e = structVar(id);
    e->strct = k;
    e->field = field;
    if (v(id).isArray) e->args.push_back(simpleIndex());
    return e;
  }

  // S{a, b}, S{.f = a}, S{}, S(a, b): the fields' values of their own types.
  GExprPtr structInit(int k, int depth) {
    const GStruct& s = st(k);
    auto e = make(GExprKind::StructInit, Scalar::Void);
    e->strct = k;
    auto value = [&](const GField& fd) {
      return fd.strct >= 0 ? structOperand(fd.strct, depth - 1) : conv(fd.type, depth);
    };
    const unsigned roll = static_cast<unsigned>(r_.below(100));
    if (roll < 12) {
      e->op = "value";
      return e;
    }
    if (!s.ctorFields.empty()) {
      e->op = r_.chance(50) ? "ctor" : "braces";
      for (int f : s.ctorFields) e->args.push_back(conv(s.fields[static_cast<std::size_t>(f)].type, depth));
      return e;
    }
    if (roll < 45) {
      e->op = "designated";
      for (std::size_t f = 0; f < s.fields.size(); ++f)
        if (!s.fields[f].extent && r_.chance(55)) {
          e->slots.push_back(static_cast<int>(f));
          e->args.push_back(value(s.fields[f]));
        }
      return e;
    }
    // Positional values up to the first array field (which keeps its default member initializer).
    std::size_t upTo = 0;
    while (upTo < s.fields.size() && !s.fields[upTo].extent) ++upTo;
    e->op = upTo ? "braces" : "value";
    const std::size_t count = upTo ? static_cast<std::size_t>(r_.range(1, static_cast<std::int64_t>(upTo))) : 0;
    for (std::size_t f = 0; f < count; ++f) e->args.push_back(value(s.fields[f]));
    return e;
  }

  // A struct value in an expression: a variable's, a temporary, S::make(v), a + b.
  GExprPtr structOperand(int k, int depth) {
    const GStruct& s = st(k);
    const unsigned roll = static_cast<unsigned>(r_.below(100));
    if (roll < 45)
      if (auto e = structRef(k)) return e;
    if (roll < 60 && s.opAdd && depth > 0) {
      auto e = make(GExprKind::StructAdd, Scalar::Void);
      e->strct = k;
      e->args = {structOperand(k, depth - 1), structOperand(k, depth - 1)};
      return e;
    }
    if (roll < 70 && s.make) {
      auto e = make(GExprKind::StructCall, Scalar::Void);
      e->strct = k;
      e->op = "make";
      e->callee = s.name + "::make";
      e->args.push_back(conv(s.leaves.front().type, 1));
      return e;
    }
    return structInit(k, depth);
  }

  // The whole value of a declaration, an assignment or a return: also a helper's struct result.
  GExprPtr structValue(int k) {
    if (r_.chance(30)) {
      std::vector<const Callable*> fits;
      for (const Callable& c : callables_)
        if (c.retStruct == k && (!c.needsArrays || fn_->kernel)) fits.push_back(&c);
      if (!fits.empty())
        if (auto e = helperCall(*r_.pick(fits), 2)) return e;
    }
    return structOperand(k, 1);
  }

  GStmtPtr structStmt(int nest) {
    const bool any = !visible([](const GVar& x) { return x.isStruct(); }).empty();
    const unsigned roll = static_cast<unsigned>(r_.below(100));
    if (!any || roll < 30) return structDecl();
    if (roll < 55) return fieldAssign();
    if (roll < 65) return structAssign();
    if (roll < 74) return bindings();
    if (roll < 84 && nest < 2 && !noLoops_) return structArrayDecl();
    if (roll < 94) return writingCall();
    return structDecl();
  }

  // S v = value;  const S v = value;  S v;  (only where every field has a default member initializer)
  GStmtPtr structDecl() {
    const int k = static_cast<int>(r_.below(structs_.size()));
    auto s = stmt(GStmtKind::StructDecl);
    const bool uninitialized = st(k).allDefaults && r_.chance(12);
    if (!uninitialized) s->a = structValue(k);
    const bool isConst = !uninitialized && r_.chance(15);
    s->op = isConst ? "const" : "";
    GVar x{fresh("sv"), Scalar::Void, 0, false, false, !isConst, false, -1};
    x.strct = k;
    s->var = newVar(x);
    return s;
  }

  // A field written (or compound-assigned): of a struct variable, of an element of a local array
  // of structs, or of the thread's own record of an output array of structs.
  GStmtPtr fieldAssign() {
    auto targets = visible([&](const GVar& x) { return x.isStruct() && canWrite(idOf(x)); });
    if (targets.empty()) return nullptr;
    const int id = r_.pick(targets);
    const GLeaf& leaf = r_.pick(st(v(id).strct).leaves);
    auto a = stmt(GStmtKind::FieldAssign);
    a->var = id;
    a->field = leaf.path;
    a->fieldExtent = leaf.extent;
    if (v(id).isArray) a->args.push_back(v(id).isParam ? own_ : simpleIndex());
    if (leaf.extent) a->args.push_back(simpleIndex());
    if (a->args.empty() && r_.chance(35) && compoundOp(*a, leaf.type)) return a;
    a->op.clear();
    a->a = conv(leaf.type, 3);
    return a;
  }

  // s = value;  ps[k] = value;  out[own] = value;  s += value;
  GStmtPtr structAssign() {
    auto targets = visible([&](const GVar& x) { return x.isStruct() && canWrite(idOf(x)); });
    if (targets.empty()) return nullptr;
    const int id = r_.pick(targets);
    const int k = v(id).strct;
    auto a = stmt(GStmtKind::StructAssign);
    a->var = id;
    if (v(id).isArray) a->args.push_back(v(id).isParam ? own_ : simpleIndex());
    if (!v(id).isArray && st(k).opAddAssign && r_.chance(30)) {
      a->op = "+=";
      a->a = structOperand(k, 1);
    } else {
      a->a = structValue(k);
    }
    return a;
  }

  // auto [b0, b1, ...] = value;  auto& [b0, b1, ...] = s;  of a struct without array fields.
  GStmtPtr bindings() {
    std::vector<int> ks;
    for (std::size_t k = 0; k < structs_.size(); ++k)
      if (std::none_of(structs_[k].leaves.begin(), structs_[k].leaves.end(),
                       [](const GLeaf& l) { return l.extent != 0; }))
        ks.push_back(static_cast<int>(k));
    if (ks.empty()) return nullptr;
    const int k = r_.pick(ks);
    auto b = stmt(GStmtKind::Bindings);
    // auto& [...] = s: the fields of a struct variable themselves (written through the bindings
    // where s may be written).
    std::vector<int> vars;
    if (r_.chance(35))
      for (int id : readableStructs())
        if (!v(id).isArray && v(id).strct == k) vars.push_back(id);
    const int target = vars.empty() ? -1 : r_.pick(vars);
    if (target >= 0) {
      b->op = "&";
      b->a = structVar(target);
    } else {
      b->a = structValue(k);
    }
    for (const GField& fd : st(k).fields) {
      GVar x{fresh("b"), fd.strct >= 0 ? Scalar::Void : fd.type, 0,     false,
             false,      target < 0 || canWrite(target),         false, -1};
      x.strct = fd.strct;
      x.isBinding = true;
      b->params.push_back(newVar(x));
    }
    return b;
  }

  // S sa[n] = {values...};  of a struct without array fields.
  GStmtPtr structArrayDecl() {
    std::vector<int> ks;
    for (std::size_t k = 0; k < structs_.size(); ++k)
      if (std::none_of(structs_[k].leaves.begin(), structs_[k].leaves.end(),
                       [](const GLeaf& l) { return l.extent != 0; }))
        ks.push_back(static_cast<int>(k));
    if (ks.empty()) return nullptr;
    const int k = r_.pick(ks);
    auto a = stmt(GStmtKind::StructArrayDecl);
    static const std::uint64_t extents[] = {2, 3, 4};
    const std::uint64_t n = r_.pick(extents);
    const unsigned inits = static_cast<unsigned>(r_.below(n + 1));
    for (unsigned e = 0; e < inits; ++e) a->args.push_back(structOperand(k, 1));
    const bool isConst = r_.chance(15);
    GVar x{fresh("sa"), Scalar::Void, n, true, false, !isConst, isConst, -1};
    x.strct = k;
    a->var = newVar(x);
    return a;
  }

  // T v = s.mm(args);  (a member function writing its object)  T v = h(s, ...);  (a helper
  // taking a struct by S&): the printer folds the written structs after the declaration.
  GStmtPtr writingCall() {
    auto d = stmt(GStmtKind::Decl);
    if (r_.chance(50)) {
      d->a = methodCall(Scalar::Void, true, 2);
    } else {
      std::vector<const Callable*> fits;
      for (const Callable& c : callables_)
        if (c.writesStruct && !c.refOut && c.retStruct < 0 && (!c.needsArrays || fn_->kernel)) fits.push_back(&c);
      if (fits.empty()) return nullptr;
      d->a = helperCall(*r_.pick(fits), 2);
    }
    if (!d->a) return nullptr;
    d->var = newVar(GVar{fresh("v"), d->a->type, 0, false, false, true, false, -1});
    return d;
  }

  // The thread's own record of an output array of structs, written whole or field by field.
  std::vector<GStmtPtr> recordStores(int p) {
    const int k = v(p).strct;
    if (r_.chance(50)) {
      auto a = stmt(GStmtKind::StructAssign);
      a->var = p;
      a->args.push_back(own_);
      a->a = structValue(k);
      return {a};
    }
    std::vector<GStmtPtr> out;
    for (const GLeaf& leaf : st(k).leaves) {
      auto a = stmt(GStmtKind::FieldAssign);
      a->var = p;
      a->field = leaf.path;
      a->args.push_back(own_);
      a->a = conv(leaf.type, 2);
      out.push_back(a);
    }
    return out;
  }

  Rng r_;
  GenOptions o_;
  std::string prefix_;
  GFunction* fn_ = nullptr;
  std::vector<std::vector<int>> scopes_;
  int loopDepth_ = 0;
  bool noLoops_ = false;  // statements around a contraction's loop: no loop or local array of their own
  int mode_ = 1;
  Scalar indexType_ = Scalar::I32;
  GExprPtr own_;
  unsigned counter_ = 0;
  std::vector<Callable> callables_;
  std::map<std::pair<int, int>, GFunction> clamps_;
  Scalar ret_ = Scalar::Void;  // what a return statement here returns (a lambda's type inside one)
  std::vector<int> excluded_;  // arrays no statement may read but the shape's own (a stencil's, a scan's)
  int scanOut_ = -1;           // the array a scan's loop writes (no store of it after the body)
  int writeFloor_ = 0;         // variables below this id are read-only here (a lambda's outer ones)
  int lambdaScope_ = -1;       // inside a lambda: the first scope of its own
  std::string lambdaCapture_;  // and its capture ("&", "=", "list")
  bool inLambda_ = false;
  int templateParam_ = -1;  // the function's template parameter N
  std::map<int, GStmtPtr> lambdaStmts_;
  std::vector<GStmtPtr> pending_;  // statements that follow the one just generated (a lambda's call)
  bool needApply_[2] = {false, false};
  std::vector<GStruct> structs_;
  bool inMethod_ = false;  // generating a member function's body
  int retStruct_ = -1;     // the struct a return statement here returns (a helper's struct result)
};

// ---- argument values ------------------------------------------------------------------------

void putBits(std::vector<std::uint8_t>& out, Scalar t, std::uint64_t bits) {
  const unsigned n = byteSize(t);
  for (unsigned b = 0; b < n; ++b) out.push_back(static_cast<std::uint8_t>(bits >> (8 * b)));
}

std::uint64_t randomValue(Rng& r, Scalar t) {
  if (t == Scalar::Bool) return r.below(2);
  const unsigned roll = static_cast<unsigned>(r.below(100));
  if (isFloat(t)) {
    const bool f = t == Scalar::F32;
    if (roll < 5) {  // NaNs of both signs, one with a payload: their bits reach the comparison
      const double nans[] = {std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
                             std::nan("0x5")};
      return bitsOfFloat(t, r.pick(nans));
    }
    if (roll < 40) {
      static const double boundary[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.5, 1e-3};
      std::vector<std::uint64_t> specials;
      for (double d : boundary) specials.push_back(bitsOfFloat(t, d));
      if (f) {
        for (float x :
             {std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest(),
              std::numeric_limits<float>::min(), std::numeric_limits<float>::denorm_min(),
              -std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::infinity(),
              -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
              -std::numeric_limits<float>::quiet_NaN(), std::nanf("0x5"), 2147483648.0f, -2147483904.0f, 1e20f})
          specials.push_back(bitsOfFloat(t, x));
      } else {
        for (double x :
             {std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(),
              std::numeric_limits<double>::min(), std::numeric_limits<double>::denorm_min(),
              -std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::infinity(),
              -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
              -std::numeric_limits<double>::quiet_NaN(), std::nan("0x5"), 9223372036854775808.0, 4294967296.5, 1e300})
          specials.push_back(bitsOfFloat(t, x));
      }
      return r.pick(specials);
    }
    if (roll < 85) return bitsOfFloat(t, static_cast<double>(r.range(-4096, 4096)) / 256.0);
    return f ? (r.next() & 0xffffffffu) : r.next();
  }
  const unsigned w = bitWidth(t);
  if (roll < 40) {
    const std::int64_t mn = isSignedInt(t) ? -static_cast<std::int64_t>((std::uint64_t{1} << (w - 1)) - 1) - 1 : 0;
    const std::uint64_t mx = isSignedInt(t) ? (std::uint64_t{1} << (w - 1)) - 1
                                            : (w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1);
    const std::uint64_t options[] = {
        static_cast<std::uint64_t>(mn), static_cast<std::uint64_t>(mn + 1), ~std::uint64_t{0}, 0, 1, 2, mx - 1, mx};
    return bitsOfInt(t, static_cast<std::int64_t>(r.pick(options)));
  }
  if (roll < 85) return bitsOfInt(t, r.range(-64, 64));
  return bitsOfInt(t, static_cast<std::int64_t>(r.next()));
}

}  // namespace

std::vector<ArgSet> generateArgSets(const std::vector<ParamSpec>& params, std::uint64_t seed, unsigned count) {
  Rng r(seed);
  unsigned rank = 0;
  for (const ParamSpec& p : params) rank += p.axis >= 0;
  std::vector<ArgSet> sets(count);
  for (ArgSet& set : sets) {
    for (const ParamSpec& p : params) {
      std::vector<std::uint8_t> bytes;
      if (p.axis >= 0) {
        putBits(bytes, p.type, r.below(kAxisExtent[rank][p.axis]));
      } else if (p.array) {
        for (std::size_t k = 0; k < p.elements(); ++k) putBits(bytes, p.type, randomValue(r, p.type));
      } else {
        putBits(bytes, p.type, randomValue(r, p.type));
      }
      set.values.push_back(std::move(bytes));
    }
  }
  return sets;
}

void refreshSpec(const GProgram& tree, ProgramSpec& spec) {
  spec.functions = printProgram(tree);
  spec.deviceFunctions.clear();
  if (tree.checksum) {
    GProgram plain = tree;
    plain.checksum = false;
    spec.deviceFunctions = printProgram(plain);
  }
}

namespace {

struct Features {
  bool loops = false, arrays = false, switches = false, math = false, contraction = false, guardedLogical = false,
       references = false, rangeFor = false, lambdas = false, lambdaTemplates = false, ifConstexpr = false,
       structArrays = false;
  void expr(const GExpr& e) {
    math |= e.kind == GExprKind::Math;
    references |= e.outVar >= 0;
    lambdaTemplates |= e.viaApply;
    guardedLogical |= e.kind == GExprKind::GuardedLogical;
    for (const GExprPtr& a : e.args) expr(*a);
  }
  void stmts(const std::vector<GStmtPtr>& list) {
    for (const GStmtPtr& s : list) {
      loops |= s->kind == GStmtKind::For || s->kind == GStmtKind::While || s->kind == GStmtKind::DoWhile;
      arrays |= s->kind == GStmtKind::ArrayDecl;
      switches |= s->kind == GStmtKind::Switch;
      contraction |= s->plain;
      references |= s->kind == GStmtKind::RefDecl;
      rangeFor |= s->kind == GStmtKind::RangeFor;
      lambdas |= s->kind == GStmtKind::Lambda;
      ifConstexpr |= s->kind == GStmtKind::IfConstexpr;
      structArrays |= s->kind == GStmtKind::StructArrayDecl;
      for (const GExprPtr* e : {&s->a, &s->b, &s->cond})
        if (*e) expr(**e);
      for (const GExprPtr& e : s->args) expr(*e);
      stmts(s->body);
      stmts(s->orelse);
      for (const GCase& c : s->cases) stmts(c.body);
    }
  }
};

std::string share(unsigned n, unsigned of) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", of ? 100.0 * n / of : 0.0);
  return buf;
}

}  // namespace

void GenStats::add(const GProgram& program) {
  ++programs;
  Features f;
  bool hasHelper = false, hasTemplate = false, hasStructs = false, recordParams = false;
  for (const GFunction& fn : program.functions) {
    if (fn.isClampHelper || fn.isApplyHelper) continue;
    hasHelper |= !fn.kernel;
    hasTemplate |= fn.templateKind != GFunction::kNone;
    for (const GVar& v : fn.vars) hasStructs |= v.isStruct();
    for (unsigned p = 0; p < fn.numParams; ++p) recordParams |= fn.vars[p].isStruct() && fn.vars[p].isArray;
    for (unsigned p = 0; p < fn.numParams; ++p) f.references |= fn.vars[p].isRef;
    f.stmts(fn.body);
  }
  const GFunction& kernel = program.functions.back();
  unsigned axes = 0;
  for (unsigned p = 0; p < kernel.numParams; ++p) axes += kernel.vars[p].axis >= 0;
  ++modes[std::min(axes, 3u)];
  voidKernels += kernel.returnType == Scalar::Void;
  loops += f.loops;
  arrays += f.arrays;
  switches += f.switches;
  math += f.math;
  helpers += hasHelper;
  contractions += f.contraction && !kernel.stencil && !kernel.scan && !kernel.convolution;  // (plain loops too)
  stencils += kernel.stencil;
  convolutions += kernel.convolution;
  scans += kernel.scan;
  guardedLogical += f.guardedLogical;
  templates += hasTemplate;
  ifConstexpr += f.ifConstexpr;
  references += f.references;
  rangeFor += f.rangeFor;
  lambdas += f.lambdas;
  lambdaTemplates += f.lambdaTemplates;
  structs += hasStructs;
  structArrays += f.structArrays || recordParams;
  kernelStructArrays += recordParams;
}

std::string GenStats::summary() const {
  return "modes element-wise/1-D/2-D/3-D " + share(modes[0], programs) + "/" + share(modes[1], programs) + "/" +
         share(modes[2], programs) + "/" + share(modes[3], programs) + ", void kernels " +
         share(voidKernels, programs) + ", loops " + share(loops, programs) + " (contractions " +
         share(contractions, programs) + ", stencils " + share(stencils, programs) + ", scans " +
         share(scans, programs) + ", convolutions " + share(convolutions, programs) + "), local arrays " +
         share(arrays, programs) + ", switch " + share(switches, programs) + ", math calls " + share(math, programs) +
         ", helpers " + share(helpers, programs) + ", guarded && / || " + share(guardedLogical, programs) +
         ", templates " + share(templates, programs) + " (if constexpr " + share(ifConstexpr, programs) +
         "), references " + share(references, programs) + ", range for " + share(rangeFor, programs) + ", lambdas " +
         share(lambdas, programs) + " (passed to templates " + share(lambdaTemplates, programs) + "), structs " +
         share(structs, programs) + " (arrays of structs " + share(structArrays, programs) + ", as kernel parameters " +
         share(kernelStructArrays, programs) + ")";
}

Generated generateProgram(std::uint64_t seed, unsigned index, const GenOptions& options) {
  Generated g = Generator(seed, index, options).run();
  g.spec.seed = seed;
  return g;
}

}  // namespace culift::rel
