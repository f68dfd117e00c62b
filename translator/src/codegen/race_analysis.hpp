// Race analysis: which kernels may let two outputs of one launch touch the same array element,
// one of them writing (a data race on the GPU, where outputs run in no fixed order).
#pragma once

#include "culift/ast/module.hpp"

namespace culift::codegen {

// Whether `fn` or a function it calls updates memory with std::atomic_ref (an AtomicRmw node).
bool usesAtomics(const Module& module, const Function& fn);

// Warns, through `diags`, at each access of a kernel's writable array that another output of the
// launch may write too (an index not provably different per output: counts[bin[i]], y[0]), or
// that reads or writes an element another output writes (x[i - 1] beside x[i] = ...). Atomic
// updates are not accesses here. Indices are compared as polynomials over the thread indices,
// counted loops' counters and the uniform scalars (docs/supported-subset.md#races-and-atomics).
void diagnoseRaces(const Module& module, DiagnosticSink& diags);

}  // namespace culift::codegen
