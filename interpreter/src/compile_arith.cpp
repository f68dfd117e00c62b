// Instances of the arithmetic and bitwise operators.
#include "binary_nodes.hpp"

namespace culift::interp::exec {

ExprNodePtr makeArithmetic(Compiler& c, const Expr& e, Scalar t) {
  switch (e.binaryOp) {
    case BinaryOp::Add: return makeBinary<BinaryOp::Add>(c, e, t);
    case BinaryOp::Sub: return makeBinary<BinaryOp::Sub>(c, e, t);
    case BinaryOp::Mul: return makeBinary<BinaryOp::Mul>(c, e, t);
    case BinaryOp::Div: return makeBinary<BinaryOp::Div>(c, e, t);
    case BinaryOp::Rem: return makeBinary<BinaryOp::Rem>(c, e, t);
    case BinaryOp::BitAnd: return makeBinary<BinaryOp::BitAnd>(c, e, t);
    case BinaryOp::BitOr: return makeBinary<BinaryOp::BitOr>(c, e, t);
    case BinaryOp::BitXor: return makeBinary<BinaryOp::BitXor>(c, e, t);
    default: c.malformed(e.range, "unexpected operator '" + std::string(spelling(e.binaryOp)) + "'");
  }
}

}  // namespace culift::interp::exec
