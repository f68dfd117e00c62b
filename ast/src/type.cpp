#include "culift/ast/type.hpp"

namespace culift {
namespace {
struct ScalarInfo {
  std::string_view spelling;
  unsigned bytes;
  bool integer, isSigned, floating;
};
constexpr ScalarInfo kScalars[] = {{"void", 0, false, false, false},
#define CULIFT_X(E, T, S, B, I, SG, F) {S, B, I, SG, F},
                                   CULIFT_SCALAR_TYPES(CULIFT_X)
#undef CULIFT_X
};
const ScalarInfo& scalarInfo(Scalar s) { return kScalars[static_cast<unsigned>(s)]; }
}  // namespace

std::string_view spelling(Scalar s) { return scalarInfo(s).spelling; }
unsigned byteSize(Scalar s) { return scalarInfo(s).bytes; }
bool isInteger(Scalar s) { return scalarInfo(s).integer; }
bool isSigned(Scalar s) { return scalarInfo(s).isSigned; }
bool isFloating(Scalar s) { return scalarInfo(s).floating; }

std::string toString(const Type& t) {
  std::string s;
  if (t.constElements) s += "const ";
  s += spelling(t.scalar);
  if (t.isPointer()) s += "*";
  if (t.isArray()) s += "[" + std::to_string(t.extent) + "]";
  return s;
}

}  // namespace culift
