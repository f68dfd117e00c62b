#include "campaign.hpp"

#include <fstream>
#include <regex>
#include <set>

#include <llvm/Support/FileSystem.h>

#include "reducer.hpp"
#include "regression_file.hpp"

namespace culift::rel {

std::vector<ProgramSpec> generateBatch(std::uint64_t seed, unsigned first, unsigned count, const GenOptions& gen,
                                       std::vector<Generated>* trees) {
  std::vector<ProgramSpec> out;
  for (unsigned k = first; k < first + count; ++k) {
    Generated g = generateProgram(seed, k, gen);
    out.push_back(g.spec);
    if (trees) trees->push_back(std::move(g));
  }
  return out;
}

namespace {

std::string slug(FindingKind k) {
  switch (k) {
    case FindingKind::NativeLevels: return "native_levels";
    case FindingKind::Interpreter: return "interp_mismatch";
    case FindingKind::InterpreterError: return "interp_error";
    case FindingKind::Translate: return "translate_rejects";
    case FindingKind::Nvrtc: return "nvrtc_rejects";
    case FindingKind::Native: return "host_compiler";
    case FindingKind::UndefinedBehaviour: return "undefined_behaviour";
    case FindingKind::Compiled: return "compiled_mismatch";
  }
  return "finding";
}

// The oracle restricted to the legs that show `kind`.
OracleOptions legsFor(FindingKind kind, const OracleOptions& base) {
  OracleOptions o = base;
  o.log = nullptr;
  o.ubsan = kind == FindingKind::UndefinedBehaviour;
  o.nativeO0 = kind == FindingKind::NativeLevels || kind == FindingKind::Interpreter || kind == FindingKind::Native ||
               kind == FindingKind::UndefinedBehaviour;
  o.nativeO2 = kind == FindingKind::NativeLevels || kind == FindingKind::Native;
  o.interpreter = kind == FindingKind::Interpreter || kind == FindingKind::InterpreterError ||
                  kind == FindingKind::Translate;
  o.nvrtc = kind == FindingKind::Nvrtc;
  o.compiled = kind == FindingKind::Compiled;
  o.plantedBugs.clear();
  o.compiledPlantedBugs.clear();
  return o;
}

// Adds one batch's planted-bug reports to the campaign's.
void addPlanted(std::vector<PlantedBugReport>& totals, const std::vector<PlantedBugReport>& batch) {
  if (totals.empty()) {
    totals = batch;
    return;
  }
  for (std::size_t b = 0; b < batch.size(); ++b) {
    PlantedBugReport& total = totals[b];
    if (total.caught == 0 && batch[b].caught) {
      total.firstProgram = batch[b].firstProgram;
      total.firstDetail = batch[b].firstDetail;
    }
    total.caught += batch[b].caught;
  }
}

// Adds one batch's leg counts to the campaign's.
void addCounts(LegCounts& t, const LegCounts& c) {
  t.programs += c.programs;
  t.nativeO0 += c.nativeO0;
  t.nativeO2 += c.nativeO2;
  t.interpreted += c.interpreted;
  t.calls += c.calls;
  t.nvrtcModules += c.nvrtcModules;
  t.nvrtcKernels += c.nvrtcKernels;
  t.planned += c.planned;
  for (const auto& [plan, n] : c.plans) t.plans[plan] += n;
  t.reassociating += c.reassociating;
  t.argDependent += c.argDependent;
  t.compiled += c.compiled;
  t.compiledReassociating += c.compiledReassociating;
  t.compiledLaunches += c.compiledLaunches;
  t.compiledInterpreterErrors += c.compiledInterpreterErrors;
  t.compiledLanes += c.compiledLanes;
  t.perElement.insert(t.perElement.end(), c.perElement.begin(), c.perElement.end());
  t.notLowered += c.notLowered;
  if (t.firstNotLowered.empty()) t.firstNotLowered = c.firstNotLowered;
  t.compiledSkipped = c.compiledSkipped;
  t.nvrtcSkipped = c.nvrtcSkipped;
  t.seconds += c.seconds;
}

}  // namespace

std::string reduceAndSave(Generated program, const Finding& finding, const CampaignOptions& options) {
  if (finding.argSet >= 0) {
    ArgSet keep = program.spec.argSets[static_cast<std::size_t>(finding.argSet)];
    program.spec.argSets = {keep};
  }
  const OracleOptions legs = legsFor(finding.kind, options.oracle);
  auto stillFails = [&](const ProgramSpec& candidate) {
    OracleReport r = runOracle({candidate}, legs);
    for (const Finding& f : r.findings)
      if (f.kind == finding.kind) return true;
    return false;
  };
  std::string detail = finding.detail;
  if (options.reduce && finding.kind != FindingKind::Native) {
    if (!stillFails(program.spec)) detail += "\n(did not fail again alone: saved unreduced)";
    else reduceProgram(program, stillFails, options.maxReduceAttempts);
    OracleReport again = runOracle({program.spec}, legs);
    for (const Finding& f : again.findings)
      if (f.kind == finding.kind) {
        detail = f.detail;
        break;
      }
  }
  if (options.regressionDir.empty()) return {};
  // A name unique across campaigns: the kind, the seed and the program.
  const std::string stem = slug(finding.kind) + "_s" + std::to_string(program.spec.seed) + "_" + program.spec.name;
  ProgramSpec saved = program.spec;
  const std::regex prefix("\\b" + saved.name + "_");
  saved.functions = std::regex_replace(saved.functions, prefix, stem + "_");
  saved.kernel = std::regex_replace(saved.kernel, prefix, stem + "_");
  for (ParamSpec& q : saved.params) q.recordType = std::regex_replace(q.recordType, prefix, stem + "_");
  saved.name = stem;
  llvm::sys::fs::create_directories(options.regressionDir);
  const std::string path = options.regressionDir + "/" + stem + ".cpp";
  std::ofstream(path) << writeRegression(saved, std::string(name(finding.kind)), detail);
  return path;
}

CampaignResult runCampaign(const CampaignOptions& options) {
  CampaignResult result;
  const unsigned end = options.first + options.count;
  for (unsigned first = options.first; first < end; first += options.batchSize) {
    const unsigned n = std::min(options.batchSize, end - first);
    std::vector<Generated> trees;
    std::vector<ProgramSpec> batch = generateBatch(options.seed, first, n, options.gen, &trees);
    OracleReport r = runOracle(batch, options.oracle);
    addCounts(result.totals, r.counts);
    for (const Generated& g : trees) result.generated.add(g.tree);
    addPlanted(result.planted, r.planted);
    addPlanted(result.compiledPlanted, r.compiledPlanted);
    if (options.oracle.log)
      options.oracle.log("batch " + std::to_string(first) + ".." + std::to_string(first + n - 1) + ": " + r.summary());
    std::set<std::pair<std::string, int>> seen;  // one finding per program and kind
    for (const Finding& f : r.findings) {
      result.findings.push_back(f);
      if (!seen.insert({f.program, static_cast<int>(f.kind)}).second) continue;
      for (Generated& g : trees)
        if (g.spec.name == f.program) {
          const std::string path = reduceAndSave(g, f, options);
          if (!path.empty()) {
            result.savedFiles.push_back(path);
            if (options.oracle.log) options.oracle.log("saved " + path);
          }
        }
    }
  }
  return result;
}

}  // namespace culift::rel
