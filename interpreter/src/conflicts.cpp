// Checked launches (Options::checkConflicts): every read and write of a writable array records
// which output of the launch made it, and an element that one output writes and another reads
// or writes too is an Error at the access. On the GPU the outputs of a launch run in no fixed
// order, so such a kernel's result depends on the schedule (a data race); std::atomic_ref
// updates are not recorded (combining the updates of several outputs is what they are for).
#include "runtime.hpp"

namespace culift::interp::exec {
namespace {

std::string outputText(std::uint64_t element) { return "output " + std::to_string(element); }

[[noreturn, gnu::cold]] void failConflict(const Expr& at, std::string message, bool accumulate) {
  fail(at.range, std::move(message) + ": the outputs of a launch run in no fixed order (a data race)",
       accumulate ? "accumulate with std::atomic_ref<T>(a[k]).fetch_add(v), or give each output an element of its own"
                  : "write the results to a separate output array; read only the elements the same output writes");
}

}  // namespace

void noteRead(const Frame& f, const Expr& at, const ArrayView& v, std::uint64_t k) {
  const std::uint64_t me = f.ctx->element + 1;
  const std::uint64_t writer = v.shadow->writer[k].load();
  if (writer != 0 && writer != me)
    failConflict(at,
                 outputText(me - 1) + " reads element " + std::to_string(k) + " of '" + v.shadow->name + "', which " +
                     outputText(writer - 1) + " writes",
                 false);
  std::uint64_t reader = v.shadow->reader[k].load();
  while (reader != me && reader != ConflictShadow::kSeveralReaders) {
    const std::uint64_t next = reader == 0 ? me : ConflictShadow::kSeveralReaders;
    if (v.shadow->reader[k].compare_exchange_weak(reader, next)) break;
  }
}

void noteWrite(const Frame& f, const Expr& at, const ArrayView& v, std::uint64_t k) {
  const std::uint64_t me = f.ctx->element + 1;
  std::uint64_t writer = 0;
  if (!v.shadow->writer[k].compare_exchange_strong(writer, me) && writer != me)
    failConflict(at,
                 outputText(me - 1) + " writes element " + std::to_string(k) + " of '" + v.shadow->name + "', which " +
                     outputText(writer - 1) + " writes too",
                 true);
  const std::uint64_t reader = v.shadow->reader[k].load();
  if (reader != 0 && reader != me)
    failConflict(at,
                 outputText(me - 1) + " writes element " + std::to_string(k) + " of '" + v.shadow->name + "', which " +
                     (reader == ConflictShadow::kSeveralReaders ? std::string("other outputs read")
                                                                : outputText(reader - 1) + " reads"),
                 false);
}

}  // namespace culift::interp::exec
