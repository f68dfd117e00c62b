// The state of one function's lifting. Lifter::liftFunction makes a FunctionState for the function
// it lifts and points the Lifter at it (Lifter::fs_) for exactly that lifting; nothing of it
// outlives the function, so no function sees what the one before it left. What the whole module
// shares (the module, the diagnostic sink, the struct layouts, the lambdas seen, the source map)
// stays in the Lifter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lifter.hpp"

namespace culift::frontend {

struct Lifter::FunctionState {
  // Takes the function out of the module for its lifting (the module's list may grow meanwhile,
  // as callees are enqueued); the names its parameters and locals declare are taken.
  FunctionState(FuncId id, const clang::FunctionDecl* decl, Function function);

  const FuncId id;
  const clang::FunctionDecl* const decl;
  Function fn;  // the function being built; moved back into the module when its lifting ends

  // ---- variables ----
  std::map<const clang::VarDecl*, VarId> vars;
  std::set<const clang::VarDecl*> rejectedVars;  // diagnosed once; uses stay quiet
  bool returnTypeRejected = false;               // diagnosed once; return values stay quiet
  std::set<std::string> usedNames;               // every name of the function (freshName avoids them)

  // ---- nesting (Lifter::tooDeep) ----
  unsigned exprDepth = 0;
  unsigned stmtDepth = 0;
  bool exprDepthReported = false;
  bool stmtDepthReported = false;

  // ---- what the body starts with and the statement being lifted needs first ----
  // Statements the body starts with: parameter copies (arrays, structs), member initializers, tables.
  std::vector<StmtPtr> prologue;
  std::vector<StmtPtr> pendingDecls;  // temporaries the statement being lifted needs
  std::vector<VarId> tables;          // constant tables of the enclosing scopes, declared in the prologue

  // ---- std::array and multi-dimensional arrays ----
  std::map<const clang::ValueDecl*, RowView> rowViews;  // rows a range for binds by reference
  std::vector<PendingCopy> pendingCopies;               // std::array parameters by value, copied on entry
  ExprPtr arrayResult;                                  // where the std::array the call being lifted returns goes
  VarId resultParam = kNone;                            // the function returns a std::array: the array it writes
  std::uint64_t resultElements = 0;

  // ---- std::minmax ----
  std::map<const clang::ValueDecl*, MinmaxPair> minmaxPairs;
  std::map<const clang::BindingDecl*, std::pair<const clang::ValueDecl*, unsigned>> minmaxBindings;

  // ---- lambdas ----
  std::map<const clang::ValueDecl*, Closure> closures;  // closure variables and parameters

  // ---- value structs ----
  std::map<const clang::ValueDecl*, std::vector<VarId>> recordVars;    // a struct variable's leaves
  std::map<const clang::ValueDecl*, std::vector<VarId>> structArrays;  // a local array of structs: one per leaf
  std::map<const clang::ValueDecl*, RecordPointer> recordPointers;     // arrays of structs as parameters
  std::map<const clang::BindingDecl*, VarId> bindingVars;              // array structured bindings by copy
  std::vector<VarId> selfLeaves;                                       // the object of a member function
  std::vector<VarId> returnLeaves;                                     // a struct result's leaves
  const RecordLayout* returnLayout = nullptr;
  bool returnsThis = false;
  std::vector<std::string> leafBase;  // names for the leaves of the next struct local (structured bindings)
  // By-value struct parameters with array fields: the parameter and leaf copied on entry.
  std::vector<std::pair<const clang::ParmVarDecl*, unsigned>> arrayCopies;
  // The object `this` names while the default member initializers of a local are lifted.
  const std::vector<VarId>* objectLeaves = nullptr;
  const RecordLayout* objectLayout = nullptr;
  std::size_t objectBase = 0;  // the index of its first leaf among the LeafInits being built
};

}  // namespace culift::frontend
