#include "culift/ast/module.hpp"

namespace culift {

std::string_view name(IndexMode m) {
  switch (m) {
    case IndexMode::Grid1D: return "Grid1D";
    case IndexMode::Grid2D: return "Grid2D";
    case IndexMode::Grid3D: return "Grid3D";
    case IndexMode::ElementWise: return "ElementWise";
    case IndexMode::DeviceOnly: return "DeviceOnly";
  }
  return "?";
}

unsigned rank(IndexMode m) {
  switch (m) {
    case IndexMode::Grid1D: return 1;
    case IndexMode::Grid2D: return 2;
    case IndexMode::Grid3D: return 3;
    case IndexMode::ElementWise: return 1;
    case IndexMode::DeviceOnly: return 0;
  }
  return 0;
}

std::string_view name(ParamRole r) {
  switch (r) {
    case ParamRole::ReadOnlyArray: return "input array";
    case ParamRole::WritableArray: return "output array";
    case ParamRole::Scalar: return "scalar";
    case ParamRole::PerElementScalar: return "element input";
    case ParamRole::ResultArray: return "out";
    case ParamRole::Extent: return "extent";
  }
  return "?";
}

std::string_view name(TensorCores t) {
  switch (t) {
    case TensorCores::None: return "none";
    case TensorCores::TF32: return "tf32";
    case TensorCores::BF16: return "bf16";
    case TensorCores::FP16: return "fp16";
  }
  return "?";
}

std::optional<TensorCores> tensorCoresNamed(std::string_view text) {
  for (TensorCores t : {TensorCores::None, TensorCores::TF32, TensorCores::BF16, TensorCores::FP16})
    if (name(t) == text) return t;
  return std::nullopt;
}

std::string_view roleName(const Function& fn, const KernelParam& p) {
  if (fn.mode == IndexMode::ElementWise && p.role == ParamRole::Scalar) return "uniform";
  if (fn.mode == IndexMode::ElementWise && p.role == ParamRole::ReadOnlyArray) return "uniform array";
  return name(p.role);
}

std::string_view name(LoopPlan p) {
  switch (p) {
#define CULIFT_LOOP_PLAN(Name, name, Mapping, fileId) \
  case LoopPlan::Name: return name;
#include "culift/ast/plans.def"
  }
  return "?";
}

std::string_view name(BlockMapping m) {
  switch (m) {
#define CULIFT_BLOCK_MAPPING(Name, parts, description) \
  case BlockMapping::Name: return #Name;
#include "culift/ast/plans.def"
  }
  return "?";
}

bool takesParts(BlockMapping m) {
  switch (m) {
#define CULIFT_BLOCK_MAPPING(Name, parts, description) \
  case BlockMapping::Name: return parts;
#include "culift/ast/plans.def"
  }
  return false;
}

BlockMapping blockMapping(LoopPlan p) {
  switch (p) {
#define CULIFT_LOOP_PLAN(Name, name, Mapping, fileId) \
  case LoopPlan::Name: return BlockMapping::Mapping;
#include "culift/ast/plans.def"
  }
  return BlockMapping::Threads;
}

std::uint8_t moduleFileId(LoopPlan p) {
  switch (p) {
#define CULIFT_LOOP_PLAN(Name, name, Mapping, fileId) \
  case LoopPlan::Name: return fileId;
#include "culift/ast/plans.def"
  }
  return 0xff;
}

std::optional<LoopPlan> loopPlanOfModuleFileId(std::uint8_t id) {
  switch (id) {
#define CULIFT_LOOP_PLAN(Name, name, Mapping, fileId) \
  case fileId: return LoopPlan::Name;
#include "culift/ast/plans.def"
    default: return std::nullopt;
  }
}

std::string KernelSignature::toString() const {
  std::string s = "(";
  for (size_t p = 0; p < params.size(); ++p) {
    if (p) s += ", ";
    s += culift::toString(params[p].type);
    s += ' ';
    s += params[p].name;
  }
  return s + ")";
}

const Function* Module::find(std::string_view name) const {
  for (const Function& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<const Function*> Module::kernels() const {
  std::vector<const Function*> out;
  for (const Function& f : functions)
    if (f.isKernel()) out.push_back(&f);
  return out;
}

}  // namespace culift
