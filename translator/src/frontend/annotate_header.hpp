// The annotation header culift makes visible to every translation as <culift/annotate.hpp>.
#pragma once

#include <string_view>

namespace culift::frontend {

// Text of include/culift/annotate.hpp, embedded.
std::string_view annotateHeaderText();

// The in-memory include directory that holds culift/annotate.hpp.
inline constexpr const char* kVirtualIncludeDir = "/__culift__/include";

}  // namespace culift::frontend
