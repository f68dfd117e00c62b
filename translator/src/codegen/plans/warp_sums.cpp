#include "warp_sums.hpp"

#include "culift/ast/reassociation.hpp"

namespace culift::codegen {

WarpSumsWriter::WarpSumsWriter(const Module& module, const Function& fn, CodeWriter& out, bool deeper)
    : EntryWriter(module, fn, out),
      unroll_((widestElement() > 4 ? 8 : 16) * (deeper ? 2 : 1)),
      sums_(fn.reassociatedSums) {}

void WarpSumsWriter::startIterations(const PrintRewrites& perOutput) {
  step_ = perOutput;
  step_.returns = nullptr;
  for (size_t s = 0; s < sums_.size(); ++s) step_.vars[sums_[s]] = "culift_c" + str(s);
  usesK_ = mentions(*a_.loop->body, a_.counter, step_);
}

void WarpSumsWriter::declare(const std::string& prefix, const std::string& comment) {
  for (size_t s = 0; s < sums_.size(); ++s)
    out_.say(typeOf(sums_[s]) + " " + prefix + str(s) + " = " + identity(sums_[s]) + ";  // " + comment + " " +
             name(sums_[s]));
}

CodeWriter::Scope WarpSumsWriter::slotLoop(const std::string& first, const std::string& step) {
  out_.say("#pragma unroll 1");
  return out_.open("for (long long culift_q = " + first + "; culift_q < " + str(kReassociationSlots) +
                   " && culift_q * " + str(kReassociationChunk) + " < culift_trip; culift_q += " + step + ")");
}

void WarpSumsWriter::slotSum() {
  declare("culift_a", "slot culift_q of");
  out_.say("#pragma unroll 1");
  CodeWriter::Scope chunks = out_.open(
      "for (long long culift_g = culift_q * " + str(kReassociationChunk) +
      "; culift_g < culift_trip; culift_g += " + str(kReassociationChunk * kReassociationSlots) + ")");
  out_.say("const long long culift_end = culift_g + " + str(kReassociationChunk) + " < culift_trip ? culift_g + " +
           str(kReassociationChunk) + " : culift_trip;  // chunk culift_g / " + str(kReassociationChunk));
  chunkPart();
  laneTree("culift_p");
  for (size_t s = 0; s < sums_.size(); ++s)
    out_.say("culift_a" + str(s) + " = culift_a" + str(s) + " + culift_p" + str(s) + ";");
}

void WarpSumsWriter::chunkPart() {
  declare("culift_p", "this lane's part of the chunk's");
  out_.say("long long culift_t = culift_g + culift_lane;  // iteration index");
  out_.say("#pragma unroll 1");
  {
    CodeWriter::Scope steps = out_.open("for (; culift_t + " + str(32 * (unroll_ - 1)) +
                                        " < culift_end; culift_t += " + str(32 * unroll_) + ")");
    out_.say("#pragma unroll");
    CodeWriter::Scope unrolled = out_.open("for (int culift_u = 0; culift_u < " + str(unroll_) + "; ++culift_u)");
    iteration("culift_t + 32 * culift_u");
  }
  out_.say("#pragma unroll 1");
  CodeWriter::Scope rest = out_.open("for (; culift_t < culift_end; culift_t += 32)");
  iteration("culift_t");
}

void WarpSumsWriter::iteration(const std::string& t) {
  if (usesK_) out_.say(counterAt(t));
  for (size_t s = 0; s < sums_.size(); ++s)
    out_.say(typeOf(sums_[s]) + " culift_c" + str(s) + " = " + identity(sums_[s]) + ";  // this iteration's term");
  printBody(step_, *a_.loop->body);
  for (size_t s = 0; s < sums_.size(); ++s)
    out_.say("culift_p" + str(s) + " = culift_p" + str(s) + " + culift_c" + str(s) + ";");
}

void WarpSumsWriter::laneTree(const std::string& prefix) {
  out_.say("#pragma unroll");
  CodeWriter::Scope tree = out_.open("for (int culift_d = 16; culift_d >= 1; culift_d /= 2)");
  for (size_t s = 0; s < sums_.size(); ++s)
    out_.say(prefix + str(s) + " = " + prefix + str(s) + " + __shfl_xor_sync(0xffffffffu, " + prefix + str(s) +
             ", culift_d);");
}

void WarpSumsWriter::addToSums(const std::string& prefix) {
  for (size_t s = 0; s < sums_.size(); ++s)
    out_.say(name(sums_[s]) + " = " + name(sums_[s]) + " + " + prefix + str(s) + ";");
}

}  // namespace culift::codegen
