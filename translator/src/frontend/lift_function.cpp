// Finding the functions to lift (annotated, or picked by name), lifting each one's signature
// and body, and the whole-module checks (recursion).
#include <algorithm>
#include <cctype>
#include <cstring>

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "culift/ast/stack.hpp"
#include "function_state.hpp"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SaveAndRestore.h"

namespace culift::frontend {
namespace {

// The culift annotations on `fd` and its redeclarations: every annotation string starting with
// "culift", so that misspelt ones are reported instead of ignored.
std::vector<const clang::AnnotateAttr*> culiftAnnotations(const clang::FunctionDecl* fd) {
  std::vector<const clang::AnnotateAttr*> found;
  for (const clang::FunctionDecl* r : fd->redecls()) {
    for (const auto* a : r->specific_attrs<clang::AnnotateAttr>()) {
      if (a->getAnnotation().startswith(kAnnotation)) found.push_back(a);
    }
  }
  return found;
}

// How C++ names a free function from the global scope, and its type, for the native host
// launchers: "::ns::Clip<float>", "float (float, float)". Nothing for a member function or one
// in a function's scope, which a launcher cannot name.
void hostSpelling(const clang::FunctionDecl* fd, const clang::ASTContext& ctx, Function& f) {
  if (llvm::isa<clang::CXXMethodDecl>(fd) || fd->getDeclContext()->isFunctionOrMethod()) return;
  clang::PrintingPolicy policy(ctx.getLangOpts());
  policy.SuppressUnwrittenScope = true;  // no "(anonymous namespace)::"
  policy.SuppressTagKeyword = true;
  policy.FullyQualifiedName = true;
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "::";
  fd->printQualifiedName(os, policy);
  if (const clang::TemplateArgumentList* args = fd->getTemplateSpecializationArgs())
    clang::printTemplateArgumentList(os, args->asArray(), policy);
  f.hostName = os.str();
  f.hostType = clang::TypeName::getFullyQualifiedName(fd->getType(), ctx, policy, /*WithGlobalNsPrefix=*/true);
}

// A C identifier for what a function's name says: its name, "ctor" for a constructor, op_add
// for operator+ (op_neg for a unary minus).
std::string identifierOf(const clang::FunctionDecl* fd) {
  if (llvm::isa<clang::CXXConstructorDecl>(fd)) return "ctor";
  if (!fd->isOverloadedOperator()) return fd->getNameAsString();
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(fd);
  const unsigned operands = fd->getNumParams() + (method && !method->isStatic() ? 1 : 0);
  switch (fd->getOverloadedOperator()) {
    case clang::OO_Plus: return operands == 1 ? "op_plus" : "op_add";
    case clang::OO_Minus: return operands == 1 ? "op_neg" : "op_sub";
    case clang::OO_Star: return "op_mul";
    case clang::OO_Slash: return "op_div";
    case clang::OO_Percent: return "op_mod";
    case clang::OO_Caret: return "op_xor";
    case clang::OO_Amp: return "op_and";
    case clang::OO_Pipe: return "op_or";
    case clang::OO_Tilde: return "op_bitnot";
    case clang::OO_Exclaim: return "op_not";
    case clang::OO_Equal: return "op_assign";
    case clang::OO_Less: return "op_lt";
    case clang::OO_Greater: return "op_gt";
    case clang::OO_LessEqual: return "op_le";
    case clang::OO_GreaterEqual: return "op_ge";
    case clang::OO_EqualEqual: return "op_eq";
    case clang::OO_ExclaimEqual: return "op_ne";
    case clang::OO_PlusEqual: return "op_add_assign";
    case clang::OO_MinusEqual: return "op_sub_assign";
    case clang::OO_StarEqual: return "op_mul_assign";
    case clang::OO_SlashEqual: return "op_div_assign";
    case clang::OO_PercentEqual: return "op_mod_assign";
    case clang::OO_Subscript: return "op_index";
    case clang::OO_Call: return "op_call";
    case clang::OO_PlusPlus: return "op_inc";
    case clang::OO_MinusMinus: return "op_dec";
    default: return "op";
  }
}

bool isIdentifier(llvm::StringRef s) {
  if (s.empty() || !(llvm::isAlpha(s[0]) || s[0] == '_')) return false;
  return llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

// Every function declaration of the user's code (not system headers), in source order:
// namespaces, extern "C" blocks, classes (methods are found so they can be rejected) and
// function templates (the same).
void collectFunctions(const clang::DeclContext* dc, const clang::SourceManager& sm,
                      std::vector<const clang::FunctionDecl*>& found) {
  for (const clang::Decl* d : dc->decls()) {
    if (d->getLocation().isValid() && sm.isInSystemHeader(d->getLocation())) continue;
    if (const auto* t = llvm::dyn_cast<clang::FunctionTemplateDecl>(d)) {
      found.push_back(t->getTemplatedDecl());
      continue;
    }
    if (const auto* fd = llvm::dyn_cast<clang::FunctionDecl>(d)) found.push_back(fd);
    if (llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl, clang::ExportDecl, clang::RecordDecl>(d))
      collectFunctions(llvm::cast<clang::DeclContext>(d), sm, found);
    if (const auto* ct = llvm::dyn_cast<clang::ClassTemplateDecl>(d))
      collectFunctions(ct->getTemplatedDecl(), sm, found);
  }
}

// The names `s` declares (locals, structured bindings), at any depth.
void collectNames(const clang::Stmt* s, std::set<std::string>& names) {
  if (!s) return;
  if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl* decl : d->decls()) {
      if (const auto* n = llvm::dyn_cast<clang::NamedDecl>(decl); n && n->getDeclName().isIdentifier())
        names.insert(n->getNameAsString());
      if (const auto* dd = llvm::dyn_cast<clang::DecompositionDecl>(decl))
        for (const clang::BindingDecl* b : dd->bindings()) names.insert(b->getNameAsString());
    }
  }
  for (const clang::Stmt* child : s->children()) collectNames(child, names);
}

}  // namespace

void Lifter::error(clang::SourceLocation where, std::string message, std::string hint) {
  diags_.error(loc(where), std::move(message), std::move(hint));
}

bool Lifter::tooDeep(unsigned depth, unsigned limit, bool& reported, clang::SourceLocation where, const char* what,
                     const char* hint) {
  if (depth == 1) reported = false;
  const bool overLimit = depth > limit;
  if (!overLimit && culiftStackLeft() >= kStackReserve) return false;
  if (!reported) {
    reported = true;
    error(where,
          std::string(what) + " is nested too deeply (" +
              (overLimit ? "more than " + std::to_string(limit) + " levels"
                         : std::to_string(depth) + " levels fill the translator's stack") +
              ")",
          hint);
  }
  return true;
}

void Lifter::run() {
  collectRoots();
  for (FuncId id = 0; id < decls_.size(); ++id) {
    const unsigned errors = diags_.errorCount();
    liftFunction(id);
    clean_.resize(decls_.size(), false);
    clean_[id] = diags_.errorCount() == errors;
  }
  checkRecursion();
}

void Lifter::collectRoots() {
  const std::vector<std::string>& picked = options_.picked;
  struct {
    std::vector<const clang::FunctionDecl*> found;
  } collector;
  collectFunctions(ctx_.getTranslationUnitDecl(), sm_, collector.found);
  for (const clang::FunctionDecl* fd : collector.found)
    if (fd->getDeclName().isIdentifier()) userNames_.insert(fd->getNameAsString());

  std::set<const clang::FunctionDecl*> seen;
  // Functions picked by name replace the annotated set: only they (and their callees) are lifted.
  for (const clang::FunctionDecl* fd : picked.empty() ? collector.found : std::vector<const clang::FunctionDecl*>{}) {
    const std::vector<const clang::AnnotateAttr*> annotations = culiftAnnotations(fd);
    if (annotations.empty()) continue;
    const clang::FunctionDecl* canonical = fd->getCanonicalDecl();
    if (!seen.insert(canonical).second) continue;
    const clang::FunctionDecl* def = fd->getDefinition();
    if (!def) {
      // A template's pattern has no definition of its own; report it as a template below.
      if (fd->getDescribedFunctionTemplate()) def = fd;
      else {
        error(fd->getLocation(), "annotated function '" + fd->getNameAsString() + "' has no body",
              "define the function in the file culift translates, or in a header it includes");
        continue;
      }
    }
    KernelMarks marks;
    if (!marksOf(annotations, def, marks)) continue;
    if (fd->getDescribedFunctionTemplate()) {
      enqueueInstances(fd, marks, /*annotated=*/true);
      continue;
    }
    enqueue(def, true, std::move(marks));
  }

  for (const std::string& name : picked) {
    std::vector<FuncId>& named = picked_.emplace_back();
    // A function by its name; a template by its name (all its explicit instances) and an
    // instance by the name `culift ast` lists (Clip_float) or as C++ writes it (Clip<float>).
    std::vector<const clang::FunctionDecl*> matches;
    std::set<const clang::FunctionDecl*> canon;
    auto add = [&](const clang::FunctionDecl* fd) {
      if (canon.insert(fd->getCanonicalDecl()).second) matches.push_back(fd);
    };
    for (const clang::FunctionDecl* fd : collector.found) {
      if (fd->getNameAsString() == name || fd->getQualifiedNameAsString() == name) add(fd);
      if (const clang::FunctionTemplateDecl* tmpl = fd->getDescribedFunctionTemplate())
        for (const clang::FunctionDecl* spec : tmpl->specializations())
          if (const clang::FunctionDecl* def = spec->getDefinition(); def && def->hasBody() && namesInstance(def, name))
            add(def);
    }
    if (matches.empty()) {
      diags_.error(SourceLoc{module_.sourcePath, 0, 0}, "no function named '" + name + "' in " + module_.sourcePath,
                   "`culift ast FILE` lists the functions culift lifts (a template's instances as Clip_float)");
      continue;
    }
    if (matches.size() > 1) {
      error(matches[1]->getLocation(),
            "function name '" + name + "' is ambiguous: " + std::to_string(matches.size()) + " functions are named so",
            "rename the overloads so each has its own name");
      continue;
    }
    const clang::FunctionDecl* fd = matches[0];
    if (fd->getDescribedFunctionTemplate()) {
      // The template: its explicit instances, with the template's own annotations.
      KernelMarks marks;
      if (!marksOf(culiftAnnotations(fd), fd, marks)) continue;
      named = enqueueInstances(fd, marks, /*annotated=*/!culiftAnnotations(fd).empty());
      continue;
    }
    const clang::FunctionDecl* def = fd->getDefinition();
    if (!def) {
      error(fd->getLocation(), "function '" + name + "' has no body");
      continue;
    }
    auto it = ids_.find(def->getCanonicalDecl());
    if (it != ids_.end()) {
      module_.functions[it->second].annotated = true;
      named.push_back(it->second);
      continue;
    }
    // An instance carries its template's annotations.
    const clang::FunctionDecl* pattern = def->getTemplateInstantiationPattern();
    std::vector<const clang::AnnotateAttr*> annotations = culiftAnnotations(def);
    if (annotations.empty() && pattern) annotations = culiftAnnotations(pattern);
    KernelMarks marks;
    if (!marksOf(annotations, def, marks)) continue;
    named.push_back(enqueue(def, true, std::move(marks)));
  }

  if (decls_.empty() && !diags_.hasErrors()) {
    diags_.error(SourceLoc{module_.sourcePath, 0, 0},
                 "no functions annotated with CULIFT_KERNEL in " + module_.sourcePath,
                 "#include <culift/annotate.hpp> and mark a function: "
                 "CULIFT_KERNEL float RowSum(const float* x, int cols, int i) { ... }, "
                 "or pick one by name (--function NAME)");
  }
}

std::vector<FuncId> Lifter::enqueueInstances(const clang::FunctionDecl* pattern, const KernelMarks& marks,
                                             bool annotated) {
  const clang::FunctionTemplateDecl* tmpl = pattern->getDescribedFunctionTemplate();
  std::vector<FuncId> ids;
  for (const clang::FunctionDecl* spec : tmpl->specializations()) {
    const clang::TemplateSpecializationKind kind = spec->getTemplateSpecializationKind();
    if (kind != clang::TSK_ExplicitInstantiationDefinition && kind != clang::TSK_ExplicitSpecialization) continue;
    const clang::FunctionDecl* def = spec->getDefinition();
    if (!def || !def->hasBody()) continue;
    const FuncId id = enqueue(def, true, marks);
    module_.functions[id].annotated = true;  // also where a kernel's call had made it a helper
    ids.push_back(id);
  }
  if (!ids.empty()) return ids;
  // The hint names an instance as the code would write its explicit instantiation: one that a
  // call already made implicitly, else the template's parameters filled in (float, 1).
  clang::PrintingPolicy policy(ctx_.getLangOpts());
  policy.SuppressTagKeyword = true;
  const std::string name = pattern->getNameAsString();
  const clang::FunctionDecl* used = nullptr;
  for (const clang::FunctionDecl* spec : tmpl->specializations())
    if (spec->getTemplateSpecializationKind() == clang::TSK_ImplicitInstantiation && !used) used = spec;
  std::string example;
  if (used) {
    std::string args;
    llvm::raw_string_ostream os(args);
    if (const clang::TemplateArgumentList* list = used->getTemplateSpecializationArgs())
      clang::printTemplateArgumentList(os, list->asArray(), policy);
    example = "template " + used->getReturnType().getAsString(policy) + " " + name + os.str() + "(";
    for (unsigned k = 0; k < used->getNumParams(); ++k)
      example += (k ? ", " : "") + used->getParamDecl(k)->getType().getAsString(policy);
    example += ");";
  } else {
    example = "template " + pattern->getReturnType().getAsString(policy) + " " + name + "<";
    const clang::TemplateParameterList* params = tmpl->getTemplateParameters();
    for (unsigned k = 0; k < params->size(); ++k)
      example += std::string(k ? ", " : "") +
                 (llvm::isa<clang::NonTypeTemplateParmDecl>(params->getParam(k)) ? "1" : "float");
    example += ">(...);";
  }
  error(pattern->getLocation(),
        std::string(annotated ? "annotated function template '" : "function template '") + name +
            "' has no explicit instantiation: culift makes kernels of the instances an explicit instantiation names" +
            (used ? " ('" + name + "' is only instantiated implicitly, by a call)" : std::string()),
        "instantiate it after its definition for each instance a kernel is needed for, e.g. " + example);
  return ids;
}

bool Lifter::namesInstance(const clang::FunctionDecl* instance, const std::string& name) {
  const clang::TemplateArgumentList* args = instance->getTemplateSpecializationArgs();
  if (!args) return false;
  if (name == liftedBaseName(instance)) return true;
  // As C++ writes it, spaces aside: Clip<float>, ns::Clip<unsigned int>.
  clang::PrintingPolicy policy(ctx_.getLangOpts());
  policy.SuppressTagKeyword = true;
  std::string list;
  llvm::raw_string_ostream os(list);
  clang::printTemplateArgumentList(os, args->asArray(), policy);
  auto squeeze = [](std::string s) {
    s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
    return s;
  };
  const std::string wanted = squeeze(name);
  return wanted == squeeze(instance->getNameAsString() + os.str()) ||
         wanted == squeeze(instance->getQualifiedNameAsString() + os.str());
}

std::string Lifter::templateArgsName(llvm::ArrayRef<clang::TemplateArgument> args) {
  std::string s;
  for (const clang::TemplateArgument& a : args) {
    std::string part;
    switch (a.getKind()) {
      case clang::TemplateArgument::Type: {
        const clang::QualType t = a.getAsType().getCanonicalType();
        if (const clang::CXXRecordDecl* rd = t->getAsCXXRecordDecl(); rd && rd->isLambda()) {
          part = "lambda" + std::to_string(sm_.getPresumedLineNumber(rd->getLocation()));
          break;
        }
        for (const char c : t.getAsString(clang::PrintingPolicy(ctx_.getLangOpts()))) {
          if (llvm::isAlnum(c)) part += c;
          else if (c == '*') part += "_ptr";
          else if (c == '&') part += "_ref";
          else if (!part.empty() && part.back() != '_') part += '_';
        }
        break;
      }
      case clang::TemplateArgument::Integral: {
        const llvm::APSInt v = a.getAsIntegral();
        part = v.isNegative() ? "m" + llvm::toString(-v, 10) : llvm::toString(v, 10);
        break;
      }
      case clang::TemplateArgument::Pack: part = templateArgsName(a.getPackAsArray()); break;
      default: part = "arg"; break;
    }
    while (!part.empty() && part.back() == '_') part.pop_back();
    if (part.empty()) continue;
    if (!s.empty()) s += '_';
    s += part;
  }
  return s;
}

std::string Lifter::liftedName(const clang::FunctionDecl* fd) {
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(fd);
  if (!method && !fd->getTemplateSpecializationArgs() && fd->getDeclName().isIdentifier()) return fd->getNameAsString();
  const std::string base = liftedBaseName(fd);
  std::string name = base;
  for (unsigned n = 2; userNames_.count(name) || generatedNames_.count(name); ++n)
    name = base + "_" + std::to_string(n);
  generatedNames_.insert(name);
  return name;
}

std::string Lifter::liftedBaseName(const clang::FunctionDecl* fd) {
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(fd);
  const bool lambda = method && method->getParent()->isLambda();
  const clang::TemplateArgumentList* args = fd->getTemplateSpecializationArgs();
  if (!method && !args && fd->getDeclName().isIdentifier()) return fd->getNameAsString();
  std::string base;
  if (lambda) {
    // Named after the function that defines it and the line: Blend_lambda12.
    const clang::DeclContext* dc = method->getParent()->getDeclContext();
    while (dc && !llvm::isa<clang::FunctionDecl>(dc)) dc = dc->getParent();
    const auto* definer = llvm::dyn_cast_or_null<clang::FunctionDecl>(dc);
    // A lambda in a lambda (or in a template instance) is named after the lifted function.
    std::string outer = definer && definer->getDeclName().isIdentifier() ? definer->getNameAsString() : "culift";
    if (auto it = definer ? ids_.find(definer->getCanonicalDecl()) : ids_.end(); it != ids_.end())
      outer = fs_ && it->second == fs_->id ? fs_->fn.name : module_.functions[it->second].name;
    base = outer + "_lambda" + std::to_string(sm_.getPresumedLineNumber(method->getParent()->getLocation()));
  } else {
    base = identifierOf(fd);
    // The classes around a member function, outermost first, with their template arguments.
    for (const clang::DeclContext* dc = fd->getDeclContext(); dc; dc = dc->getParent()) {
      const auto* rd = llvm::dyn_cast<clang::CXXRecordDecl>(dc);
      if (!rd) break;
      std::string name = rd->getNameAsString();
      if (const auto* spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(rd))
        if (std::string a = templateArgsName(spec->getTemplateArgs().asArray()); !a.empty()) name += "_" + a;
      base = name + "_" + base;
    }
  }
  if (args)
    if (std::string a = templateArgsName(args->asArray()); !a.empty()) base += "_" + a;
  return base;
}

bool Lifter::marksOf(const std::vector<const clang::AnnotateAttr*>& annotations, const clang::FunctionDecl* fd,
                     KernelMarks& marks) {
  marks = KernelMarks{};
  marks.reassociate = options_.reassociate;
  marks.tensorCores = options_.tensorCores;
  const clang::AnnotateAttr* index = nullptr;
  for (const clang::AnnotateAttr* a : annotations) {
    llvm::StringRef text = a->getAnnotation();
    if (text == kAnnotation) continue;
    if (text == kReassociateAnnotation) {
      marks.reassociate = true;
      continue;
    }
    if (text.startswith(kTensorCoresAnnotationPrefix)) {
      const std::optional<TensorCores> format = tensorCoresNamed(
          text.drop_front(std::strlen(kTensorCoresAnnotationPrefix)).trim());
      if (!format) {
        error(a->getLocation(),
              "CULIFT_KERNEL_TENSOR_CORES on '" + fd->getNameAsString() + "' names '" +
                  text.drop_front(std::strlen(kTensorCoresAnnotationPrefix)).str() + "', not a tensor-core format",
              "write CULIFT_KERNEL_TENSOR_CORES(tf32), (bf16) or (fp16)");
        return false;
      }
      marks.tensorCores = *format;
      continue;
    }
    if (text.startswith(kUniformAnnotationPrefix)) {
      if (!uniformNamesOf(a, fd, marks.uniformNames)) return false;
      continue;
    }
    if (!text.startswith(kIndexAnnotationPrefix)) {
      error(
          a->getLocation(), "unknown culift annotation '" + text.str() + "' on '" + fd->getNameAsString() + "'",
          "mark kernels with CULIFT_KERNEL (or CULIFT_KERNEL_REASSOCIATE, CULIFT_KERNEL_TENSOR_CORES(tf32)), name their index parameters with "
          "CULIFT_KERNEL_INDEX(row, col), or their uniform scalars with CULIFT_UNIFORM(a, b)");
      return false;
    }
    if (index && index->getAnnotation() != text) {
      error(a->getLocation(), "'" + fd->getNameAsString() + "' has two different CULIFT_KERNEL_INDEX annotations",
            "name the index parameters once");
      return false;
    }
    index = a;
  }
  return !index || indexNamesOf(index, fd, marks.indexNames);
}

bool Lifter::indexNamesOf(const clang::AnnotateAttr* annotation, const clang::FunctionDecl* fd,
                          std::vector<std::string>& names) {
  llvm::StringRef text = annotation->getAnnotation();
  const std::string fn = fd->getNameAsString();
  text.consume_front(kIndexAnnotationPrefix);
  names.clear();
  llvm::SmallVector<llvm::StringRef, 4> parts;
  text.split(parts, ',');
  const std::string usage = "CULIFT_KERNEL_INDEX takes one to three parameter names: the indices i, j, k";
  if (parts.size() > 3) {
    error(annotation->getLocation(),
          "CULIFT_KERNEL_INDEX on '" + fn + "' names " + std::to_string(parts.size()) +
              " index parameters; at most 3 (i, j, k) are supported",
          usage);
    return false;
  }
  for (llvm::StringRef p : parts) {
    const std::string name = p.trim().str();
    if (!isIdentifier(name)) {
      error(annotation->getLocation(),
            name.empty() ? "CULIFT_KERNEL_INDEX on '" + fn + "' has an empty index name"
                         : "CULIFT_KERNEL_INDEX on '" + fn + "': '" + name + "' is not a parameter name",
            usage);
      return false;
    }
    if (llvm::is_contained(names, name)) {
      error(annotation->getLocation(), "CULIFT_KERNEL_INDEX on '" + fn + "' names '" + name + "' twice",
            "each axis needs its own index parameter");
      return false;
    }
    const bool isParam = llvm::any_of(fd->parameters(),
                                      [&](const clang::ParmVarDecl* pd) { return pd->getName() == name; });
    if (!isParam) {
      error(annotation->getLocation(),
            "CULIFT_KERNEL_INDEX on '" + fn + "' names '" + name + "', which is not a parameter of '" + fn + "'",
            usage);
      return false;
    }
    names.push_back(name);
  }
  return true;
}

bool Lifter::uniformNamesOf(const clang::AnnotateAttr* annotation, const clang::FunctionDecl* fd,
                            std::vector<std::string>& names) {
  llvm::StringRef text = annotation->getAnnotation();
  const std::string fn = fd->getNameAsString();
  text.consume_front(kUniformAnnotationPrefix);
  llvm::SmallVector<llvm::StringRef, 4> parts;
  text.split(parts, ',');
  const std::string usage = "CULIFT_UNIFORM takes the names of scalar parameters: CULIFT_UNIFORM(a, b)";
  for (llvm::StringRef p : parts) {
    const std::string name = p.trim().str();
    if (!isIdentifier(name)) {
      error(annotation->getLocation(),
            name.empty() ? "CULIFT_UNIFORM on '" + fn + "' has an empty parameter name"
                         : "CULIFT_UNIFORM on '" + fn + "': '" + name + "' is not a parameter name",
            usage);
      return false;
    }
    if (llvm::is_contained(names, name)) {
      error(annotation->getLocation(), "CULIFT_UNIFORM on '" + fn + "' names '" + name + "' twice");
      return false;
    }
    const clang::ParmVarDecl* const* param = llvm::find_if(fd->parameters(), [&](const clang::ParmVarDecl* pd) {
      return pd->getName() == name;
    });
    if (param == fd->parameters().end()) {
      error(annotation->getLocation(),
            "CULIFT_UNIFORM on '" + fn + "' names '" + name + "', which is not a parameter of '" + fn + "'", usage);
      return false;
    }
    if ((*param)->getType()->isPointerType() || (*param)->getType()->isArrayType()) {
      error(annotation->getLocation(),
            "CULIFT_UNIFORM on '" + fn + "' names '" + name + "', an array: only scalar parameters can be uniform",
            "arrays are passed once already; CULIFT_UNIFORM marks the scalars of an element-wise kernel that are "
            "the same for every element");
      return false;
    }
    names.push_back(name);
  }
  return true;
}

FuncId Lifter::enqueue(const clang::FunctionDecl* fd, bool annotated, KernelMarks marks) {
  const clang::FunctionDecl* canonical = fd->getCanonicalDecl();
  auto it = ids_.find(canonical);
  if (it != ids_.end()) return it->second;
  FuncId id = static_cast<FuncId>(decls_.size());
  ids_[canonical] = id;
  decls_.push_back(fd);
  Function f;
  f.name = liftedName(fd);
  hostSpelling(fd, ctx_, f);
  f.annotated = annotated;
  f.indexNames = std::move(marks.indexNames);
  f.reassociate = marks.reassociate;
  f.tensorCores = marks.tensorCores;
  f.uniformNames = std::move(marks.uniformNames);
  f.range = range(fd->getSourceRange());
  module_.functions.push_back(std::move(f));
  return id;
}

bool Lifter::checkFunctionShape(const clang::FunctionDecl* fd) {
  const std::string name = fd->getNameAsString();
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(fd);
  const bool lambda = method && method->getParent()->isLambda();
  if (method && !method->isStatic() && !lambda && fs_->fn.annotated) {
    error(fd->getLocation(),
          "'" + fd->getQualifiedNameAsString() +
              "' is a non-static member function: a kernel must be a free function or a static member function",
          "make it static (or a free function) and take the struct as a parameter; the kernel may call member "
          "functions of value structs");
    return false;
  }
  if (fd->isTemplated()) {
    error(fd->getLocation(), "'" + name + "' is a function template: culift lifts its instances, not the template",
          "call it from a lifted function, or instantiate it explicitly: template float " + name + "<float>(...);");
    return false;
  }
  if (fd->isVariadic()) {
    error(fd->getLocation(), "'" + name + "' is variadic: variadic functions are not supported");
    return false;
  }
  const bool operatorOrConstructor = fd->isOverloadedOperator() || llvm::isa<clang::CXXConstructorDecl>(fd);
  if (!lambda && (fs_->fn.annotated || !operatorOrConstructor) &&
      (operatorOrConstructor || !fd->getDeclName().isIdentifier())) {
    error(fd->getLocation(), "'" + name + "' is an operator: only named functions are supported");
    return false;
  }
  return true;
}

Lifter::FunctionState::FunctionState(FuncId id, const clang::FunctionDecl* decl, Function function)
    : id(id), decl(decl), fn(std::move(function)) {
  for (const clang::ParmVarDecl* p : decl->parameters())
    if (p->getDeclName().isIdentifier()) usedNames.insert(p->getNameAsString());
  collectNames(decl->getBody(), usedNames);
}

void Lifter::liftFunction(FuncId id) {
  FunctionState state(id, decls_[id], std::move(module_.functions[id]));
  {
    const llvm::SaveAndRestore<FunctionState*> lifting(fs_, &state);
    if (checkFunctionShape(state.decl)) {
      const std::optional<ArrayShape> resultShape = liftReturnType();
      liftParams(resultShape);
      liftBody();
      uniformFields();
    }
  }
  module_.functions[id] = std::move(state.fn);
}

std::optional<Lifter::ArrayShape> Lifter::liftReturnType() {
  const clang::FunctionDecl* fd = fs_->decl;
  Function& f = fs_->fn;
  const clang::QualType ret = fd->getReturnType();
  clang::SourceLocation where = fd->getReturnTypeSourceRange().getBegin();
  std::optional<ArrayShape> resultShape;
  if (ret->isVoidType()) {
    f.returnType = Type::value(Scalar::Void);
  } else if (returnsOwnObject(fd)) {
    // operator+= and the like return *this: lifted as void; the caller uses its object.
    fs_->returnsThis = true;
    f.returnType = Type::value(Scalar::Void);
  } else if (isUserRecord(ret)) {
    // A struct result: written through reference parameters after the function's own.
    if (where.isInvalid()) where = fd->getLocation();
    f.returnType = Type::value(Scalar::Void);
    if (f.annotated) {
      // A kernel's result: an array of the struct, written through the leaves.
      RecordPointer view;
      f.resultRecord = recordViewOf(ret, where, "the result of kernel '" + f.name + "'", view);
      fs_->returnLayout = view.layout;
      if (!f.resultRecord) fs_->returnTypeRejected = true;
    } else {
      fs_->returnLayout = recordLayout(ret, where, "the result of '" + f.name + "'");
      if (!fs_->returnLayout) fs_->returnTypeRejected = true;
    }
  } else if (std::optional<Scalar> s = ret->isReferenceType() ? std::nullopt : scalarOf(ret)) {
    f.returnType = Type::value(*s);
  } else if (!f.annotated && stdArrayOf(ret) && (resultShape = arrayShape(ret))) {
    // A helper returning a std::array writes it through a last, hidden parameter.
    f.returnType = Type::value(Scalar::Void);
  } else if (isClosureType(ret)) {
    fs_->returnTypeRejected = true;
    error(fd->getLocation(), "a lambda cannot leave the function that defines it: '" + f.name + "' returns one",
          "call the lambda inside the function, or pass it to a function template as an argument");
  } else if (ret->isReferenceType()) {
    fs_->returnTypeRejected = true;
    error(where.isValid() ? where : fd->getLocation(),
          "'" + f.name + "' returns a reference: functions returning references are not supported",
          "return the value, or write the result through a reference parameter (float& out)");
  } else {
    fs_->returnTypeRejected = true;
    error(where.isValid() ? where : fd->getLocation(),
          "return type " + whyUnsupported(ret) + " of '" + f.name + "' is not supported",
          "return a scalar (bool, an integer type, float or double), or write through an array parameter");
  }
  return resultShape;
}

void Lifter::liftParams(const std::optional<ArrayShape>& resultShape) {
  const clang::FunctionDecl* fd = fs_->decl;
  Function& f = fs_->fn;
  lambdaCaptureParams();
  objectParams();
  unsigned index = 0;
  for (const clang::ParmVarDecl* p : fd->parameters()) {
    if (liftParam(p, index)) ++index;
  }
  if (resultShape) {
    Var result;
    result.name = "culift_result";
    result.type = Type::pointer(resultShape->scalar, false);
    result.range = range(fd->getReturnTypeSourceRange());
    result.isParam = true;
    fs_->resultParam = static_cast<VarId>(f.vars.size());
    fs_->resultElements = resultShape->elements();
    f.vars.push_back(std::move(result));
  }
  if (fs_->returnLayout)
    fs_->returnLeaves = declareLeaves(*fs_->returnLayout, "ret", fd->getReturnTypeSourceRange(), true,
                                      Binding::Reference, false);
  f.numParams = static_cast<unsigned>(f.vars.size());
}

void Lifter::lambdaCaptureParams() {
  // A lambda's captures come first: what the lambda body names from the function around it.
  auto it = lambdaOf_.find(fs_->id);
  if (it == lambdaOf_.end()) return;
  Function& f = fs_->fn;
  std::vector<CaptureParam> captures;
  captureParams(it->second, captures);
  for (CaptureParam& c : captures) {
    Var v;
    v.name = c.name;
    v.type = c.type;
    v.binding = c.binding;
    v.range = range(c.captured->getSourceRange());
    v.isParam = true;
    const auto* vd = llvm::dyn_cast<clang::VarDecl>(c.captured);
    if (vd && c.arrayLeaf >= 0) fs_->structArrays[vd].push_back(static_cast<VarId>(f.vars.size()));
    else if (vd && c.leaf >= 0) fs_->recordVars[vd].push_back(static_cast<VarId>(f.vars.size()));
    else if (vd) fs_->vars[vd] = static_cast<VarId>(f.vars.size());
    f.vars.push_back(std::move(v));
  }
}

void Lifter::objectParams() {
  // A member function takes its object's leaves first (a constructor writes them).
  const clang::FunctionDecl* fd = fs_->decl;
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(fd);
  if (!method || method->isStatic() || method->getParent()->isLambda()) return;
  const clang::QualType self = ctx_.getRecordType(method->getParent());
  if (const RecordLayout* layout = recordLayout(self, fd->getLocation(), "the object of '" + fs_->fn.name + "'")) {
    const bool constant = method->isConst();
    fs_->selfLeaves = declareLeaves(*layout, "self", fd->getSourceRange(), true,
                                    constant ? Binding::ConstReference : Binding::Reference, constant);
  }
}

bool Lifter::liftParam(const clang::ParmVarDecl* p, unsigned index) {
  Function& f = fs_->fn;
  const std::string name = p->getName().empty() ? "culift_arg" + std::to_string(index) : p->getNameAsString();
  if (isUserRecord(p->getType().getNonReferenceType())) {
    if (!recordParam(p, index)) fs_->rejectedVars.insert(p);
    return true;
  }
  if (isClosureType(p->getType().getNonReferenceType())) return closureParam(p, name);
  Var v;
  v.name = name;
  v.range = range(p->getSourceRange());
  v.isParam = true;
  if (isRecordPointer(p->getType())) {
    // An array of structs: a pointer to the records' one scalar type, their layout kept.
    RecordView view;
    RecordPointer pointer;
    if (std::optional<Type> t = recordPointerParam(p, view, pointer)) {
      v.type = *t;
      pointer.var = static_cast<VarId>(f.vars.size());
      f.recordParams.emplace_back(pointer.var, std::move(view));
      fs_->recordPointers[p] = std::move(pointer);
    } else {
      fs_->rejectedVars.insert(p);
    }
  } else if (std::optional<Type> t = paramType(p, v.binding)) {
    v.type = *t;
  } else {
    fs_->rejectedVars.insert(p);
  }
  byValueArrayParam(p, v);  // a std::array by value: copied into a local of its name
  fs_->vars[p] = static_cast<VarId>(f.vars.size());
  f.vars.push_back(std::move(v));
  return true;
}

bool Lifter::closureParam(const clang::ParmVarDecl* p, const std::string& name) {
  // A lambda passed to a function template: its captures, as the lambda's function takes them.
  Function& f = fs_->fn;
  const clang::CXXRecordDecl* rd = p->getType().getNonReferenceType()->getAsCXXRecordDecl();
  auto lambda = lambdas_.find(rd->getCanonicalDecl());
  std::vector<CaptureParam> captures;
  if (lambda == lambdas_.end() || !captureParams(lambda->second, captures)) {
    fs_->rejectedVars.insert(p);
    return false;
  }
  Closure closure{lambda->second, {}};
  for (CaptureParam& c : captures) {
    Var v;
    v.name = name + "_" + c.name;
    v.type = c.type;
    v.binding = c.binding;
    v.range = range(p->getSourceRange());
    v.isParam = true;
    closure.captures.push_back(static_cast<VarId>(f.vars.size()));
    f.vars.push_back(std::move(v));
  }
  fs_->closures[p] = std::move(closure);
  return true;
}

void Lifter::liftBody() {
  const clang::FunctionDecl* fd = fs_->decl;
  Function& f = fs_->fn;
  arrayParamsCopied();
  prologueOf(fd);
  // Temporaries the prologue needs come first, then the prologue (copies of by-value struct and
  // std::array parameters), then the body (after the constant tables it reads).
  std::vector<StmtPtr> head = std::move(fs_->pendingDecls);
  fs_->pendingDecls.clear();
  for (StmtPtr& s : fs_->prologue) head.push_back(std::move(s));
  fs_->prologue.clear();
  if (fd->getBody()) f.body = withPrologue(stmt(fd->getBody()));
  if (head.empty() || !f.body) return;
  if (f.body->kind != StmtKind::Block) {
    auto block = std::make_unique<Stmt>(StmtKind::Block, f.body->range);
    block->stmts.push_back(std::move(f.body));
    f.body = std::move(block);
  }
  f.body->stmts.insert(f.body->stmts.begin(), std::make_move_iterator(head.begin()),
                       std::make_move_iterator(head.end()));
}

void Lifter::uniformFields() {
  // CULIFT_UNIFORM naming a struct parameter marks its fields.
  const clang::FunctionDecl* fd = fs_->decl;
  Function& f = fs_->fn;
  std::vector<std::string> uniform;
  for (const std::string& u : f.uniformNames) {
    const auto* p = llvm::find_if(fd->parameters(), [&](const clang::ParmVarDecl* pd) { return pd->getName() == u; });
    auto leaves = p != fd->parameters().end() ? fs_->recordVars.find(*p) : fs_->recordVars.end();
    if (leaves == fs_->recordVars.end()) uniform.push_back(u);
    else
      for (VarId id : leaves->second) uniform.push_back(f.vars[id].name);
  }
  f.uniformNames = std::move(uniform);
}

void Lifter::checkRecursion() {
  std::vector<std::vector<FuncId>> callees(decls_.size());
  for (const CallEdge& e : edges_) callees[e.caller].push_back(e.callee);
  auto reaches = [&](FuncId from, FuncId to) {
    std::vector<bool> visited(decls_.size(), false);
    std::vector<FuncId> stack{from};
    while (!stack.empty()) {
      FuncId f = stack.back();
      stack.pop_back();
      if (f == to) return true;
      if (visited[f]) continue;
      visited[f] = true;
      for (FuncId c : callees[f]) stack.push_back(c);
    }
    return false;
  };
  for (const CallEdge& e : edges_) {
    if (!reaches(e.callee, e.caller)) continue;
    const std::string& callee = module_.functions[e.callee].name;
    std::string message = e.callee == e.caller ? "recursive call to '" + callee + "'"
                                               : "recursive call to '" + callee + "' (it calls '" +
                                                     module_.functions[e.caller].name + "' back)";
    error(e.where, message, "recursion is not supported on the device: pass the depth as a loop bound");
  }
}

}  // namespace culift::frontend
