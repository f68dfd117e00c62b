// Instances of the comparison operators.
#include "binary_nodes.hpp"

namespace culift::interp::exec {

ExprNodePtr makeComparison(Compiler& c, const Expr& e, Scalar t) {
  switch (e.binaryOp) {
    case BinaryOp::Lt: return makeBinary<BinaryOp::Lt>(c, e, t);
    case BinaryOp::Gt: return makeBinary<BinaryOp::Gt>(c, e, t);
    case BinaryOp::Le: return makeBinary<BinaryOp::Le>(c, e, t);
    case BinaryOp::Ge: return makeBinary<BinaryOp::Ge>(c, e, t);
    case BinaryOp::Eq: return makeBinary<BinaryOp::Eq>(c, e, t);
    case BinaryOp::Ne: return makeBinary<BinaryOp::Ne>(c, e, t);
    default: c.malformed(e.range, "unexpected operator '" + std::string(spelling(e.binaryOp)) + "'");
  }
}

}  // namespace culift::interp::exec
