// Built when the interpreter is not part of the build: the CPU backend says so.
#include "../backend.hpp"

namespace culift::rt::detail {

std::unique_ptr<BackendImpl> createCpuBackend(const EngineOptions&, std::string* whyNot) {
  if (whyNot) *whyNot = "the CPU backend is unavailable: culift was built without the interpreter (culift_interp)";
  return nullptr;
}

}  // namespace culift::rt::detail
