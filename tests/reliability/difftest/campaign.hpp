// A campaign: generate programs in batches, run the oracle on each batch, reduce every
// finding and save it as a regression file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "generator.hpp"
#include "oracle.hpp"

namespace culift::rel {

struct CampaignOptions {
  std::uint64_t seed = 1;
  unsigned first = 0;  // programs first .. first + count - 1 of the seed
  unsigned count = 300;
  unsigned batchSize = 60;
  GenOptions gen;
  OracleOptions oracle;
  bool reduce = true;
  std::string regressionDir;  // empty: findings are reported, not saved
  unsigned maxReduceAttempts = 300;
};

struct CampaignResult {
  LegCounts totals;
  std::vector<Finding> findings;
  std::vector<PlantedBugReport> planted;          // OracleOptions::plantedBugs over every batch
  std::vector<PlantedBugReport> compiledPlanted;  // OracleOptions::compiledPlantedBugs over every batch
  std::vector<std::string> savedFiles;
  GenStats generated;  // what the programs held
};

std::vector<ProgramSpec> generateBatch(std::uint64_t seed, unsigned first, unsigned count, const GenOptions& gen,
                                       std::vector<Generated>* trees = nullptr);

CampaignResult runCampaign(const CampaignOptions& options);

// Reduces the program behind `finding` (one of `trees`) and writes the regression file;
// returns its path (empty when not saved).
std::string reduceAndSave(Generated program, const Finding& finding, const CampaignOptions& options);

}  // namespace culift::rel
