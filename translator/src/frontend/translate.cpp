// culift::translate: runs Clang (LibTooling) on the user's file, lifts the annotated functions
// into the typed AST, classifies them and emits CUDA C. Clang's own diagnostics and culift's
// are returned, never printed. All of it runs on a culift-sized stack (culift/ast/stack.hpp),
// whatever thread the caller is on.
#include "culift/translate.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "annotate_header.hpp"
#include "clang/Basic/Stack.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "clang_diagnostics.hpp"
#include "culift/ast/stack.hpp"
#include "culift/ast/verify.hpp"
#include "culift/codegen.hpp"
#include "lifter.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace culift {
namespace {

bool isDirectory(const std::string& path) { return !path.empty() && llvm::sys::fs::is_directory(path); }

// Files the Clang driver would not treat as C++ (".h" is C to it, ".txt" is a linker input).
bool needsCxxLanguageFlag(llvm::StringRef path) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  static const char* const kCxx[] = {".cpp", ".cc", ".cxx", ".c++", ".C", ".hpp", ".hh", ".hxx", ".h++", ".H"};
  for (const char* e : kCxx)
    if (ext == e) return false;
  return true;
}

std::string absolute(const std::string& path) {
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  llvm::sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
  return std::string(abs.str());
}

// Puts diagnostics without a Clang origin in source order (stable: equal positions keep the
// order they were found in); file-less ones (nothing found, bad arguments) go first.
void sortBySource(std::vector<Diagnostic>& diags) {
  std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.loc.valid() != b.loc.valid()) return !a.loc.valid();
    if (a.loc.file != b.loc.file) return a.loc.file < b.loc.file;
    if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
    return a.loc.column < b.loc.column;
  });
}

// TranslateOptions::verify, or $CULIFT_VERIFY_AST=1.
bool verifyRequested(const TranslateOptions& options) {
  if (options.verify) return true;
  const char* env = std::getenv("CULIFT_VERIFY_AST");
  return env && std::strcmp(env, "1") == 0;
}

TranslateResult runTranslation(const std::string& displayName, const std::string& absPath, std::string text,
                               const TranslateOptions& options, bool fromDisk) {
  TranslateResult result;
  DiagnosticSink sink;
  frontend::SourceMap sources(absPath, displayName);
  sources.addText(displayName, text);
  sink.setLineLookup([&sources](const std::string& file, unsigned line) { return sources.line(file, line); });

  auto finish = [&](std::shared_ptr<Module> module, const std::vector<Diagnostic>& clangDiags) {
    std::vector<Diagnostic> own = sink.diagnostics();
    sortBySource(own);
    result.diagnostics = clangDiags;
    result.diagnostics.insert(result.diagnostics.end(), own.begin(), own.end());
    const bool failed = std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                                    [](const Diagnostic& d) { return d.severity == Severity::Error; });
    if (!failed) result.module = std::move(module);
    return result;
  };

  // The compile command: from compile_commands.json (-p) when it lists the file, else fixed.
  // Never one inferred from a neighbouring entry: its -D flags (NDEBUG) and warning flags are
  // that file's, and would change this one's meaning without a word.
  std::unique_ptr<clang::tooling::CompilationDatabase> database;
  auto warn = [&](std::string message, std::string hint) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.message = std::move(message);
    d.hint = std::move(hint);
    sink.report(std::move(d));
  };
  if (!options.buildDir.empty()) {
    std::string why;
    database = clang::tooling::CompilationDatabase::loadFromDirectory(options.buildDir, why);
    if (!database) {
      // A damaged file says what is wrong with it; a missing one needs no more words.
      llvm::SmallString<256> json(options.buildDir);
      llvm::sys::path::append(json, "compile_commands.json");
      llvm::StringRef jsonWhy = why;
      if (const std::size_t at = jsonWhy.find("json-compilation-database: "); at != llvm::StringRef::npos)
        jsonWhy = jsonWhy.substr(at + std::strlen("json-compilation-database: "));
      const std::string problem = llvm::sys::fs::exists(json)
                                      ? "compile_commands.json: " + jsonWhy.trim().str()
                                      : (isDirectory(options.buildDir) ? "it holds no compile_commands.json"
                                                                       : "no such directory");
      warn("no compilation database in '" + options.buildDir + "' (" + problem + "): " + displayName +
               " is compiled with -std=c++20 and the compiler arguments given",
           "pass the build directory that holds compile_commands.json (CMake: -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)");
    } else if (!fromDisk) {
      database.reset();  // text held in memory: no file the database could list
    } else {
      const std::vector<clang::tooling::CompileCommand> commands = database->getCompileCommands(absPath);
      const bool listed = std::any_of(commands.begin(), commands.end(),
                                      [](const clang::tooling::CompileCommand& c) { return c.Heuristic.empty(); });
      if (!listed) {
        database.reset();
        warn(displayName + " is not listed in " + options.buildDir +
                 "/compile_commands.json: it is compiled with -std=c++20 and the compiler arguments given",
             "pass the -D and -I flags it needs after --, or translate a file the database lists");
      }
    }
  }
  const bool fixedCommand = database == nullptr;
  if (fixedCommand) {
    std::vector<std::string> fixed = {"-std=c++20"};
    if (needsCxxLanguageFlag(absPath)) fixed.push_back("-xc++");
    llvm::SmallString<256> cwd;
    llvm::sys::fs::current_path(cwd);
    database = std::make_unique<clang::tooling::FixedCompilationDatabase>(cwd, fixed);
  }

  std::vector<std::string> extra = options.compilerArgs;
  extra.push_back(std::string("-I") + frontend::kVirtualIncludeDir);
  extra.push_back("-resource-dir=" + (options.resourceDir.empty() ? findClangResourceDir() : options.resourceDir));
  extra.push_back("-Wno-pragma-once-outside-header");

  // The annotation header lives in an in-memory directory layered over the real file system
  // (a remapped file alone would not make its directory exist for the -I search path). The real
  // file system is one with its own working directory: ClangTool moves into each compile
  // command's directory, which on the process-wide one is a chdir() under every other thread.
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  const std::string headerPath = std::string(frontend::kVirtualIncludeDir) + "/culift/annotate.hpp";
  memory->addFile(headerPath, 0, llvm::MemoryBuffer::getMemBufferCopy(frontend::annotateHeaderText(), headerPath));
  auto files = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::createPhysicalFileSystem());
  files->pushOverlay(memory);

  clang::tooling::ClangTool tool(*database, {absPath}, std::make_shared<clang::PCHContainerOperations>(), files);
  tool.mapVirtualFile(absPath, text);
  tool.appendArgumentsAdjuster(
      clang::tooling::getInsertArgumentAdjuster(extra, clang::tooling::ArgumentInsertPosition::END));
  tool.setPrintErrorMessage(false);
  frontend::ClangDiagnosticCollector collector(sources);
  tool.setDiagnosticConsumer(&collector);

  std::vector<std::unique_ptr<clang::ASTUnit>> units;
  const int status = tool.buildASTs(units);
  std::vector<Diagnostic> clangDiags = collector.diagnostics();
  if (collector.sawError() || status != 0 || units.size() != 1 || !units[0]) {
    if (!collector.sawError())
      sink.error(SourceLoc{displayName, 0, 0}, "Clang could not process " + displayName,
                 "check the compiler arguments (after --) and the compilation database");
    return finish(nullptr, clangDiags);
  }

  auto module = std::make_shared<Module>();
  module->sourcePath = displayName;
  frontend::Lifter lifter(units[0]->getASTContext(), sources, sink, *module,
                          frontend::Lifter::Options{options.functions, options.reassociate, options.tensorCores});
  lifter.run();
  for (const std::vector<FuncId>& ids : lifter.pickedFunctions()) {
    std::vector<std::string>& names = result.picked.emplace_back();
    for (FuncId id : ids) names.push_back(module->functions[id].name);
  }
  if (!sink.hasErrors()) {
    classify(*module, sink);
    // The fused kernels come last: the others keep their positions (a call's callee).
    if (!options.fuseRowStatistics)
      std::erase_if(module->functions, [](const Function& f) { return !f.fusedOf.empty(); });
  } else {
    // Lifting failed somewhere: the module is not translated, but the functions that lifted
    // cleanly still get the classifier's checks (index parameters and their types, uniform
    // marks), so that one run reports every error. Their signatures are enough for that.
    Module signatures;
    signatures.sourcePath = module->sourcePath;
    for (FuncId id = 0; id < module->functions.size(); ++id) {
      if (!lifter.liftedCleanly(id)) continue;
      const Function& lifted = module->functions[id];
      Function& f = signatures.functions.emplace_back();
      f.name = lifted.name;
      f.returnType = lifted.returnType;
      f.vars.assign(lifted.vars.begin(),
                    lifted.vars.begin() + std::min<std::size_t>(lifted.numParams, lifted.vars.size()));
      f.numParams = static_cast<unsigned>(f.vars.size());
      f.range = lifted.range;
      f.annotated = lifted.annotated;
      f.indexNames = lifted.indexNames;
      f.reassociate = lifted.reassociate;
      f.tensorCores = lifted.tensorCores;
      f.uniformNames = lifted.uniformNames;
      f.recordParams = lifted.recordParams;
      f.resultRecord = lifted.resultRecord;
    }
    classify(signatures, sink);
  }
  if (!sink.hasErrors() && verifyRequested(options)) {
    for (const ast::Violation& v : ast::verify(*module, ast::VerifyOptions{.requireRanges = true}))
      sink.error(v.range.begin,
                 "culift built a malformed typed AST" + (v.function.empty() ? "" : " in '" + v.function + "'") + ": " +
                     v.node + ": " + v.found + "; the rule is: " + v.rule,
                 "this is a bug in culift: please report it with the source that shows it");
  }
  if (!sink.hasErrors()) {
    EmitOptions emit;
    emit.lineDirectives = options.lineDirectives;
    module->cudaSource = emitCuda(*module, emit);
  }
  return finish(std::move(module), clangDiags);
}

// Clang's parser and culift's passes recurse once per nesting level of the input, so they run
// on a thread whose stack culift sizes, as clang's own driver runs its compiler; the nesting
// limits then hold on any calling thread, however little stack it has.
TranslateResult onCuliftStack(const std::function<TranslateResult()>& translation) {
  TranslateResult result;
  runOnCuliftStack([&] {
    // Lets Clang's semantic analysis see how deep it is (deep template instantiations).
    clang::noteBottomOfStack();
    result = translation();
  });
  return result;
}

}  // namespace

std::string TranslateResult::formatDiagnostics(bool color) const {
  std::string s;
  for (const Diagnostic& d : diagnostics) s += d.format(color);
  return s;
}

TranslateResult translate(const std::string& path, const TranslateOptions& options) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) {
    TranslateResult result;
    Diagnostic d;
    d.loc.file = path;
    d.message = "cannot read '" + path + "': " + buffer.getError().message();
    result.diagnostics.push_back(std::move(d));
    return result;
  }
  const std::string text = (*buffer)->getBuffer().str();
  return onCuliftStack([&] { return runTranslation(path, absolute(path), text, options, /*fromDisk=*/true); });
}

TranslateResult translateSource(const std::string& source, const std::string& virtualFileName,
                                const TranslateOptions& options) {
  const std::string name = virtualFileName.empty() ? std::string("input.cpp") : virtualFileName;
  return onCuliftStack([&] { return runTranslation(name, absolute(name), source, options, /*fromDisk=*/false); });
}

std::string findClangResourceDir() {
  if (const char* env = std::getenv("CULIFT_CLANG_RESOURCE_DIR"); env && isDirectory(env)) return env;
  static int anchor = 0;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  if (!exe.empty()) {
    llvm::SmallString<256> dir(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(dir, "..", "lib", "clang", "16");
    llvm::sys::path::remove_dots(dir, true);
    if (isDirectory(std::string(dir.str()))) return std::string(dir.str());
  }
  return "/usr/lib/llvm-16/lib/clang/16";
}

}  // namespace culift
