// culift — lift annotated C++ scalar functions to CUDA kernels; run, launch and probe them.
#include <cctype>
#include <cstring>
#include <exception>
#include <utility>

#include "command_line.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"
#include "verb.hpp"

namespace culift::cli {
namespace {
std::vector<std::pair<llvm::cl::SubCommand*, VerbHandler>>& verbs() {
  static std::vector<std::pair<llvm::cl::SubCommand*, VerbHandler>> v;
  return v;
}
std::vector<std::string>& clangArgStorage() {
  static std::vector<std::string> v;
  return v;
}
}  // namespace

VerbRegistration::VerbRegistration(llvm::cl::SubCommand& sub, VerbHandler handler) {
  verbs().emplace_back(&sub, handler);
}

const std::vector<std::string>& clangArgs() { return clangArgStorage(); }

bool isIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::string identifierFrom(const std::string& text) {
  std::string id;
  for (char c : text) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "_" + id;
  return id;
}

bool writeTextFile(const std::string& path, const std::string& text, const char* who) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
  if (!ec) {
    out << text;
    out.close();
    ec = out.error();
  }
  if (ec) llvm::errs() << who << ": cannot write '" << path << "': " << ec.message() << "\n";
  return !ec;
}

}  // namespace culift::cli

int main(int argc, const char** argv) {
  using namespace culift::cli;
  llvm::InitLLVM init(argc, argv);
  // Everything after "--" goes to Clang, as clang tools do.
  int ownArgc = argc;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--") == 0) {
      ownArgc = a;
      for (int b = a + 1; b < argc; ++b) clangArgStorage().push_back(argv[b]);
      break;
    }
  }
  // culift's own options live in its verbs: every top-level option LLVM registered is hidden.
  hideForeignOptions();
  setVersionPrinter("culift");
  if (ownArgc < 2) {
    llvm::errs() << "culift: no verb given\n"
                 << "usage: culift <verb> [options] (verbs: see 'culift --help')\n";
    return kExitUsage;
  }
  // `--args @FILE` names a file of JSON arguments (culift run, launch), not one of the response
  // files LLVM expands every @-argument as: it is joined into `--args=@FILE`, which LLVM leaves.
  std::vector<std::string> joined;
  joined.reserve(ownArgc);
  std::vector<const char*> ownArgv;
  for (int a = 0; a < ownArgc; ++a) {
    const bool argsOption = std::strcmp(argv[a], "--args") == 0 || std::strcmp(argv[a], "-args") == 0;
    if (argsOption && a + 1 < ownArgc && argv[a + 1][0] == '@') {
      joined.push_back(std::string(argv[a]) + "=" + argv[a + 1]);
      ownArgv.push_back(joined.back().c_str());
      ++a;
    } else {
      ownArgv.push_back(argv[a]);
    }
  }
  if (!llvm::cl::ParseCommandLineOptions(static_cast<int>(ownArgv.size()), ownArgv.data(),
                                         "culift: plain C++ scalar functions in, CUDA kernels out\n", &llvm::errs())) {
    return kExitUsage;
  }
  for (auto& [sub, handler] : verbs()) {
    if (*sub) {
      try {
        return handler();
      } catch (const std::exception& e) {
        llvm::errs() << "culift: error: " << e.what() << "\n";
        return kExitInternal;
      }
    }
  }
  llvm::errs() << "culift: no verb given (see 'culift --help')\n";
  return kExitUsage;
}
