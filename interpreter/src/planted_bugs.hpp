// Deliberate bugs the interpreter can be compiled with (Options::plantedBug), for the tests of
// the differential oracle: each is a plausible mistake in C++ semantics, and the oracle must
// find every one. The normal interpreter never takes these paths: the choice is made when a
// program is compiled, so it costs nothing at run time.
#pragma once

#include "compiler.hpp"

namespace culift::interp::exec {

// The planted bug of the program being compiled (PlantedBug::None for every real use).
PlantedBug plantedBug(const Compiler& c);

// Replacements for the node a construct compiles to, or null where the bug does not apply.
ExprNodePtr plantedBinary(Compiler& c, const Expr& e);  // SignedShiftRightLogical, UnsignedSubSaturates,
                                                        // RemainderTakesDivisorSign, NaNLessThanTrue, LogicalEager,
                                                        // NaNCanonical
ExprNodePtr plantedCast(Compiler& c, const Expr& e);    // FloatToIntRounds, UnsignedNarrowSignExtends,
                                                        // NegativeZeroNarrowsPositive
ExprNodePtr plantedMath(Compiler& c, const Expr& e);    // FloatMathInDouble

}  // namespace culift::interp::exec
