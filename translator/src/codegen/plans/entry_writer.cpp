#include "entry_writer.hpp"

#include <algorithm>
#include <stdexcept>

namespace culift::codegen {

bool mentions(const Stmt& s, VarId v, const PrintRewrites& r) {
  bool found = false;
  visitExprs(s, [&](const Expr& e) {
    if (found || r.exprs.count(&e)) return false;
    found = e.kind == ExprKind::VarRef && e.var == v;
    return true;
  });
  return found;
}

EntryWriter::EntryWriter(const Module& module, const Function& fn, CodeWriter& out, bool liftsLoop)
    : fn_(fn), out_(out), printer_(module, fn, Flavor::Cuda, out), params_(entryParams(fn)) {
  if (!liftsLoop) return;
  std::string reason;
  auto a = analyzeLoop(fn, reason);
  if (!a) throw std::logic_error("loop plan of " + fn.name + " does not hold: " + reason);
  a_ = std::move(*a);
  // Bounds and staged indices read locals through their initializers.
  for (VarId v : a_.inlined) {
    for (const Stmt* s : a_.prologue)
      if (s->kind == StmtKind::Decl && s->var == v && s->expr)
        inlineRewrites_.vars[v] = "(" + printWith(inlineRewrites_, *s->expr) + ")";
  }
}

std::string EntryWriter::printWith(const PrintRewrites& r, const Expr& e) {
  printer_.setRewrites(&r);
  std::string s = printer_.printExpression(e);
  printer_.setRewrites(nullptr);
  return s;
}

void EntryWriter::printWith(const PrintRewrites& r, const Stmt& s, bool inEntryScope) {
  printer_.setRewrites(&r);
  if (inEntryScope && s.kind == StmtKind::Block && s.scoped)
    for (const StmtPtr& c : s.stmts) printer_.printStatement(*c, out_.depth());
  else printer_.printStatement(s, out_.depth());
  printer_.setRewrites(nullptr);
  out_.mapToGenerated();
}

CodeWriter::Scope EntryWriter::header(const PlanEntry& e, const std::string& what, unsigned minBlocks,
                                      const std::string& minBlocksSpelled) {
  return signature(e,
                   {fn_.name + ": " + std::string(culift::name(e.plan)) + ", " + what +
                    (onTensorCores(e.plan)
                         ? std::string(".")
                         : "; each output runs the loop in source order (the per-thread entry's bits).")},
                   tensorMapParams(e), minBlocks, minBlocksSpelled);
}

// The parameters of an entry's bulk tensor copies: a tensor map per operand, then the mask of
// those the runtime could encode.
std::string EntryWriter::tensorMapParams(const PlanEntry& e) {
  std::string params;
  for (std::size_t m = 0; m < e.tensorMaps.size(); ++m)
    params += "const __grid_constant__ culift_tensor_map culift_map" + str(m) + ", ";
  return params.empty() ? params : params + "int culift_maps";
}

CodeWriter::Scope EntryWriter::signature(const PlanEntry& e, const std::vector<std::string>& comment,
                                         const std::string& extra, unsigned minBlocks,
                                         const std::string& minBlocksSpelled) {
  out_.mapToGenerated();
  for (const std::string& c : comment) out_.say("// " + c);
  const std::string blocks = !minBlocksSpelled.empty() ? ", " + minBlocksSpelled
                             : minBlocks               ? ", " + str(minBlocks)
                                                       : std::string();
  return out_.open("extern \"C\" __global__ void __launch_bounds__(" + str(e.threads) + blocks + ") " + e.kernelName +
                   "(" + params_.declarations + ", long long culift_first" + (extra.empty() ? "" : ", " + extra) + ")");
}

void EntryWriter::extents(bool columns, bool batches) {
  const unsigned first = batched() ? 1 : 0;
  if (batched() && batches) out_.say("const int culift_nb = (int)" + params_.extent[0] + ";");
  out_.say("const int culift_ni = (int)" + params_.extent[first] + ";");
  if (columns) out_.say("const int culift_nj = (int)" + params_.extent[first + 1] + ";");
}

void EntryWriter::aliases() {
  for (size_t k = 0; k < fn_.signature.params.size(); ++k) {
    const KernelParam& p = fn_.signature.params[k];
    if (p.userParam < 0) continue;
    const std::string& printed = name(static_cast<VarId>(p.userParam));
    if (printed == params_.names[k]) continue;
    out_.say(AstPrinter::declarator(fn_.vars[p.userParam].type, printed) + " = " + flatPointer(p, params_.names[k]) +
             ";");
  }
}

void EntryWriter::bounds() {
  const Expr& cond = *a_.loop->cond;
  const std::string ct(spelling(cond.operands[0]->type.scalar));  // the comparison's type
  out_.say("const " + counterType() + " culift_lo = " + printWith(inlineRewrites_, *a_.lowerBound) + ";");
  out_.say("const " + ct + " culift_hi = " + printWith(inlineRewrites_, *a_.upperBound) + ";");
  const bool isSigned = culift::isSigned(cond.operands[0]->type.scalar);
  const std::string lo = "(" + ct + ")culift_lo";
  const std::string span = isSigned ? "(long long)culift_hi - (long long)" + lo : "(long long)(culift_hi - " + lo + ")";
  out_.say("const long long culift_trip = " + lo + (a_.inclusive ? " <= " : " < ") + "culift_hi ? " + span +
           (a_.inclusive ? " + 1" : "") + " : 0;  // iterations of the loop over " + name(a_.counter));
}

std::string EntryWriter::counterAt(const std::string& offset) const {
  return "const " + counterType() + " " + name(a_.counter) + " = (" + counterType() + ")(culift_lo + (" + offset +
         "));";
}

void EntryWriter::copyElement(const StagedOperand& o, const std::string& shared) {
  out_.say("culift_copy_async(&" + shared + ", &" + name(o.array) + "[" + printWith(inlineRewrites_, *o.index) + "]);");
}

void EntryWriter::copyChunk(const StagedOperand& o, const std::string& dst) {
  const std::string src = name(o.array) + "[" + printWith(inlineRewrites_, *o.index) + "]";
  out_.say(counterAt("culift_kq"));
  out_.say("const " + std::string(spelling(o.element)) + "* culift_src = &" + src + ";");
  // 16 bytes at once only where all 16 are the array's: a chunk that ends the row (or the array)
  // is copied element by element, so no copy reads past what the loop reads.
  const std::string chunk = str(16 / byteSize(o.element));
  CodeWriter::Scope aligned = out_.open(
      "if (reinterpret_cast<unsigned long long>(culift_src) % 16 == 0 && culift_valid == " + chunk + ")");
  out_.say("culift_copy_async16(&" + dst + ", culift_src, 16);");
  aligned.otherwise();
  CodeWriter::Scope elements = out_.open("for (int culift_e = 0; culift_e < culift_valid; ++culift_e)");
  out_.say("const " + counterType() + " " + name(a_.counter) + " = (" + counterType() +
           ")(culift_lo + (culift_kq + culift_e));");
  out_.say("culift_copy_async(&" + dst + " + culift_e, &" + src + ");");
}

void EntryWriter::declareShared(const PlanEntry& e, const std::vector<SharedArray>& arrays, unsigned align,
                                bool within) {
  const bool dynamic = e.sharedBytes > 0;
  if (dynamic && align > 16) {
    // The arrays from the allocation's first `align`-byte boundary (the allocation `align` bytes over
    // theirs): its start is 16-byte aligned.
    out_.say("extern __shared__ __align__(16) unsigned char culift_dynamic_raw[];  // " + str(e.sharedBytes) +
             " bytes");
    out_.say("unsigned char* const culift_dynamic_shared = culift_dynamic_raw + ((" + str(align) +
             "u - ((unsigned)__cvta_generic_to_shared(culift_dynamic_raw) & " + str(align - 1) + "u)) & " +
             str(align - 1) + "u);");
  } else if (dynamic) {
    out_.say("extern __shared__ __align__(16) unsigned char culift_dynamic_shared[];  // " + str(e.sharedBytes) +
             " bytes");
  }
  const std::size_t room = dynamic && align > 16 ? align : 0;  // bytes the alignment may take
  std::size_t offset = 0;
  for (const SharedArray& a : arrays) {
    if (!dynamic) {
      out_.say("__shared__ __align__(16) " + a.element + " " + a.name + a.dims + ";  // " + a.comment);
      continue;
    }
    if (a.bytes % 16)
      throw std::logic_error(e.kernelName + ": shared array " + a.name + " is not a multiple of 16 bytes");
    out_.say("typedef " + a.element + " " + a.name + "_t" + a.dims + ";");
    out_.say(a.name + "_t& " + a.name + " = *reinterpret_cast<" + a.name + "_t*>(culift_dynamic_shared + " +
             str(offset) + ");  // " + a.comment);
    offset += a.bytes;
  }
  if (dynamic && (within ? offset + room > e.sharedBytes : offset + room != e.sharedBytes))
    throw std::logic_error(e.kernelName + ": its shared arrays take " + std::to_string(offset) + " bytes of the " +
                           std::to_string(e.sharedBytes) + " it declares");
}

std::string EntryWriter::outIndex() const {
  if (batched())
    return "((long long)" + name(a_.batch) + " * culift_ni + " + name(axisVar(0)) + ") * culift_nj + " +
           name(axisVar(1));
  if (fn_.mode == IndexMode::Grid2D) return "(long long)" + name(axisVar(0)) + " * culift_nj + " + name(axisVar(1));
  return name(axisVar(0));
}

std::string EntryWriter::store(const std::string& value) const {
  return params_.outName + "[" + outIndex() + "] = " + value + ";";
}

void EntryWriter::epilogueStoring(PrintRewrites after) {
  const bool value = returnsValue();
  after.returns = [&](const std::string& v) {
    return value ? "{ " + store(v) + " continue; }" : std::string("continue;");
  };
  for (const Stmt* s : a_.epilogue) printWith(after, *s);
}

void EntryWriter::assignedParamCopies(PrintRewrites& r) {
  for (VarId v : a_.assignedParams) {
    out_.say(typeOf(v) + " culift_" + name(v) + "_" + str(v) + " = " + name(v) + ";  // assigned by the body");
    r.vars[v] = "culift_" + name(v) + "_" + str(v);
  }
}

CodeWriter::Scope EntryWriter::warpPerRow(unsigned warps) {
  const VarId iv = axisVar(0);
  out_.say("#pragma unroll 1");
  CodeWriter::Scope rows = out_.open(
      "for (long long culift_row = culift_first + (long long)blockIdx.x * " + str(warps) +
      " + threadIdx.x / 32; culift_row < culift_ni; culift_row += (long long)gridDim.x * " + str(warps) + ")");
  out_.say("const " + typeOf(iv) + " " + name(iv) + " = (" + typeOf(iv) + ")culift_row;");
  return rows;
}

PrintRewrites EntryWriter::prologueOnEveryLane() {
  PrintRewrites r;
  assignedParamCopies(r);
  out_.say("// The statements before the loop, on every lane (they are the same for the warp).");
  const bool value = returnsValue();
  r.returns = [this, value](const std::string& v) {
    return value ? "{ if (culift_lane == 0) " + store(v) + " continue; }" : std::string("continue;");
  };
  for (const Stmt* s : a_.prologue) printWith(r, *s);
  return r;
}

PrintRewrites EntryWriter::prologueRewrites() const {
  PrintRewrites r;
  for (VarId v : a_.inlined) {
    if (std::find(a_.live.begin(), a_.live.end(), v) != a_.live.end()) continue;
    bool used = false;
    for (const Stmt* s : a_.prologue) used = used || mentions(*s, v, r);
    if (!used) r.dropped.insert(v);
  }
  return r;
}

unsigned EntryWriter::widestElement() const {
  unsigned widest = 0;
  for (const StagedOperand& o : a_.operands) widest = std::max(widest, byteSize(o.element));
  return widest;
}

}  // namespace culift::codegen
