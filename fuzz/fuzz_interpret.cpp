// libFuzzer target for the interpreter: a pool of generated programs (free of undefined
// behaviour for every argument value) is translated once; each input picks a program and
// supplies the raw argument bytes. The interpreter must return a value: an interpreter error
// on a UB-free program, or a crash, is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "campaign.hpp"
#include "culift/interpreter.hpp"
#include "culift/translate.hpp"
#include "value_bytes.hpp"

namespace {

using namespace culift;
using namespace culift::rel;

struct Pool {
  std::vector<ProgramSpec> programs;
  std::shared_ptr<const interp::Program> program;
  std::shared_ptr<const Module> module;
};

const Pool& pool() {
  static const Pool p = [] {
    Pool pool;
    pool.programs = generateBatch(0xF022, 0, 48, GenOptions{});
    std::string source =
        "#include <culift/annotate.hpp>\n#include <algorithm>\n#include <cmath>\n#include <cstdint>\n\n";
    for (const ProgramSpec& s : pool.programs) source += s.functions;
    TranslateOptions o;
    o.compilerArgs = {"-std=c++20"};
    TranslateResult r = translateSource(source, "fuzz_pool.cpp", o);
    if (!r.ok()) {
      std::fprintf(stderr, "fuzz pool does not translate:\n%s", r.formatDiagnostics().c_str());
      std::abort();
    }
    pool.module = r.module;
    interp::Options io;
    io.threads = 1;
    pool.program = interp::Program::compile(r.module, io);
    return pool;
  }();
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const Pool& p = pool();
  const ProgramSpec& spec = p.programs[data[0] % p.programs.size()];
  const Function* fn = p.module->find(spec.kernel);
  if (!fn) std::abort();
  std::size_t at = 1;
  auto take = [&](std::uint8_t* out, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) out[k] = at < size ? data[at++] : 0;
  };
  std::vector<std::vector<std::uint8_t>> storage;
  std::vector<interp::Arg> args;
  for (const ParamSpec& q : spec.params) {
    const std::size_t n = byteSize(q.type) * q.elements();
    std::vector<std::uint8_t> bytes(n);
    take(bytes.data(), n);
    if (q.type == Scalar::Bool)
      for (auto& b : bytes) b &= 1;
    storage.push_back(std::move(bytes));
    if (q.array) {
      interp::ArrayRef a;
      a.element = q.type;
      a.data = storage.back().data();
      a.size = q.elements();
      a.writable = q.writable;
      args.emplace_back(a);
    } else {
      args.emplace_back(valueFromBytes(q.type, storage.back().data()));
    }
  }
  try {
    (void)p.program->call(*fn, args);
  } catch (const interp::Error& e) {
    std::fprintf(stderr, "interpreter error on a program free of undefined behaviour (%s):\n%s\n%s", spec.name.c_str(),
                 e.diagnostic().format().c_str(), spec.source().c_str());
    std::abort();
  }
  return 0;
}
