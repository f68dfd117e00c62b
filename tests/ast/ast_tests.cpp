#include <cstdint>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "culift/ast/module.hpp"
#include "culift/ast/stack.hpp"
#include "small_stack.hpp"

using namespace culift;

TEST_CASE("scalar types have C++ sizes and CUDA spellings", "[ast]") {
  CHECK(byteSize(Scalar::I8) == 1);
  CHECK(byteSize(Scalar::U64) == 8);
  CHECK(spelling(Scalar::I64) == "long long");
  CHECK(spelling(Scalar::U8) == "unsigned char");
  CHECK(isSigned(Scalar::I16));
  CHECK_FALSE(isSigned(Scalar::U16));
  CHECK(isFloating(Scalar::F32));
  CHECK_FALSE(isInteger(Scalar::Bool));
  CHECK(toString(Type::pointer(Scalar::F32, true)) == "const float*");
  CHECK(toString(Type::array(Scalar::F64, 6)) == "double[6]");
}

TEST_CASE("math names resolve, C float forms included", "[ast]") {
  MathFn fn;
  bool floatForm = false;
  REQUIRE(lookupMathFn("sqrtf", fn, floatForm));
  CHECK(fn == MathFn::Sqrt);
  CHECK(floatForm);
  REQUIRE(lookupMathFn("erf", fn, floatForm));
  CHECK(fn == MathFn::Erf);
  CHECK_FALSE(floatForm);
  REQUIRE(lookupMathFn("erff", fn, floatForm));
  CHECK(fn == MathFn::Erf);
  CHECK(floatForm);
  CHECK(info(MathFn::Pow).floatName == "powf");
  CHECK_FALSE(lookupMathFn("printf", fn, floatForm));
  CHECK_FALSE(lookupMathFn("minf", fn, floatForm));
}

TEST_CASE("diagnostics print file:line:col, the line and a caret", "[ast]") {
  DiagnosticSink sink;
  sink.setLineLookup([](const std::string&, unsigned) { return std::string("  int x = y;"); });
  sink.error(SourceLoc{"k.cpp", 3, 11}, "use of undeclared identifier 'y'", "declare it first");
  REQUIRE(sink.hasErrors());
  CHECK(sink.formatAll() ==
        "k.cpp:3:11: error: use of undeclared identifier 'y'\n"
        "  int x = y;\n"
        "          ^\n"
        "note: declare it first\n");
}

namespace {
// Recurses `levels` deep with about 1 KB of stack per level.
unsigned deepRecursion(unsigned levels) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(levels);
  if (levels == 0) return 0;
  return deepRecursion(levels - 1) + 1 + static_cast<unsigned>(frame[0] - static_cast<char>(levels));
}
}  // namespace

TEST_CASE("runOnCuliftStack gives work culift's stack on any thread, and its exceptions back", "[ast][stack]") {
  std::size_t leftOutside = 0, leftInside = 0;
  unsigned depth = 0;
  std::thread::id worker, nested;
  std::string caught;
  test::onSmallStack([&] {
    leftOutside = culiftStackLeft();
    runOnCuliftStack([&] {
      leftInside = culiftStackLeft();
      depth = deepRecursion(16 * 1024);  // 16 MB: far beyond the calling thread's 512 KB
      worker = std::this_thread::get_id();
      runOnCuliftStack([&] { nested = std::this_thread::get_id(); });
    });
    try {
      runOnCuliftStack([] { throw std::runtime_error("from the culift stack"); });
    } catch (const std::runtime_error& e) {
      caught = e.what();
    }
  });
  CHECK(leftOutside == SIZE_MAX);
  CHECK(leftInside <= kCuliftStackSize);
  CHECK(leftInside > kCuliftStackSize - (64u << 10));
  CHECK(depth == 16 * 1024);
  CHECK(worker == nested);  // already on a culift stack: no second thread
  CHECK(caught == "from the culift stack");
}

TEST_CASE("a deeply nested AST is freed on a thread with a 512 KB stack", "[ast][stack]") {
  constexpr unsigned kLevels = 200000;  // recursive destructors would need megabytes
  bool freed = false;
  test::onSmallStack([&] {
    ExprPtr e = std::make_unique<Expr>(ExprKind::VarRef, Type::value(Scalar::I32), SourceRange{});
    for (unsigned k = 0; k < kLevels; ++k) {
      auto neg = std::make_unique<Expr>(ExprKind::Unary, Type::value(Scalar::I32), SourceRange{});
      neg->operands.push_back(std::move(e));
      e = std::move(neg);
    }
    StmtPtr s = std::make_unique<Stmt>(StmtKind::Null, SourceRange{});
    for (unsigned k = 0; k < kLevels; ++k) {
      auto block = std::make_unique<Stmt>(StmtKind::Block, SourceRange{});
      block->stmts.push_back(std::move(s));
      auto branch = std::make_unique<Stmt>(StmtKind::If, SourceRange{});
      branch->then = std::move(block);
      s = std::move(branch);
    }
    e.reset();
    s.reset();
    freed = true;
  });
  CHECK(freed);
}

// ---- plans.def ------------------------------------------------------------------------------

namespace {

constexpr LoopPlan kPlans[] = {
#define CULIFT_LOOP_PLAN(Name, name, Mapping, fileId) LoopPlan::Name,
#include "culift/ast/plans.def"
};

// The plans docs/loop-plans.md lists: the first column of its table of plans, `name` in backticks.
std::vector<std::string> documentedPlans() {
  std::ifstream in(CULIFT_SOURCE_DIR "/docs/loop-plans.md");
  std::vector<std::string> names;
  std::string line;
  bool inTable = false;
  while (std::getline(in, line)) {
    if (line.rfind("| plan |", 0) == 0) inTable = true;
    else if (inTable && line.rfind("| `", 0) == 0) names.push_back(line.substr(3, line.find('`', 3) - 3));
    else if (inTable && line.rfind("|", 0) != 0) break;
  }
  return names;
}

}  // namespace

TEST_CASE("plans.def: one name, mapping and module-file id per plan, ids never shared", "[ast][plans]") {
  STATIC_REQUIRE(std::size(kPlans) == kLoopPlanCount);
  std::set<std::uint8_t> ids;
  std::set<std::string_view> names;
  for (LoopPlan p : kPlans) {
    ids.insert(moduleFileId(p));
    names.insert(name(p));
    CHECK(loopPlanOfModuleFileId(moduleFileId(p)) == p);
    CHECK((blockMapping(p) == BlockMapping::Threads) == (p == LoopPlan::PerThread));
  }
  CHECK(ids.size() == kLoopPlanCount);
  CHECK(names.size() == kLoopPlanCount);
  CHECK_FALSE(loopPlanOfModuleFileId(0xff));
  // The ids module files written so far hold.
  CHECK(moduleFileId(LoopPlan::PerThread) == 0);
  CHECK(moduleFileId(LoopPlan::TiledContraction) == 1);
  CHECK(moduleFileId(LoopPlan::SymmetricTiledContraction) == 2);
  CHECK(moduleFileId(LoopPlan::RowReduction) == 3);
  CHECK(moduleFileId(LoopPlan::ReassociatingRowReduction) == 4);
  CHECK(name(BlockMapping::Triangle) == "Triangle");
  // An entry maps its blocks as its plan does unless it says otherwise.
  PlanEntry e;
  e.plan = LoopPlan::SymmetricTiledContraction;
  CHECK(e.blockMapping() == BlockMapping::Triangle);
  e.mapping = BlockMapping::Tiles2D;
  CHECK(e.blockMapping() == BlockMapping::Tiles2D);
}

TEST_CASE("docs/loop-plans.md lists the plans of plans.def", "[ast][plans][docs]") {
  const std::vector<std::string> documented = documentedPlans();
  std::set<std::string> listed(documented.begin(), documented.end()), defined;
  for (LoopPlan p : kPlans) defined.insert(std::string(name(p)));
  CHECK(documented.size() == listed.size());  // each once
  CHECK(listed == defined);
}
