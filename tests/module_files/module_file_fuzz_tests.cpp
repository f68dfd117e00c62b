// Module files that are not what culift wrote: truncated at every length, another format
// version, damaged bytes (the checksum catches them), and a few thousand mutations with the
// checksum and size rewritten, so the reader's own checks meet them. Each is a ModuleFileError
// with a message, never a crash (this suite runs under ASan and UBSan with -DCULIFT_SANITIZE=ON).
// Only culift_ast: the seed module is built by hand, as the front end would build it.
#include <cstring>
#include <random>
#include <string>

#include "ast_builder.hpp"
#include "catch.hpp"
#include "culift/ast/module_file.hpp"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/xxhash.h"

namespace culift {
namespace {

using namespace culift::test;

constexpr std::size_t kHeader = 32;  // signature, version, reserved, xxHash64, content size (docs/module-files.md)

// float RowSum(const float* x, int cols, int i) {
//   float s = 0; for (int k = 0; k < cols; ++k) s += x[i * cols + k]; return sqrtf(helper(s)); }
// float helper(float v) { return v < 0 ? -v : v; }
// with x an array of `struct Pair { float lo, hi; }` (the layout the front end records for it).
std::shared_ptr<Module> seedModule() {
  auto m = std::make_shared<Module>();
  m->sourcePath = "kernels.cpp";
  m->cudaSource = "// the CUDA source\n__global__ void RowSum_kernel() {}\n";
  {
    FunctionBuilder b("RowSum", val(Scalar::F32));
    VarId x = b.param("x", Type::pointer(Scalar::F32, true));
    VarId cols = b.param("cols", val(Scalar::I32));
    VarId i = b.param("i", val(Scalar::I32));
    VarId s = b.local("s", val(Scalar::F32));
    VarId k = b.local("k", val(Scalar::I32));
    const Function& f = b.fn;
    auto index = bin(BinaryOp::Add, bin(BinaryOp::Mul, ref(f, i), ref(f, cols)), ref(f, k));
    auto loop = forStmt(decl(k, lit(0), 3), bin(BinaryOp::Lt, ref(f, k), ref(f, cols)),
                        incdec(IncDecOp::PreInc, ref(f, k)),
                        exprStmt(compound(BinaryOp::Add, ref(f, s), sub(f, x, std::move(index)), Scalar::F32), 4), 3);
    Function fn = b.take(stmts(decl(s, cast(flit(0.0, Scalar::F64), Scalar::F32), 2), std::move(loop),
                               ret(math(MathFn::Sqrt, Scalar::F32, exprs(call(1, Scalar::F32, exprs(ref(f, s))))), 5)));
    classifyByHand(fn, IndexMode::Grid1D, {2});
    fn.signature.params[0].record = RecordView{"Pair", Scalar::F32, 8, 4, {{"lo", 0}, {"hi", 4}}};
    fn.indexNames = {"i"};
    fn.loopPlan = LoopPlan::RowReduction;
    fn.loopPlanReason = "";
    fn.planEntries.push_back(PlanEntry{"RowSum_rows", LoopPlan::RowReduction, 8, 1, 256, false});
    fn.reassociatedSums = {s};
    m->functions.push_back(std::move(fn));
  }
  {
    FunctionBuilder b("helper", val(Scalar::F32), 7);
    VarId v = b.param("v", val(Scalar::F32));
    const Function& f = b.fn;
    Function fn = b.take(stmts(
        ret(cond(bin(BinaryOp::Lt, ref(f, v), cast(lit(0), Scalar::F32)), un(UnaryOp::Neg, ref(f, v)), ref(f, v)), 8)));
    classifyByHand(fn, IndexMode::DeviceOnly);
    m->functions.push_back(std::move(fn));
  }
  m->images.push_back(DeviceImage{"sm_90",
                                  {"--fmad=false", "-lineinfo"},
                                  std::string("\x7f"
                                              "ELF\0\1\2",
                                              7)});
  return m;
}

// Rewrites the header's checksum and content size to match what follows it.
std::string resealed(std::string bytes) {
  if (bytes.size() < kHeader) return bytes;
  const std::uint64_t hash = llvm::xxHash64(llvm::StringRef(bytes.data() + kHeader, bytes.size() - kHeader));
  const std::uint64_t size = bytes.size() - kHeader;
  for (int b = 0; b < 8; ++b) bytes[16 + b] = static_cast<char>((hash >> (8 * b)) & 0xff);
  for (int b = 0; b < 8; ++b) bytes[24 + b] = static_cast<char>((size >> (8 * b)) & 0xff);
  return bytes;
}

std::string errorOf(std::string_view bytes) {
  try {
    loadModule(bytes, "mutant.culift");
  } catch (const ModuleFileError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("a hand-built module survives save and load unchanged") {
  const std::shared_ptr<Module> m = seedModule();
  const std::string bytes = saveModule(*m);
  REQUIRE(isModuleFile(bytes));
  const std::shared_ptr<Module> back = loadModule(bytes);
  CHECK(saveModule(*back) == bytes);
  REQUIRE(back->functions.size() == 2);
  const Function& f = back->functions[0];
  CHECK(f.name == "RowSum");
  CHECK(f.numParams == 3);
  CHECK(f.indexParams == std::vector<int>{2});
  CHECK(f.signature.toString() == m->functions[0].signature.toString());
  REQUIRE(f.signature.params[0].record);
  CHECK(*f.signature.params[0].record == *m->functions[0].signature.params[0].record);
  CHECK_FALSE(f.signature.params[1].record);
  REQUIRE(f.planEntries.size() == 1);
  CHECK(f.planEntries[0].kernelName == "RowSum_rows");
  CHECK(f.planEntries[0].tileRows == 8);
  CHECK(f.reassociatedSums == std::vector<VarId>{3});
  CHECK(f.body->stmts[0]->range.begin.file == "kernels.cpp");
  CHECK(f.body->stmts[0]->range.begin.line == 2);
  REQUIRE(back->images.size() == 1);
  CHECK(back->images[0].bytes == m->images[0].bytes);
  CHECK(back->images[0].options == m->images[0].options);
  CHECK(back->cudaSource == m->cudaSource);

  // Borrowed: the image is not copied but points into the bytes, and saves as the same file.
  const auto borrowed = loadModule(bytes, "kernels.culift", ImageBytes::Borrow);
  REQUIRE(borrowed->images.size() == 1);
  CHECK(borrowed->images[0].bytes.empty());
  CHECK(borrowed->images[0].image() == m->images[0].bytes);
  CHECK(borrowed->images[0].borrowed.data() >= bytes.data());
  CHECK(borrowed->images[0].borrowed.data() + borrowed->images[0].borrowed.size() <= bytes.data() + bytes.size());
  CHECK(saveModule(*borrowed) == bytes);
}

TEST_CASE("a truncated module file is an error at every length") {
  const std::string bytes = saveModule(*seedModule());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::string message = errorOf(std::string_view(bytes).substr(0, n));
    INFO("first " << n << " bytes of " << bytes.size());
    REQUIRE(!message.empty());
    if (n >= 8 && n < kHeader) CHECK(message.find("truncated: it ends inside the header") != std::string::npos);
    if (n >= kHeader) CHECK(message.find("truncated: the header announces") != std::string::npos);
  }
  // Truncated and resealed: the reader itself finds the end too early.
  for (std::size_t n = kHeader; n < bytes.size(); ++n) {
    const std::string message = errorOf(resealed(bytes.substr(0, n)));
    INFO("first " << n << " bytes, resealed");
    REQUIRE(!message.empty());
  }
}

TEST_CASE("another format version, another file, damage and trailing bytes are named") {
  const std::string bytes = saveModule(*seedModule());
  std::string other = bytes;
  other[8] = static_cast<char>(kModuleFileVersion + 1);
  CHECK(errorOf(other).find("mutant.culift: module file format version " + std::to_string(kModuleFileVersion + 1) +
                            "; culift") != std::string::npos);
  CHECK(errorOf(other).find("reads version " + std::to_string(kModuleFileVersion)) != std::string::npos);

  CHECK(errorOf("").find("not a culift module file") != std::string::npos);
  CHECK(errorOf("// CUDA source\n__global__ void f() {}\n").find("not a culift module file") != std::string::npos);

  std::string damaged = bytes;
  damaged[bytes.size() / 2] ^= 0x10;
  CHECK(errorOf(damaged).find("corrupt: the content's checksum (xxHash64) does not match") != std::string::npos);
  std::string reserved = bytes;
  reserved[13] = 1;
  CHECK(errorOf(reserved).find("corrupt: the header's reserved field is not zero") != std::string::npos);

  CHECK(errorOf(bytes + "x").find("1 bytes follow the module's content") != std::string::npos);
  CHECK(errorOf(resealed(bytes + "x")).find("1 bytes follow the module's content") != std::string::npos);

  std::string missing;
  try {
    loadModuleFile("/nonexistent/dir/k.culift");
  } catch (const ModuleFileError& e) {
    missing = e.what();
  }
  CHECK(missing.find("/nonexistent/dir/k.culift: cannot read the module file") != std::string::npos);
}

TEST_CASE("the reader checks indices and shapes it is given") {
  // A module whose call names a function that does not exist, resealed: the checksum is right,
  // the content is not.
  std::shared_ptr<Module> m = seedModule();
  m->functions.pop_back();  // RowSum calls function 1, now gone
  CHECK(errorOf(saveModule(*m))
            .find("the module breaks the typed AST's rules: kernels.cpp:5:3: in 'RowSum': Call: it "
                  "calls function 1 of 1") != std::string::npos);

  m = seedModule();
  m->functions[0].indexParams = {7};
  CHECK(errorOf(saveModule(*m)).find("an index parameter of RowSum is parameter 7 of 3") != std::string::npos);

  m = seedModule();
  m->functions[1].body->stmts[0]->expr->operands.pop_back();  // a conditional with two operands
  CHECK(errorOf(saveModule(*m)).find("Conditional: it has 2 operands; the rule is: a Conditional has 3 operands") !=
        std::string::npos);

  m = seedModule();
  m->functions[0].reassociatedSums = {99};
  CHECK(errorOf(saveModule(*m)).find("a reassociated sum of RowSum is variable 99") != std::string::npos);
}

TEST_CASE("a file whose tree breaks the verifier's rules is an error naming the rule") {
  // Each module reads byte for byte, but holds a tree no front end builds.
  auto rejected = [](auto change) {
    std::shared_ptr<Module> m = seedModule();
    change(*m);
    const std::string message = errorOf(saveModule(*m));
    INFO(message);
    CHECK(message.rfind("mutant.culift: the module breaks the typed AST's rules: ", 0) == 0);
    return message;
  };
  CHECK(rejected([](Module& m) {
          m.functions[0].body->stmts[1]->cond->operands[0]->var = 40;  // k < cols names no variable
        }).find("VarRef: it names variable 40 of 5") != std::string::npos);
  CHECK(rejected([](Module& m) {
          m.functions[0].body->stmts[2]->expr->type = Type::value(Scalar::F64);  // sqrtf(...) as a double
        }).find("Return: it returns a double from a function returning float;") != std::string::npos);
  CHECK(rejected([](Module& m) {
          m.functions[1].body->stmts[0]->expr->operands[0]->binaryOp = BinaryOp::LogAnd;  // v && 0.0f
        }).find("Binary: operands of '&&' have types float and float") != std::string::npos);
  CHECK(rejected([](Module& m) {
          m.functions[0].body->stmts.push_back(std::make_unique<Stmt>(StmtKind::Continue, SourceRange{}));
        }).find("Continue: it is outside every loop") != std::string::npos);
  CHECK(rejected([](Module& m) {
          m.functions[0].signature.params[0].role = ParamRole::WritableArray;  // x written by the kernel
        }).find("KernelParam: the kernel parameter 'x' [output array] is const float*") != std::string::npos);
  // Several violations: the first is named, and how many more there are.
  const std::string several = rejected([](Module& m) {
    m.functions[0].body->stmts[0]->var = 0;         // declares the parameter x (and leaves s undeclared)
    m.functions[1].body->stmts[0]->expr = nullptr;  // return; in a float function
  });
  CHECK(several.find("Decl: it declares the parameter 'x'") != std::string::npos);
  CHECK(several.find(" more)") != std::string::npos);
}

TEST_CASE("the reader checks a record's layout against its parameter") {
  auto withRecord = [](auto change) {
    std::shared_ptr<Module> m = seedModule();
    change(*m->functions[0].signature.params[0].record);
    return errorOf(saveModule(*m));
  };
  const std::string pair = "mutant.culift: record Pair of parameter 'x' of RowSum";
  CHECK(withRecord([](RecordView& r) {
          r.fields[1].offset = 8;
        }).find(pair + ": field hi at byte 8 is not one of its 2 float elements") != std::string::npos);
  CHECK(withRecord([](RecordView& r) {
          r.fields[1].offset = 2;
        }).find(pair + ": field hi at byte 2 is not one of its 2 float elements") != std::string::npos);
  CHECK(withRecord([](RecordView& r) {
          r.size = 10;
        }).find(pair + " is 10 bytes, not a whole number of 4-byte float fields") != std::string::npos);
  CHECK(withRecord([](RecordView& r) { r.size = 0; }).find(pair + " is 0 bytes") != std::string::npos);
  CHECK(withRecord([](RecordView& r) {
          r.scalar = Scalar::F64;
        }).find(pair + " holds double fields, but the parameter is const float*") != std::string::npos);
  CHECK(withRecord([](RecordView& r) { r.scalar = Scalar::Void; }).find(pair + " holds void fields") !=
        std::string::npos);
  CHECK(withRecord([](RecordView& r) { r.align = 3; }).find(pair + " is aligned to 3 bytes") != std::string::npos);
  CHECK(withRecord([](RecordView& r) { r.align = 16; }).find(pair + " is aligned to 16 bytes") != std::string::npos);
  CHECK(withRecord([](RecordView& r) { r.fields.clear(); }).find(pair + " has no fields") != std::string::npos);
  CHECK(withRecord([](RecordView& r) { r.align = 8; }).empty());  // alignas(8): still a layout
  // A record on a scalar parameter.
  std::shared_ptr<Module> m = seedModule();
  m->functions[0].signature.params[1].record = m->functions[0].signature.params[0].record;
  CHECK(errorOf(saveModule(*m))
            .find("record Pair of parameter 'cols' of RowSum holds float fields, but the parameter is int") !=
        std::string::npos);
}

// Mutations: flip bits, overwrite with random or boundary bytes, insert, delete, duplicate a
// span. Raw mutants must all fail the header or checksum checks; resealed ones load or fail
// with a message, and what loads saves again and reloads to the same bytes.
TEST_CASE("thousands of mutated module files never crash the reader") {
  const std::string seed = saveModule(*seedModule());
  std::mt19937_64 rng(12);
  unsigned loaded = 0, rejected = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string mutant = seed;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !mutant.empty(); ++e) {
      const std::size_t at = kHeader + rng() % (mutant.size() - kHeader + 1);
      switch (rng() % 6) {
        case 0:
          if (at < mutant.size()) mutant[at] ^= static_cast<char>(1u << (rng() % 8));
          break;
        case 1:
          if (at < mutant.size()) mutant[at] = static_cast<char>(rng());
          break;
        case 2:
          if (at < mutant.size()) mutant[at] = static_cast<char>((rng() % 2) ? 0xff : 0x00);
          break;
        case 3: mutant.insert(at, 1 + rng() % 8, static_cast<char>(rng())); break;
        case 4: mutant.erase(at, 1 + rng() % 16); break;
        case 5: {
          const std::size_t from = kHeader + rng() % (seed.size() - kHeader);
          mutant.insert(at, seed.substr(from, 1 + rng() % 32));
          break;
        }
      }
    }
    if (mutant == seed) continue;
    INFO("round " << round);
    REQUIRE(!errorOf(mutant).empty());  // the header or the checksum catches every raw mutant
    const std::string sealed = resealed(mutant);
    std::shared_ptr<Module> m;
    try {
      m = loadModule(sealed, "mutant.culift");
    } catch (const ModuleFileError& e) {
      REQUIRE(std::string(e.what()).rfind("mutant.culift: ", 0) == 0);
      ++rejected;
      continue;
    }
    ++loaded;
    const std::string again = saveModule(*m);
    REQUIRE(saveModule(*loadModule(again)) == again);
  }
  CHECK(rejected > 1000);  // the reader's own checks, past the checksum, did the rejecting
  CHECK(loaded > 0);       // some mutations (a name's letters, a line number) are still modules
}

TEST_CASE("nesting deeper than module files allow is an error, not a stack overflow") {
  FunctionBuilder b("deep", val(Scalar::I32));
  ExprPtr e = lit(1);
  for (int level = 0; level < 6000; ++level) e = un(UnaryOp::Neg, std::move(e));
  Function fn = b.take(stmts(ret(std::move(e))));
  classifyByHand(fn, IndexMode::DeviceOnly);
  Module m;
  m.functions.push_back(std::move(fn));
  const std::string bytes = saveModule(m);
  CHECK(errorOf(bytes).find("nested deeper than") != std::string::npos);
}

}  // namespace
}  // namespace culift
