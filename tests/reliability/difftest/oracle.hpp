// The differential oracle: every program of a batch run natively (-O0 and -O2) and in the
// interpreter on the same arguments, compared bit for bit; every kernel module compiled by
// NVRTC; every kernel launched by the compiled CPU backend and compared with the interpreter's
// launch. Disagreements become findings the reducer can shrink.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "culift/cpujit.hpp"
#include "culift/interpreter.hpp"
#include "program.hpp"
#include "value_bytes.hpp"

namespace culift::rel {

struct OracleOptions {
  bool nativeO0 = true;
  bool nativeO2 = true;
  // Build the -O0 leg with UBSan (-fno-sanitize-recover=all): a report is a finding
  // (FindingKind::UndefinedBehaviour) with the report's text; generated code must be UB-free.
  bool ubsan = false;
  // How the interpreter's NaNs compare with native -O0's (both computed at run time on this
  // host: payload and quiet bit exactly, not the sign, which GCC's folding of negations changes
  // even at -O0), except in a call where a + or * met two different NaNs
  // (interp::differentNaNsMet: native code may take either operand's). Against -O2, which may
  // fold a NaN at compile time, NaNs are equal whatever their bits (docs/numerical-contract.md).
  NaNBits interpreterNaNs = NaNBits::Payload;
  bool interpreter = true;
  // The compiled CPU leg (compiled_leg.hpp): every kernel launched over its extent by checked and
  // by unchecked compiled code, each compared with the interpreter's launch.
  bool compiled = false;
  // With the compiled leg and native -O2: each program both agreed on is timed, unchecked compiled
  // code's nanoseconds per output of its launch against native -O2's per call (LegCounts::perElement).
  bool timing = false;
  bool nvrtc = true;       // compile every module with NVRTC (sm_90 cubin, --fmad=false)
  std::string includeDir;  // culift's include/ (annotate.hpp)
  std::string workDir;     // empty: a fresh temporary directory
  bool keepFiles = false;
  std::function<void(const std::string&)> log;  // progress lines; may be empty
  // The oracle's own test: after the comparison, the interpreter leg runs again with each of these
  // deliberate bugs (interp::Options::plantedBug) against the same native results; each must be
  // caught (OracleReport::planted).
  std::vector<interp::PlantedBug> plantedBugs;
  // The compiled leg's own test: it runs again, unchecked, with each of these (cpujit::Options::
  // plantedBug) on the programs it agreed on; each must be caught (OracleReport::compiledPlanted).
  std::vector<cpujit::PlantedBug> compiledPlantedBugs;
};

// What one planted bug did to a batch: the programs where the interpreter with the bug disagreed
// with native code (or failed) although the real interpreter agreed.
struct PlantedBugReport {
  interp::PlantedBug bug = interp::PlantedBug::None;
  cpujit::PlantedBug compiledBug = cpujit::PlantedBug::None;  // the compiled leg's (bug is None)
  unsigned caught = 0;                                        // programs
  std::string firstProgram;                                   // the first of them, and what differed
  std::string firstDetail;
};
std::string_view name(interp::PlantedBug bug);  // "FloatToIntRounds", ...
std::string_view name(cpujit::PlantedBug bug);  // "SignedShiftRightLogical", ...
std::string name(const PlantedBugReport& r);    // either bug's name

enum class FindingKind : std::uint8_t {
  NativeLevels,        // -O0 and -O2 disagree: the generator made undefined behaviour
  Interpreter,         // the interpreter disagrees with native code
  InterpreterError,    // the interpreter threw on a UB-free program
  Translate,           // the front end rejected a valid program
  Nvrtc,               // NVRTC rejected the emitted CUDA
  Native,              // the host compiler rejected the program (a generator bug)
  UndefinedBehaviour,  // UBSan reported undefined behaviour in the -O0 leg (a generator bug)
  Compiled,            // the compiled CPU code disagrees with the interpreter's launch (or fails alone)
};
std::string_view name(FindingKind k);

struct Finding {
  FindingKind kind;
  std::string program;  // ProgramSpec::name
  int argSet = -1;
  std::string detail;  // what differed: "result: native 3 (..), interpreter 4 (..)"
};

struct LegCounts {
  unsigned programs = 0;
  unsigned nativeO0 = 0, nativeO2 = 0, interpreted = 0;  // programs run on each leg
  unsigned calls = 0;                                    // argument sets compared
  unsigned nvrtcModules = 0, nvrtcKernels = 0;           // compiled by NVRTC
  unsigned planned = 0;                                  // of those kernels, with loop-plan entries
  std::map<std::string, unsigned> plans;                 // of those, per plan (`culift ast`'s name)
  unsigned reassociating = 0;                            // of those, reassociating row reductions
  unsigned argDependent = 0;                             // programs whose outputs differ between argument sets
  unsigned compiled = 0;                                 // programs launched by compiled code (both kinds)
  unsigned compiledReassociating = 0;                    // of those, reassociating (both orders compared)
  unsigned compiledLaunches = 0;                         // launches compared, per kind of code
  unsigned compiledInterpreterErrors = 0;                // of those, launches the interpreter failed
  unsigned compiledLanes = 0;                            // of those, kernels whose outputs run side by side
  struct Timed {
    double ratio;         // compiled / native, per element
    std::string program;  // ProgramSpec::name
  };
  std::vector<Timed> perElement;  // OracleOptions::timing: per program timed
  unsigned notLowered = 0;        // programs whose kernel the backend leaves out
  std::string firstNotLowered;    // the first of them and why
  std::string compiledSkipped;    // why the compiled leg did not run
  std::string nvrtcSkipped;       // why NVRTC did not run
  double seconds = 0;
};

struct OracleReport {
  LegCounts counts;
  std::vector<Finding> findings;
  std::vector<PlantedBugReport> planted;          // one per OracleOptions::plantedBugs, in that order
  std::vector<PlantedBugReport> compiledPlanted;  // one per OracleOptions::compiledPlantedBugs
  std::string summary() const;
};

// Runs one batch. Programs must have distinct names.
OracleReport runOracle(const std::vector<ProgramSpec>& programs, const OracleOptions& options);

}  // namespace culift::rel
