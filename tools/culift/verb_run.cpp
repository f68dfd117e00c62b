// culift run FILE --function NAME --args JSON|@FILE [--step-budget N] [-p BUILD_DIR] [-- CLANG_ARGS]
// Translates FILE, interprets one function on the arguments given as a JSON array (a number for
// a scalar, an array of numbers or {"npy": "x.npy"} for a pointer parameter, an array of objects
// keyed by field path for an array of structs; "nan", "inf", "-inf" accepted; @FILE reads it
// from a file, @- from stdin), and
// prints {"result": V, "arrays": {"NAME": [...]}} with the final contents of every non-const
// array (an array of structs as objects keyed by field path). Floats print with round-trip digits
// (9 for float, 17 for double), 64-bit integers exactly.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cli_data.hpp"
#include "cli_pick.hpp"
#include "cli_records.hpp"
#include "cli_scalars.hpp"
#include "culift/interpreter.hpp"
#include "culift/translate.hpp"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "verb.hpp"

namespace culift::cli {
namespace {

llvm::cl::SubCommand runCommand("run", "Interpret one lifted function on arguments given as JSON");
llvm::cl::opt<std::string> runInput(llvm::cl::Positional, llvm::cl::desc("FILE"), llvm::cl::sub(runCommand));
llvm::cl::opt<std::string> runFunction("function", llvm::cl::desc("The function to run"), llvm::cl::value_desc("NAME"),
                                       llvm::cl::sub(runCommand));
llvm::cl::opt<std::string> runArgs("args",
                                   llvm::cl::desc("JSON array, one element per parameter: a number for a scalar, an "
                                                  "array of numbers or {\"npy\": \"x.npy\"} for a pointer (\"nan\", "
                                                  "\"inf\", \"-inf\" accepted); @FILE reads it from FILE (@-: stdin)"),
                                   llvm::cl::value_desc("JSON|@FILE"), llvm::cl::sub(runCommand));
llvm::cl::opt<std::string> runArgsFile("args-file", llvm::cl::desc("The same as --args @FILE"),
                                       llvm::cl::value_desc("FILE"), llvm::cl::sub(runCommand));
llvm::cl::opt<unsigned long long> runBudget("step-budget",
                                            llvm::cl::desc("Loop iterations and calls allowed before stopping"),
                                            llvm::cl::init(1ull << 32), llvm::cl::sub(runCommand));
llvm::cl::opt<std::string> runBuildDir("p", llvm::cl::desc("Build directory holding compile_commands.json"),
                                       llvm::cl::value_desc("BUILD_DIR"), llvm::cl::sub(runCommand));

const char* kUsage = "usage: culift run FILE --function NAME --args JSON|@FILE [--step-budget N] [-- CLANG_ARGS]\n";

// A JSON scalar (cli_scalars.hpp's rule) as the interpreter's value of `type`.
std::optional<interp::Value> scalarFromJson(const llvm::json::Value& j, Scalar type, std::string& why) {
  const std::optional<rt::ScalarValue> v = cli::scalarFromJson(j, type, why);
  if (!v) return std::nullopt;
  interp::Value value;
  value.type = v->type;
  switch (v->type) {
    case Scalar::Bool: value.b = v->b; break;
    case Scalar::F32: value.f = v->f; break;
    case Scalar::F64: value.d = v->d; break;
    default:
      if (isSigned(v->type)) value.i = v->i;
      else value.u = v->u;
  }
  return value;
}

// Numbers for output: round-trip digits, exact integers, NaN/Inf as strings.
std::string numberText(const interp::Value& v) {
  switch (v.type) {
    case Scalar::F32:
    case Scalar::F64: {
      const double d = v.type == Scalar::F32 ? static_cast<double>(v.f) : v.d;
      if (std::isnan(d)) return "\"nan\"";
      if (std::isinf(d)) return d < 0 ? "\"-inf\"" : "\"inf\"";
      return v.toString();
    }
    case Scalar::Bool: return v.b ? "true" : "false";
    case Scalar::Void: return "null";
    default: return v.toString();
  }
}

interp::Value elementValue(Scalar type, const std::byte* p) {
  switch (type) {
#define CULIFT_X(E, T, S, B, I, SG, F) \
  case Scalar::E: {                    \
    T v;                               \
    std::memcpy(&v, p, sizeof v);      \
    return interp::Value::of(v);       \
  }
    CULIFT_SCALAR_TYPES(CULIFT_X)
#undef CULIFT_X
    case Scalar::Void: break;
  }
  return interp::Value();
}

void storeValue(Scalar type, std::byte* p, const interp::Value& v) {
  switch (type) {
#define CULIFT_X(E, T, S, B, I, SG, F) \
  case Scalar::E: {                    \
    T x = v.as<T>();                   \
    std::memcpy(p, &x, sizeof x);      \
    return;                            \
  }
    CULIFT_SCALAR_TYPES(CULIFT_X)
#undef CULIFT_X
    case Scalar::Void: break;
  }
}

int usage(const std::string& message) {
  llvm::errs() << "culift run: " << message << "\n";
  return kExitUsage;
}

int runRun() {
  if (runInput.empty()) return usage(std::string("no input file\n") + kUsage);
  if (runFunction.empty()) return usage(std::string("no --function given\n") + kUsage);
  if (runArgs.getNumOccurrences() + runArgsFile.getNumOccurrences() != 1)
    return usage(
        std::string(runArgs.getNumOccurrences() ? "--args and --args-file both given\n" : "no --args given\n") +
        kUsage);
  if (auto readable = llvm::MemoryBuffer::getFile(runInput, false, false); !readable)
    return usage("cannot read '" + runInput + "': " + readable.getError().message());

  std::string argsText, argsDir, unreadable;
  if (!readArgsText(runArgsFile.empty() ? runArgs : "@" + runArgsFile, argsText, argsDir, unreadable))
    return usage(unreadable);
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(argsText);
  if (!parsed) return usage("--args is not valid JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Array* list = parsed->getAsArray();
  if (!list) return usage("--args must be a JSON array with one element per parameter");

  TranslateOptions options;
  options.functions.push_back(runFunction);
  options.compilerArgs = clangArgs();
  options.buildDir = runBuildDir;
  TranslateResult result = translate(runInput, options);
  llvm::errs() << result.formatDiagnostics(llvm::errs().has_colors());
  if (!result.ok()) return kExitError;
  std::string notPicked;
  const Function* fn = pickedFunction(result, runFunction, notPicked);
  if (!fn) return usage(notPicked);

  // Arrays of structs: their layouts, by parameter.
  std::vector<const RecordView*> records(fn->numParams, nullptr);
  for (const auto& [p, record] : fn->recordParams)
    if (p < fn->numParams) records[p] = &record;
  auto typeOf = [&](unsigned p) {
    const Var& param = fn->param(p);
    return records[p] ? recordPointerType(*records[p], param.type.constElements) : toString(param.type);
  };

  // A kernel returning a struct takes its fields' places last: not given, printed as the result.
  const unsigned given = fn->firstResultParam();
  if (list->size() != given) {
    std::string names;
    for (unsigned p = 0; p < given; ++p) names += (p ? ", " : "") + typeOf(p) + " " + fn->param(p).name;
    if (!names.empty()) names = " (" + names + (fn->indexParams.empty() ? "" : "; index parameters included") + ")";
    return usage("'" + fn->name + "' takes " + std::to_string(given) + " argument" + (given == 1 ? "" : "s") + names +
                 ", --args has " + std::to_string(list->size()));
  }

  std::vector<interp::Arg> args;
  std::vector<std::vector<std::byte>> arrays(fn->numParams);
  for (unsigned p = 0; p < fn->numParams; ++p) {
    const Var& param = fn->param(p);
    if (p >= given) {
      arrays[p].assign(byteSize(param.type.scalar), std::byte{0});
      interp::ArrayRef r;
      r.element = param.type.scalar;
      r.data = arrays[p].data();
      r.size = 1;
      r.writable = true;
      args.emplace_back(r);
      continue;
    }
    const RecordView* record = records[p];
    const llvm::json::Value& j = (*list)[p];
    const std::string where = "argument " + std::to_string(p + 1) + " ('" + param.name + "', " + typeOf(p) + ")";
    std::string why;
    if (param.type.isValue()) {
      if (j.getAsArray()) return usage(where + ": expected a number, got an array");
      auto v = scalarFromJson(j, param.type.scalar, why);
      if (!v) return usage(where + ": " + why);
      args.emplace_back(*v);
      continue;
    }
    // An array: from a .npy file, or its numbers in the JSON.
    std::size_t count = 0;
    const std::string npy = npyPath(j, argsDir, why);
    if (!why.empty()) return usage(where + ": " + why);
    const unsigned size = byteSize(param.type.scalar);
    if (!npy.empty()) {
      NpyData data;
      if (!readNpy(npy, param.type.scalar, data, why)) return usage(where + ": " + why);
      arrays[p].assign(data.data, data.data + data.bytes);  // the function may write it
      count = data.count;
    } else if (record && isRecordList(j)) {
      // Records as objects keyed by field path: their scalars in memory order (padding zero).
      const llvm::json::Array& list = *j.getAsArray();
      count = list.size() * record->elements();
      arrays[p].assign(count * size, std::byte{0});
      const bool read = readRecords(
          list, *record,
          [&](std::size_t k, const llvm::json::Value& v, std::string& bad) {
            auto value = scalarFromJson(v, param.type.scalar, bad);
            if (value) storeValue(param.type.scalar, arrays[p].data() + k * size, *value);
            return value.has_value();
          },
          why);
      if (!read) return usage(where + ", " + why);
    } else {
      const llvm::json::Array* elements = j.getAsArray();
      if (!elements)
        return usage(where + ": expected an array of " +
                     (record ? record->name + " records (objects keyed by field), of " : "") +
                     "numbers or {\"npy\": \"FILE.npy\"}");
      arrays[p].resize(elements->size() * size);
      for (std::size_t k = 0; k < elements->size(); ++k) {
        auto v = scalarFromJson((*elements)[k], param.type.scalar, why);
        if (!v) return usage(where + ", element " + std::to_string(k) + ": " + why);
        storeValue(param.type.scalar, arrays[p].data() + k * size, *v);
      }
      count = elements->size();
    }
    interp::ArrayRef r;
    r.element = param.type.scalar;
    r.data = arrays[p].data();
    r.size = count;
    r.writable = !param.type.constElements;
    args.emplace_back(r);
  }

  interp::Value value;
  try {
    interp::Options opts;
    opts.stepBudget = runBudget;
    auto program = interp::Program::compile(result.module, opts);
    value = program->call(*fn, args);
  } catch (const interp::Error& e) {
    Diagnostic d = e.diagnostic();
    // The interpreter's hint names the library's option; here it is the command line's.
    if (llvm::StringRef(d.message).startswith("step budget of "))
      d.hint = "the loop may not terminate; raise --step-budget (now " + std::to_string(runBudget) +
               ") if it is just long";
    llvm::errs() << d.format(llvm::errs().has_colors());
    return kExitError;
  }

  llvm::json::OStream out(llvm::outs());
  out.object([&] {
    out.attributeBegin("result");
    if (fn->resultRecord) {
      out.object([&] {
        for (unsigned p = given; p < fn->numParams; ++p) {
          out.attributeBegin(fn->resultRecord->fields[p - given].path);
          out.rawValue(numberText(elementValue(fn->param(p).type.scalar, arrays[p].data())));
          out.attributeEnd();
        }
      });
    } else {
      out.rawValue(numberText(value));
    }
    out.attributeEnd();
    out.attributeObject("arrays", [&] {
      for (unsigned p = 0; p < fn->numParams; ++p) {
        const Var& param = fn->param(p);
        if (!param.type.isPointer() || param.type.constElements) continue;
        const unsigned size = byteSize(param.type.scalar);
        auto element = [&](std::size_t k) {
          return numberText(elementValue(param.type.scalar, arrays[p].data() + k * size));
        };
        out.attributeBegin(param.name);
        if (records[p]) {
          writeRecords(out, *records[p], arrays[p].size() / size, element);
        } else {
          out.array([&] {
            for (std::size_t k = 0; k * size < arrays[p].size(); ++k) out.rawValue(element(k));
          });
        }
        out.attributeEnd();
      }
    });
  });
  llvm::outs() << "\n";
  return kExitOk;
}

}  // namespace

CULIFT_VERB(runCommand, runRun);

}  // namespace culift::cli
