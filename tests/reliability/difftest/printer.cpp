#include "printer.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

#include "program.hpp"
#include "type_rules.hpp"

namespace culift::rel {

std::string typeName(Scalar s, bool alias) {
  if (alias) {
    switch (s) {
      case Scalar::I8: return "std::int8_t";
      case Scalar::U8: return "std::uint8_t";
      case Scalar::I16: return "std::int16_t";
      case Scalar::U16: return "std::uint16_t";
      case Scalar::I32: return "std::int32_t";
      case Scalar::U32: return "std::uint32_t";
      // std::int64_t is `long` on LP64: std::min(long, long long) would not compile.
      default: break;
    }
  }
  return cppType(s);
}

namespace {

bool isPowerOfTwo(std::uint64_t n) { return n && !(n & (n - 1)); }

class Printer {
 public:
  explicit Printer(const GProgram& p) : program_(p) {}

  std::string run() {
    if (program_.checksum) foldHelpers();
    // The structs after the clamp helpers (their member functions may call them), before the
    // functions that use them.
    bool structsDone = program_.structs.empty();
    for (const GFunction& f : program_.functions) {
      if (!structsDone && !f.isClampHelper) {
        for (std::size_t k = 0; k < program_.structs.size(); ++k) structDef(static_cast<int>(k));
        structsDone = true;
      }
      function(f);
    }
    return out_.str();
  }

 private:
  // In a type template, the template's type is spelled T (array parameters keep their type).
  std::string type(Scalar s) const {
    if (fn_ && fn_->templateKind == GFunction::kTemplateType && s == fn_->generic) return "T";
    return typeName(s, program_.aliasTypes);
  }

  // How a local array is spelled, fixed by its name so that the random stream and every value
  // stay as they were: a C array, a std::array, or rows (T a[2][extent / 2], read a[m / C][m % C]:
  // the index is computed twice, so only arrays whose indices call nothing take this form).
  enum class ArrayForm { Flat, StdArray, Rows };
  static std::uint64_t nameHash(const std::string& name) {
    std::uint64_t h = 1469598103934665603ull;
    for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h;
  }
  ArrayForm formOf(int id) const {
    const GVar& v = fn_->vars[static_cast<std::size_t>(id)];
    if (!v.isArray || v.isParam || v.isField || v.isStruct()) return ArrayForm::Flat;
    switch (nameHash(v.name) % 3) {
      case 1: return ArrayForm::StdArray;
      case 2: return (v.extent == 4 || v.extent == 8) && !indexCalls_.count(id) ? ArrayForm::Rows : ArrayForm::StdArray;
      default: return ArrayForm::Flat;
    }
  }
  static bool callFree(const GExpr& e) {
    if (e.kind == GExprKind::Call || e.kind == GExprKind::Comma) return false;
    for (const GExprPtr& a : e.args)
      if (a && !callFree(*a)) return false;
    return true;
  }
  // The arrays some index of which calls a function (or holds a comma).
  void scanIndices(const GExpr& e) {
    if (e.kind == GExprKind::Index && !e.args.empty() && e.args[0] && !callFree(*e.args[0])) indexCalls_.insert(e.var);
    for (const GExprPtr& a : e.args)
      if (a) scanIndices(*a);
  }
  void scanIndices(const GStmt& s) {
    if (s.kind == GStmtKind::Store && !s.args.empty() && s.args[0] && !callFree(*s.args[0])) indexCalls_.insert(s.var);
    // A reference to an element names it once; a range for runs over the elements, not rows.
    if (s.kind == GStmtKind::RefDecl && !s.args.empty() && s.args[0] && !callFree(*s.args[0]))
      indexCalls_.insert(s.target);
    if (s.kind == GStmtKind::RangeFor) indexCalls_.insert(s.target);
    for (const GExpr* e : {s.a.get(), s.b.get(), s.cond.get()})
      if (e) scanIndices(*e);
    for (const GExprPtr& e : s.args)
      if (e) scanIndices(*e);
    for (const GStmtPtr& c : s.body)
      if (c) scanIndices(*c);
    for (const GStmtPtr& c : s.orelse)
      if (c) scanIndices(*c);
    for (const GCase& c : s.cases)
      for (const GStmtPtr& x : c.body)
        if (x) scanIndices(*x);
  }
  // array[index] and array[k], in the array's form.
  std::string element(int id, const GExpr& index) {
    const GVar& array = fn_->vars[static_cast<std::size_t>(id)];
    const std::string m = maskedIndex(array, index);
    if (formOf(id) != ArrayForm::Rows) return array.name + "[" + m + "]";
    const std::string cols = std::to_string(array.extent / 2);
    return array.name + "[(" + m + ") / " + cols + "][(" + m + ") % " + cols + "]";
  }
  std::string element(int id, std::uint64_t k) const {
    const GVar& array = fn_->vars[static_cast<std::size_t>(id)];
    if (formOf(id) != ArrayForm::Rows) return array.name + "[" + std::to_string(k) + "]";
    const std::uint64_t cols = array.extent / 2;
    return array.name + "[" + std::to_string(k / cols) + "][" + std::to_string(k % cols) + "]";
  }
  std::set<int> indexCalls_;

  std::string maskedIndex(const GVar& array, const GExpr& index) { return masked(array.extent, index); }
  std::string masked(std::uint64_t extent, const GExpr& index) {
    const std::string idx = expr(index);
    if (isPowerOfTwo(extent)) return "(" + idx + ") & " + std::to_string(extent - 1);
    return "(unsigned)(" + idx + ") % " + std::to_string(extent) + "u";
  }

  std::string arith(const GExpr& e, const std::string& op, const GExpr& a, const GExpr& b) {
    const std::string x = expr(a), y = expr(b);
    switch (e.arith) {
      case Arith::Direct: return "(" + x + " " + op + " " + y + ")";
      case Arith::Wrapped: {
        const std::string u = type(unsignedOf(e.type));
        return "((" + type(e.type) + ")((" + u + ")" + x + " " + op + " (" + u + ")" + y + "))";
      }
      case Arith::Bounded: {
        const std::string bound = e.bound > 2147483647 ? std::to_string(e.bound) + "LL" : std::to_string(e.bound);
        return "((" + x + " % " + bound + ") " + op + " (" + y + " % " + bound + "))";
      }
    }
    return "";
  }

  std::string expr(const GExpr& e) {
    switch (e.kind) {
      case GExprKind::Lit: return literal(e.type, e.bits);
      case GExprKind::Var:
        // A member function reads some of its object's fields as this->f (chosen by the names).
        if (var(e.var).isField && nameHash(fn_->name + var(e.var).name) % 2) return "this->" + var(e.var).name;
        return var(e.var).name;
      case GExprKind::Unary: {
        const std::string x = expr(*e.args[0]);
        if (e.op == "-" && e.arith == Arith::Wrapped) {
          const std::string u = type(unsignedOf(e.type));
          return "((" + type(e.type) + ")((" + u + ")0 - (" + u + ")" + x + "))";
        }
        if (e.op == "-" && e.arith == Arith::Bounded) return "(-(" + x + " % " + std::to_string(e.bound) + "))";
        return "(" + e.op + x + ")";
      }
      case GExprKind::Binary: {
        const GExpr& a = *e.args[0];
        const GExpr& b = *e.args[1];
        if (e.op == "+" || e.op == "-" || e.op == "*") return arith(e, e.op, a, b);
        if ((e.op == "/" || e.op == "%") && e.guarded) {
          const std::string x = expr(a), y = expr(b);
          std::string guard = "(" + y + ") == 0";
          if (isSignedInt(e.type)) guard += " || ((" + x + ") == " + minLiteral(e.type) + " && (" + y + ") == -1)";
          return "((" + guard + ") ? (" + x + ") : ((" + x + ") " + e.op + " (" + y + ")))";
        }
        if (e.op == "<<" || e.op == ">>") {
          const std::string amount = "((" + expr(b) + ") & " + std::to_string(bitWidth(e.type) - 1) + ")";
          if (e.op == "<<" && isSignedInt(e.type)) {
            const std::string u = type(unsignedOf(e.type));
            return "((" + type(e.type) + ")((" + u + ")" + expr(a) + " << " + amount + "))";
          }
          return "(" + expr(a) + " " + e.op + " " + amount + ")";
        }
        return "(" + expr(a) + " " + e.op + " " + expr(b) + ")";
      }
      case GExprKind::Cast: return "((" + type(e.type) + ")" + expr(*e.args[0]) + ")";
      case GExprKind::Cond: return "(" + expr(*e.args[0]) + " ? " + expr(*e.args[1]) + " : " + expr(*e.args[2]) + ")";
      case GExprKind::Math: {
        std::string s = e.cForm ? e.name + "f(" : "std::" + e.name + "(";
        for (std::size_t k = 0; k < e.args.size(); ++k) {
          if (k) s += ", ";
          if (e.name == "abs" && isInt(e.type)) s += "(" + expr(*e.args[k]) + " % " + std::to_string(e.bound) + ")";
          else s += expr(*e.args[k]);
        }
        return s + ")";
      }
      case GExprKind::Call: {
        // A generic lambda (or one passed to apply) takes each argument converted to its
        // parameter's type: deduction then gives the type the body was generated for.
        const GStmt* lambda = e.var >= 0 ? lambdaOf(e.var) : nullptr;
        std::string s = e.callee + e.templateArgs + "(";
        if (e.viaApply) s += var(e.var).name + (e.args.empty() ? "" : ", ");
        for (std::size_t k = 0; k < e.args.size(); ++k) {
          const std::string a = expr(*e.args[k]);
          if (lambda && (lambda->generic || e.viaApply) && k < lambda->params.size())
            s += (k ? ", " : "") + std::string("((") + type(var(lambda->params[k]).type) + ")" + a + ")";
          else s += (k ? ", " : "") + a;
        }
        if (e.outVar >= 0) s += (e.args.empty() ? "" : ", ") + var(e.outVar).name;
        // An instance for `long` returns a long: as the long long the caller was generated for
        // (std::min(long, long long) would not deduce).
        if (e.templateArgs == "<long>" || e.templateArgs == "<unsigned long>")
          return "((" + type(e.type) + ")" + s + "))";
        return s + ")";
      }
      case GExprKind::Clamp: {
        std::string s = e.callee + "(";
        for (std::size_t k = 0; k < e.args.size(); ++k) s += (k ? ", " : "") + expr(*e.args[k]);
        return s + ")";
      }
      case GExprKind::Index:
        if (e.unmasked) return fn_->vars[static_cast<std::size_t>(e.var)].name + "[" + expr(*e.args[0]) + "]";
        return element(e.var, *e.args[0]);
      case GExprKind::Comma: return "(" + expr(*e.args[0]) + ", " + expr(*e.args[1]) + ")";
      case GExprKind::GuardedLogical: {
        const std::string divisor = "((" + expr(*e.args[1]) + ") & 3)";
        const bool conj = e.op == "&&";
        return "(" + divisor + (conj ? " != 0 && ((" : " == 0 || ((") + expr(*e.args[0]) + ") " + e.name + " " +
               divisor + (conj ? ") > 1)" : ") == 1)");
      }
      case GExprKind::Field: return leafPlace(e.var, e.field, e.fieldExtent, e.arrow, e.args);
      case GExprKind::Method: {
        std::string s = structBase(e.var, e.args) + "." + e.callee + "(";
        for (std::size_t k = var(e.var).isArray ? 1 : 0, n = 0; k < e.args.size(); ++k, ++n)
          s += (n ? ", " : "") + expr(*e.args[k]);
        return s + ")";
      }
      case GExprKind::StructEq: return "(" + expr(*e.args[0]) + " == " + expr(*e.args[1]) + ")";
      case GExprKind::StructVal: return structBase(e.var, e.args) + (e.field.empty() ? "" : "." + e.field);
      case GExprKind::StructInit: return structName(e.strct) + initializer(e);
      case GExprKind::StructCall: {
        if (e.op == "make")
          return e.callee + "((" + typeName(structOf(e.strct).leaves.front().type, program_.aliasTypes) + ")(" +
                 expr(*e.args[0]) + "))";
        std::string s = e.callee + "(";
        for (std::size_t k = 0; k < e.args.size(); ++k) s += (k ? ", " : "") + expr(*e.args[k]);
        // A helper returning a struct folds into its caller's hash (GFunction::returnStruct).
        if (program_.checksum) s += (e.args.empty() ? "" : ", ") + ck_;
        return s + ")";
      }
      case GExprKind::StructAdd: return "(" + expr(*e.args[0]) + " + " + expr(*e.args[1]) + ")";
    }
    return "";
  }

  // ---- value structs ----------------------------------------------------------------------------
  const GStruct& structOf(int k) const { return program_.structs[static_cast<std::size_t>(k)]; }
  const std::string& structName(int k) const { return structOf(k).name; }
  Scalar leafType(int k, const std::string& path) const {
    for (const GLeaf& l : structOf(k).leaves)
      if (l.path == path) return l.type;
    return Scalar::Void;
  }
  // var, or var[index] for an array of structs (its index: args[0]).
  std::string structBase(int id, const std::vector<GExprPtr>& args) {
    const GVar& x = var(id);
    return x.isArray ? x.name + "[" + masked(x.extent, *args[0]) + "]" : x.name;
  }
  // A leaf: base.field or p->field, then an array field's [index] (the last arg).
  std::string leafPlace(int id, const std::string& field, std::uint64_t fieldExtent, bool arrow,
                        const std::vector<GExprPtr>& args) {
    std::string s = arrow ? var(id).name + "->" + field : structBase(id, args) + "." + field;
    if (fieldExtent) s += "[" + masked(fieldExtent, *args.back()) + "]";
    return s;
  }
  // What follows the type in S{...}, S{.f = ...}, S{}, S(...): every scalar value converted to its
  // field's type (no narrowing in braces).
  std::string initializer(const GExpr& e) {
    const GStruct& s = structOf(e.strct);
    auto field = [&](std::size_t f, const GExpr& value) {
      const GField& fd = s.fields[f];
      if (fd.strct >= 0) return expr(value);
      return "(" + typeName(fd.type, program_.aliasTypes) + ")(" + expr(value) + ")";
    };
    std::string list;
    for (std::size_t k = 0; k < e.args.size(); ++k) {
      std::size_t f = k;
      if (e.op == "designated") f = static_cast<std::size_t>(e.slots[k]);
      if (e.op == "ctor" || (e.op == "braces" && !s.ctorFields.empty())) f = static_cast<std::size_t>(s.ctorFields[k]);
      list += (k ? ", " : "") + std::string(e.op == "designated" ? "." + s.fields[f].name + " = " : "") +
              field(f, *e.args[k]);
    }
    return e.op == "ctor" ? "(" + list + ")" : "{" + list + "}";
  }
  // Every leaf of the struct `k` at `place` folded into the hash.
  void foldStruct(int d, int k, const std::string& place) {
    if (!folding()) return;
    for (const GLeaf& l : structOf(k).leaves) {
      if (!l.extent) fold(d, l.type, place + "." + l.path);
      for (std::uint64_t e = 0; e < l.extent; ++e)
        fold(d, l.type, place + "." + l.path + "[" + std::to_string(e) + "]");
    }
  }
  // The structs a call wrote through S& parameters (GExpr::slots), or the object of a member
  // function that is not const, folded after the statement holding the call.
  void foldWritten(int d, const GExpr& e) {
    if (e.kind == GExprKind::Call || e.kind == GExprKind::StructCall)
      for (int slot : e.slots) {
        const GExpr& a = *e.args[static_cast<std::size_t>(slot)];
        foldStruct(d, a.strct, expr(a));
      }
    if (e.kind == GExprKind::Method) {
      for (const GFunction& m : structOf(var(e.var).strct).methods)
        if (m.name == e.callee && !m.constMethod) foldStruct(d, var(e.var).strct, structBase(e.var, e.args));
    }
  }
  // `a + b` of one leaf, free of overflow: wrapped for int and long long, converted back for
  // the narrow types (computed in int), != for bool.
  std::string leafSum(Scalar t, const std::string& a, const std::string& b) const {
    const std::string ty = typeName(t, program_.aliasTypes);
    if (isFloat(t)) return a + " + " + b;
    if (t == Scalar::Bool) return "(" + a + " != " + b + ")";
    if (t == Scalar::I32 || t == Scalar::I64) {
      const std::string u = typeName(unsignedOf(t), program_.aliasTypes);
      return "(" + ty + ")((" + u + ")" + a + " + (" + u + ")" + b + ")";
    }
    return "(" + ty + ")(" + a + " + " + b + ")";
  }
  // Each leaf (every element of an array field) by its path.
  static std::vector<std::pair<std::string, Scalar>> leafPaths(const GStruct& s) {
    std::vector<std::pair<std::string, Scalar>> out;
    for (const GLeaf& l : s.leaves) {
      if (!l.extent) out.emplace_back(l.path, l.type);
      for (std::uint64_t e = 0; e < l.extent; ++e) out.emplace_back(l.path + "[" + std::to_string(e) + "]", l.type);
    }
    return out;
  }

  void structDef(int k) {
    const GStruct& s = structOf(k);
    fn_ = nullptr;
    const std::string& n = s.name;
    line(0, "struct " + n + " {");
    for (const GField& fd : s.fields) {
      const std::string ty = typeName(fd.type, program_.aliasTypes);
      if (fd.strct >= 0) {
        line(1, structName(fd.strct) + " " + fd.name + ";");
      } else if (fd.extent) {
        std::string init;
        for (std::size_t e = 0; e < fd.elements.size(); ++e) init += (e ? ", " : "") + literal(fd.type, fd.elements[e]);
        line(1, ty + " " + fd.name + "[" + std::to_string(fd.extent) + "] = {" + init + "};");
      } else {
        line(1, ty + " " + fd.name + (fd.hasDefault ? " = " + literal(fd.type, fd.bits) : "") + ";");
      }
    }
    if (!s.ctorFields.empty()) {
      std::string params, inits;
      for (std::size_t a = 0; a < s.ctorFields.size(); ++a) {
        const GField& fd = s.fields[static_cast<std::size_t>(s.ctorFields[a])];
        params += (a ? ", " : "") + typeName(fd.type, program_.aliasTypes) + " a" + std::to_string(a);
        inits += (a ? ", " : "") + fd.name + "(a" + std::to_string(a) + ")";
      }
      line(1, n + "() = default;");
      line(1, n + "(" + params + ") : " + inits + " {}");
    }
    base_ = 1;
    for (const GFunction& m : s.methods) function(m);
    base_ = 0;
    fn_ = nullptr;
    const auto leaves = leafPaths(s);
    if (s.opAdd) {
      line(1, n + " operator+(const " + n + "& o) const {");
      line(2, n + " r = *this;");
      for (const auto& [path, t] : leaves) line(2, "r." + path + " = " + leafSum(t, path, "o." + path) + ";");
      line(2, "return r;");
      line(1, "}");
    }
    if (s.opAddAssign) {
      line(1, n + "& operator+=(const " + n + "& o) {");
      for (const auto& [path, t] : leaves) line(2, path + " = " + leafSum(t, path, "o." + path) + ";");
      line(2, "return *this;");
      line(1, "}");
    }
    if (s.opEq) {
      std::string all;
      for (const auto& [path, t] : leaves) all += (all.empty() ? "" : " && ") + ("(" + path + " == o." + path + ")");
      line(1, "bool operator==(const " + n + "& o) const { return " + all + "; }");
    }
    if (s.make) {
      const Scalar t = s.leaves.front().type;
      line(1, "static " + n + " make(" + typeName(t, program_.aliasTypes) + " v) {");
      line(2, n + " s{};");
      for (const GLeaf& l : s.leaves)
        if (l.type == t && !l.extent) line(2, "s." + l.path + " = v;");
      line(2, "return s;");
      line(1, "}");
    }
    line(0, "};");
    out_ << '\n';
  }

  // ---- the checksum (GProgram::checksum) ---------------------------------------------------
  // The fold functions are the same in every program: shared by name, defined by the first
  // program of a translation unit (a batch holds many) under an include guard.
  static std::string helper(const char* suffix) { return std::string("culift_ck") + suffix; }

  // The program's fold functions: an integer mix (unsigned arithmetic only), and one per
  // floating type that folds a value exactly without reading its bits (the lifted subset has no
  // bit cast): a NaN as one value, whatever its sign and payload (promised by nobody,
  // docs/numerical-contract.md), the infinities and zeros by sign, and a finite value as its
  // sign, exponent and integer significand, found by scaling with powers of two (exact).
  void foldHelpers() {
    out_ << "#ifndef CULIFT_CHECKSUM_FOLDS\n#define CULIFT_CHECKSUM_FOLDS\n";
    // Each fold is one multiply-add modulo 2^64 (a polynomial hash, cheap at the many places it is
    // inlined): the multiplier is odd, so a change in any one folded value changes all later
    // hashes. Results take the hash through a finalizer that spreads every bit over the low ones.
    const std::string mix = helper("_mix");
    line(0, "inline unsigned long long " + mix + "(unsigned long long h, unsigned long long v) {");
    line(1, "return h * 0x100000001b3ULL + v;");
    line(0, "}");
    out_ << '\n';
    line(0, "inline unsigned long long " + helper("_final") + "(unsigned long long h) {");
    line(1, "h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;");
    line(1, "h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;");
    line(1, "return h ^ (h >> 33);");
    line(0, "}");
    out_ << '\n';
    floatFold("_mixf", "float", "f", 23, 32, "3.40282347e+38f");
    floatFold("_mixd", "double", "", 52, 64, "1.7976931348623157e+308");
    out_ << "#endif\n\n";
  }

  // Scales |x| into [2^p, 2^(p+1)) (p: the significand's width) by powers of two, in steps of
  // 2^big, 2^8 and 2 each way: a few iterations for any value, and little code (NVRTC inlines
  // the fold at every call).
  void floatFold(const char* suffix, const std::string& t, const std::string& fs, int p, int big,
                 const std::string& max) {
    const std::string mix = helper("_mix");
    auto pow2 = [&](int e) { return "0x1p" + std::string(e < 0 ? "-" : "+") + std::to_string(std::abs(e)) + fs; };
    line(0, "inline unsigned long long " + helper(suffix) + "(unsigned long long h, " + t + " x) {");
    line(1, "if (!(x == x)) return " + mix + "(h, 1ULL);");
    line(1, "const unsigned long long s = std::signbit(x) ? 1ULL : 0ULL;");
    line(1, t + " a = std::fabs(x);");
    line(1, "if (a > " + max + ") return " + mix + "(h, 2ULL + s);");
    line(1, "if (a == 0" + std::string(fs.empty() ? ".0" : ".0f") + ") return " + mix + "(h, 4ULL + s);");
    line(1, "unsigned long long e = 4096ULL;");
    for (int k : {big, 8, 1})  // down while the result stays >= 2^p
      line(1, "while (a >= " + pow2(p + k) + ") { a *= " + pow2(-k) + "; e += " + std::to_string(k) + "ULL; }");
    for (int k : {big, 8, 1})  // up while the result stays < 2^(p+1)
      line(1, "while (a < " + pow2(p + 1 - k) + ") { a *= " + pow2(k) + "; e -= " + std::to_string(k) + "ULL; }");
    line(1, "return " + mix + "(" + mix + "(h, (unsigned long long)a), e * 2ULL + s);");
    line(0, "}");
    out_ << '\n';
  }

  std::string foldOf(Scalar t, const std::string& value) const {
    const char* suffix = t == Scalar::F32 ? "_mixf" : t == Scalar::F64 ? "_mixd" : "_mix";
    return ck_ + " = " + helper(suffix) + "(" + ck_ + ", " + value + ");";
  }
  bool folding() const { return program_.checksum && plainDepth_ == 0; }
  void fold(int d, Scalar t, const std::string& value) {
    if (folding()) line(d, foldOf(t, value));
  }

  // The scalars a (plain) loop assigns: folded once after it.
  void assigned(const std::vector<GStmtPtr>& stmts, std::vector<int>& out) const {
    for (const GStmtPtr& s : stmts) {
      if (s->kind == GStmtKind::Assign || s->kind == GStmtKind::Compound || s->kind == GStmtKind::IncDec)
        if (std::find(out.begin(), out.end(), s->var) == out.end()) out.push_back(s->var);
      assigned(s->body, out);
      assigned(s->orelse, out);
      for (const GCase& c : s->cases) assigned(c.body, out);
    }
  }

  // `return e;` of a function that folds: the result folded too, then the hash returned in the
  // function's type (exact: a float gets 24 bits of it, a double 53), or a NaN result itself.
  void checksumReturn(int d, const GStmt& s) {
    const Scalar r = ret_;
    if (!s.a) {
      if (fn_->checksumOut >= 0)
        line(d, var(fn_->checksumOut).name + "[" +
                    (fn_->plainOwnIndex ? expr(*fn_->checksumIndex)
                                        : maskedIndex(var(fn_->checksumOut), *fn_->checksumIndex)) +
                    "] = " + helper("_final") + "(ck);");
      line(d, "return;");
      return;
    }
    if (fn_->returnStruct >= 0 && ck_ == "ck") {
      // A struct result: its leaves folded into the caller's hash (the helper's parameter ck).
      line(d, "{");
      line(d + 1, structName(fn_->returnStruct) + " ckr = " + expr(*s.a) + ";");
      foldStruct(d + 1, fn_->returnStruct, "ckr");
      foldWritten(d + 1, *s.a);
      line(d + 1, "return ckr;");
      line(d, "}");
      return;
    }
    line(d, "{");
    line(d + 1, "const " + type(r) + " ckr = " + expr(*s.a) + ";");
    line(d + 1, foldOf(r, "ckr"));
    line(d + 1, ck_ + " = " + helper("_final") + "(" + ck_ + ");");
    std::string value = "(" + type(r) + ")" + ck_;
    if (r == Scalar::Bool) value = "(" + ck_ + " & 1ULL) != 0";
    // A NaN result is returned as it is: the fold sees one NaN, the comparison its bits (exact
    // between native -O0 and the interpreter, docs/numerical-contract.md).
    if (r == Scalar::F32) value = "ckr != ckr ? ckr : (float)(" + ck_ + " >> 40)";
    if (r == Scalar::F64) value = "ckr != ckr ? ckr : (double)(" + ck_ + " >> 11)";
    line(d + 1, "return " + value + ";");
    line(d, "}");
  }

  const GVar& var(int v) const { return fn_->vars[static_cast<std::size_t>(v)]; }

  void line(int depth, const std::string& text) {
    out_ << std::string(static_cast<std::size_t>(2 * (depth + base_)), ' ') << text << '\n';
  }

  void block(int depth, const std::vector<GStmtPtr>& stmts) {
    for (const GStmtPtr& s : stmts) stmt(depth, *s);
  }

  void stmt(int d, const GStmt& s) {
    switch (s.kind) {
      case GStmtKind::Decl:
        line(d, type(var(s.var).type) + " " + var(s.var).name + " = " + expr(*s.a) + ";");
        fold(d, var(s.var).type, var(s.var).name);
        // A helper's out-parameter: the value it wrote; structs it wrote (S&, a member function).
        if (s.a->kind == GExprKind::Call && s.a->outVar >= 0) fold(d, var(s.a->outVar).type, var(s.a->outVar).name);
        foldWritten(d, *s.a);
        break;
      case GStmtKind::StructDecl: {
        const GVar& v = var(s.var);
        const std::string head = (s.op == "const" ? "const " : "") + structName(v.strct) + " " + v.name;
        if (!s.a) line(d, head + ";");
        // S v{...} / S v(...), or S v = S{...}: chosen by the name (see formOf).
        else if (s.a->kind == GExprKind::StructInit && nameHash(v.name) % 2 == 0)
          line(d, head + initializer(*s.a) + ";");
        else line(d, head + " = " + expr(*s.a) + ";");
        foldStruct(d, v.strct, v.name);
        if (s.a) foldWritten(d, *s.a);
        break;
      }
      case GStmtKind::StructArrayDecl: {
        const GVar& v = var(s.var);
        std::string init;
        for (std::size_t k = 0; k < s.args.size(); ++k) {
          const GExpr& e = *s.args[k];
          init += (k ? ", " : "") + (e.kind == GExprKind::StructInit && e.op != "ctor" ? initializer(e) : expr(e));
        }
        line(d, (v.isConst ? "const " : "") + structName(v.strct) + " " + v.name + "[" + std::to_string(v.extent) +
                    "] = {" + init + "};");
        for (std::uint64_t k = 0; k < v.extent; ++k) foldStruct(d, v.strct, v.name + "[" + std::to_string(k) + "]");
        break;
      }
      case GStmtKind::FieldAssign: {
        const GVar& v = var(s.var);
        const std::string place = leafPlace(s.var, s.field, s.fieldExtent, false, s.args);
        const Scalar t = leafType(v.strct, s.field);
        if (!s.op.empty()) {
          line(d, place + " " + s.op + "= " + expr(*s.a) + ";");
          fold(d, t, place);
        } else if (!folding()) {
          line(d, place + " = " + expr(*s.a) + ";");
        } else {
          // The new value folded, as for an element store.
          line(d, "{");
          line(d + 1, "const " + typeName(t, program_.aliasTypes) + " cks = " + expr(*s.a) + ";");
          line(d + 1, place + " = cks;");
          line(d + 1, foldOf(t, "cks"));
          line(d, "}");
        }
        break;
      }
      case GStmtKind::StructAssign: {
        const std::string place = structBase(s.var, s.args);
        line(d, place + " " + (s.op.empty() ? "=" : s.op) + " " + expr(*s.a) + ";");
        foldStruct(d, var(s.var).strct, place);
        foldWritten(d, *s.a);
        break;
      }
      case GStmtKind::Bindings: {
        std::string names;
        for (std::size_t k = 0; k < s.params.size(); ++k) names += (k ? ", " : "") + var(s.params[k]).name;
        line(d, "auto" + s.op + " [" + names + "] = " + expr(*s.a) + ";");
        for (int b : s.params) {
          if (var(b).isStruct()) foldStruct(d, var(b).strct, var(b).name);
          else fold(d, var(b).type, var(b).name);
        }
        foldWritten(d, *s.a);
        break;
      }
      case GStmtKind::RefDecl: {
        const GVar& r = var(s.var);
        const GVar& t = var(s.target);
        const std::string referent = s.args.empty() ? t.name : element(s.target, *s.args[0]);
        line(d, std::string(s.op == "const" ? "const " : "") + type(r.type) + "& " + r.name + " = " + referent + ";");
        fold(d, r.type, r.name);
        break;
      }
      case GStmtKind::RangeFor: {
        const GVar& e = var(s.var);
        const std::string t = e.isStruct() ? structName(e.strct) : type(e.type);
        const std::string head = s.op == "&" ? std::string(e.writable ? "" : "const ") + t + "& " : t + " ";
        line(d, "for (" + head + e.name + " : " + var(s.target).name + ") {");
        block(d + 1, s.body);
        line(d, "}");
        break;
      }
      case GStmtKind::Lambda: lambda(d, s); break;
      case GStmtKind::IfConstexpr:
        line(d, "if constexpr (" + var(s.var).name + " " + s.op + " " + std::to_string(s.from) + ") {");
        block(d + 1, s.body);
        if (s.hasElse) {
          line(d, "} else {");
          block(d + 1, s.orelse);
        }
        line(d, "}");
        break;
      case GStmtKind::ArrayDecl: {
        const GVar& v = var(s.var);
        std::string init;
        for (std::size_t k = 0; k < s.args.size(); ++k) init += (k ? ", " : "") + expr(*s.args[k]);
        const std::string qualifier = v.isConst ? "const " : "";
        switch (formOf(s.var)) {
          case ArrayForm::Flat:
            line(d, qualifier + type(v.type) + " " + v.name + "[" + std::to_string(v.extent) + "] = {" + init + "};");
            break;
          case ArrayForm::StdArray:
            line(d, qualifier + "std::array<" + type(v.type) + ", " + std::to_string(v.extent) + "> " + v.name +
                        " = {" + init + "};");
            break;
          case ArrayForm::Rows: {
            // Rows of extent / 2 elements, each in its own braces.
            const std::size_t cols = static_cast<std::size_t>(v.extent / 2);
            std::string rows;
            for (std::size_t k = 0; k < s.args.size(); k += cols) {
              std::string row;
              for (std::size_t c = k; c < std::min(s.args.size(), k + cols); ++c)
                row += (c > k ? ", " : "") + expr(*s.args[c]);
              rows += (k ? ", {" : "{") + row + "}";
            }
            line(d, qualifier + type(v.type) + " " + v.name + "[2][" + std::to_string(cols) + "] = {" + rows + "};");
            break;
          }
        }
        for (std::uint64_t k = 0; k < v.extent; ++k) fold(d, v.type, element(s.var, k));
        break;
      }
      case GStmtKind::Assign:
        line(d, var(s.var).name + " = " + expr(*s.a) + ";");
        fold(d, var(s.var).type, var(s.var).name);
        break;
      case GStmtKind::Compound:
        line(d, var(s.var).name + " " + s.op + "= " + expr(*s.a) + ";");
        fold(d, var(s.var).type, var(s.var).name);
        break;
      case GStmtKind::Store: {
        const GVar& a = var(s.var);
        const std::string target = (s.unmasked ? a.name + "[" + expr(*s.args[0]) + "]" : element(s.var, *s.args[0])) +
                                   " = ";
        if (!folding()) {
          line(d, target + expr(*s.args[1]) + ";");
          break;
        }
        // The element's new value, converted as the store converts it, is folded.
        line(d, "{");
        line(d + 1, "const " + type(a.type) + " cks = " + expr(*s.args[1]) + ";");
        line(d + 1, target + "cks;");
        line(d + 1, foldOf(a.type, "cks"));
        line(d, "}");
        break;
      }
      case GStmtKind::IncDec: {
        const std::string& n = var(s.var).name;
        line(d, (s.op == "++x" ? "++" + n : s.op == "--x" ? "--" + n : s.op == "x++" ? n + "++" : n + "--") + ";");
        fold(d, var(s.var).type, n);
        break;
      }
      case GStmtKind::If:
        line(d, "if (" + expr(*s.cond) + ") {");
        block(d + 1, s.body);
        if (s.hasElse) {
          line(d, "} else {");
          block(d + 1, s.orelse);
        }
        line(d, "}");
        break;
      case GStmtKind::For: {
        const GVar& v = var(s.var);
        const std::string t = type(v.type);
        const std::string from = literal(v.type, bitsOfInt(v.type, s.from)),
                          to = literal(v.type, bitsOfInt(v.type, s.to));
        if (s.step > 0)
          line(d, "for (" + t + " " + v.name + " = " + from + "; " + v.name + " < " + to + "; " +
                      (s.step == 1 ? "++" + v.name : v.name + " += " + std::to_string(s.step)) + ") {");
        else line(d, "for (" + t + " " + v.name + " = " + from + "; " + v.name + " > " + to + "; --" + v.name + ") {");
        plainDepth_ += s.plain;
        block(d + 1, s.body);
        plainDepth_ -= s.plain;
        line(d, "}");
        if (s.plain && plainDepth_ == 0) {  // (a nest of plain loops folds once, after the outermost)
          std::vector<int> targets;
          assigned(s.body, targets);
          for (int t : targets) fold(d, var(t).type, var(t).name);
        }
        break;
      }
      case GStmtKind::While:
      case GStmtKind::DoWhile: {
        const GVar& v = var(s.var);
        line(d, type(v.type) + " " + v.name + " = " + literal(v.type, bitsOfInt(v.type, s.from)) + ";");
        const std::string cond = v.name + " < " + literal(v.type, bitsOfInt(v.type, s.to));
        line(d, s.kind == GStmtKind::While ? "while (" + cond + ") {" : "do {");
        line(d + 1, "++" + v.name + ";");
        block(d + 1, s.body);
        line(d, s.kind == GStmtKind::While ? "}" : "} while (" + cond + ");");
        break;
      }
      case GStmtKind::Switch:
        line(d, "switch (" + expr(*s.cond) + ") {");
        for (const GCase& c : s.cases) {
          if (c.labels.empty()) line(d + 1, "default: {");
          for (std::size_t k = 0; k < c.labels.size(); ++k)
            line(d + 1, "case " + std::to_string(c.labels[k]) + (k + 1 == c.labels.size() ? ": {" : ":"));
          block(d + 2, c.body);
          if (c.breaks) line(d + 2, "break;");
          line(d + 1, "}");
        }
        line(d, "}");
        break;
      case GStmtKind::Break: line(d, "break;"); break;
      case GStmtKind::Continue: line(d, "continue;"); break;
      case GStmtKind::Return:
        if (program_.checksum) checksumReturn(d, s);
        else line(d, s.a ? "return " + expr(*s.a) + ";" : "return;");
        break;
      case GStmtKind::Block:
        line(d, "{");
        block(d + 1, s.body);
        line(d, "}");
        break;
    }
  }

  // The lambda statements of the function, by variable.
  void findLambdas(const std::vector<GStmtPtr>& stmts) {
    for (const GStmtPtr& s : stmts) {
      if (s->kind == GStmtKind::Lambda) lambdas_.emplace_back(s->var, s.get());
      findLambdas(s->body);
      findLambdas(s->orelse);
      for (const GCase& c : s->cases) findLambdas(c.body);
    }
  }
  const GStmt* lambdaOf(int v) const {
    for (const auto& [id, s] : lambdas_)
      if (id == v) return s;
    return nullptr;
  }

  // The outer variables a lambda's body uses (ids below firstOwnVar), in order of first use.
  static void outerUses(const GExpr& e, int below, std::vector<int>& out) {
    auto add = [&](int v) {
      if (v >= 0 && v < below && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    };
    if (e.kind == GExprKind::Var || e.kind == GExprKind::Index || e.kind == GExprKind::Field ||
        e.kind == GExprKind::Method || e.kind == GExprKind::StructVal)
      add(e.var);
    if (e.kind == GExprKind::Call) add(e.outVar);
    for (const GExprPtr& a : e.args) outerUses(*a, below, out);
  }
  static void outerUses(const std::vector<GStmtPtr>& stmts, int below, std::vector<int>& out) {
    for (const GStmtPtr& s : stmts) {
      for (int v : {s->var, s->target})
        if (v >= 0 && v < below && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
      for (const GExprPtr* e : {&s->a, &s->b, &s->cond})
        if (*e) outerUses(**e, below, out);
      for (const GExprPtr& a : s->args) outerUses(*a, below, out);
      outerUses(s->body, below, out);
      outerUses(s->orelse, below, out);
      for (const GCase& c : s->cases) outerUses(c.body, below, out);
    }
  }

  // auto f = [capture](params) -> R { ...; return a; };  with a hash of its own (ckl), returned
  // mixed with its result like a function's.
  void lambda(int d, const GStmt& s) {
    std::string capture = s.op;
    if (s.op == "list") {
      std::vector<int> used;
      outerUses(s.body, s.firstOwnVar, used);
      if (s.a) outerUses(*s.a, s.firstOwnVar, used);
      capture.clear();
      for (int v : used) {
        const GVar& x = var(v);
        capture += (capture.empty() ? "" : ", ") + std::string(s.mutating || x.isArray ? "&" : "") + x.name;
      }
    }
    std::string params;
    for (std::size_t k = 0; k < s.params.size(); ++k) {
      const GVar& p = var(s.params[k]);
      params += (k ? ", " : "") + (s.generic ? std::string("auto") : type(p.type)) + " " + p.name;
    }
    line(d, "auto " + var(s.var).name + " = [" + capture + "](" + params + ") -> " + type(s.retType) + " {");
    const Scalar savedRet = ret_;
    const std::string savedCk = ck_;
    ret_ = s.retType;
    ck_ = "ckl";
    if (program_.checksum) line(d + 1, "unsigned long long ckl = 0xcbf29ce484222325ULL;");
    block(d + 1, s.body);
    GStmt ret;
    ret.kind = GStmtKind::Return;
    ret.a = s.a;
    stmt(d + 1, ret);
    ret_ = savedRet;
    ck_ = savedCk;
    line(d, "};");
  }

  // template <class R, class F, class A> R apply(F f, A a): how a lambda reaches a template.
  void applyHelper(const GFunction& f) {
    line(0, "template <typename R, typename F, typename A> inline R " + f.name + "(F" + (f.applyByRef ? "&" : "") +
                " f, A a) {");
    line(1, "return f(a);");
    line(0, "}");
    out_ << '\n';
  }

  void clampHelper(const GFunction& f) {
    const Scalar to = f.returnType;
    const std::string from = type(f.clampFrom);
    const std::string fs = f.clampFrom == Scalar::F32 ? "f" : "";
    const unsigned w = bitWidth(to);
    const bool sig = isSignedInt(to);
    // Bounds are powers of two, exact in both float and double: everything strictly between
    // them truncates to a value of the target type.
    const std::string lo = sig ? "(-0x1p+" + std::to_string(w - 1) + fs + ")" : "0.0" + fs;
    const std::string hi = "0x1p+" + std::to_string(sig ? w - 1 : w) + fs;
    const std::uint64_t minBits = sig ? bitsOfInt(to, -(static_cast<std::int64_t>(1) << (w - 2)) * 2) : 0;
    const std::uint64_t maxBits = sig ? bitsOfInt(to, static_cast<std::int64_t>((std::uint64_t{1} << (w - 1)) - 1))
                                      : (w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1);
    line(0, "constexpr " + type(to) + " " + f.name + "(" + from + " x) {");
    line(1, "if (!(x == x)) return " + literal(to, 0) + ";");
    line(1, "if (x <= " + lo + ") return " + literal(to, minBits) + ";");
    line(1, "if (x >= " + hi + ") return " + literal(to, maxBits) + ";");
    line(1, "return (" + type(to) + ")x;");
    line(0, "}");
    out_ << '\n';
  }

  void function(const GFunction& f) {
    fn_ = &f;
    indexCalls_.clear();
    for (const GStmtPtr& st : f.body)
      if (st) scanIndices(*st);
    if (f.isClampHelper) return clampHelper(f);
    if (f.isApplyHelper) return applyHelper(f);
    lambdas_.clear();
    findLambdas(f.body);
    ret_ = f.returnType;
    ck_ = "ck";
    std::string params;
    for (unsigned p = f.numFields; p < f.numParams; ++p) {
      const GVar& v = f.vars[p];
      if (p > f.numFields) params += ", ";
      if (v.isStruct()) {
        const std::string qualifier = v.writable ? "" : "const ";
        if (v.isArray) params += qualifier + structName(v.strct) + "* " + v.name;
        else if (v.isRef) params += qualifier + structName(v.strct) + "& " + v.name;
        else params += structName(v.strct) + " " + v.name;
      } else if (v.isArray)
        params += std::string(v.writable ? "" : "const ") + typeName(v.type, program_.aliasTypes) + "* " + v.name;
      else if (v.isRef) params += std::string(v.writable ? "" : "const ") + type(v.type) + "& " + v.name;
      else params += type(v.type) + " " + v.name;
    }
    const std::string ret = f.returnStruct >= 0            ? structName(f.returnStruct)
                            : f.returnType == Scalar::Void ? "void"
                                                           : type(f.returnType);
    std::string marker = !f.kernel                ? "inline "
                         : f.reassociate          ? "CULIFT_KERNEL_REASSOCIATE "
                         : !f.tensorCores.empty() ? "CULIFT_KERNEL_TENSOR_CORES(" + f.tensorCores + ") "
                                                  : "CULIFT_KERNEL ";
    std::string name = f.name, close = "}", qualifier;
    // A helper returning a struct folds into its caller's hash, passed by reference.
    const bool callersHash = program_.checksum && f.returnStruct >= 0;
    if (callersHash) params += (params.empty() ? "" : ", ") + std::string("unsigned long long& ck");
    if (f.ownerStruct >= 0) {  // a member function, printed inside its struct
      marker.clear();
      if (f.constMethod) qualifier = " const";
    }
    if (f.templateKind == GFunction::kTemplateType) marker = "template <typename T> " + marker;
    if (f.templateKind == GFunction::kTemplateValue) {
      std::string n = "N";
      for (const GVar& v : f.vars)
        if (v.templateParam) n = v.name;
      if (f.classTemplate) {
        line(0, "template <int " + n + "> struct " + f.name + " {");
        marker = "static ";
        name = "eval";
        close = "} };";
      } else {
        marker = "template <int " + n + "> " + marker;
      }
    }
    line(0, marker + ret + " " + name + "(" + params + ")" + qualifier + " {");
    if (program_.checksum && !callersHash) line(1, "unsigned long long ck = 0xcbf29ce484222325ULL;");
    block(1, f.body);
    line(0, close);
    out_ << '\n';
  }

  const GProgram& program_;
  const GFunction* fn_ = nullptr;
  std::ostringstream out_;
  int plainDepth_ = 0;
  int base_ = 0;               // indentation of the function being printed (1: a member function)
  Scalar ret_ = Scalar::Void;  // the return type of the function, or of the lambda, being printed
  std::string ck_ = "ck";      // its hash
  std::vector<std::pair<int, const GStmt*>> lambdas_;
};

}  // namespace

std::string printProgram(const GProgram& program) { return Printer(program).run(); }

}  // namespace culift::rel
