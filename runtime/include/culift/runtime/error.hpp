// Errors the runtime throws. A failing CUDA or NVRTC call becomes an exception that names the
// call, the status name (CUDA_ERROR_OUT_OF_MEMORY, NVRTC_ERROR_COMPILATION) and a description;
// a failed compile also carries the NVRTC log and the options as separate fields.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "culift/ast/source.hpp"

namespace culift::rt {

// Base of every runtime error.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A CUDA driver call failed.
class CudaError : public Error {
 public:
  CudaError(std::string call, int status, std::string statusName, std::string description, std::string context = {});
  const std::string& call() const { return call_; }        // "cuMemAlloc_v2"
  int status() const { return status_; }                   // the CUresult value
  const std::string& statusName() const { return name_; }  // "CUDA_ERROR_OUT_OF_MEMORY"

 private:
  std::string call_;
  int status_;
  std::string name_;
};

// An NVRTC call failed (other than the compile itself, see CompileError).
class NvrtcError : public Error {
 public:
  NvrtcError(std::string call, int status, std::string statusName);
  const std::string& call() const { return call_; }
  int status() const { return status_; }
  const std::string& statusName() const { return name_; }

 private:
  std::string call_;
  int status_;
  std::string name_;
};

// NVRTC rejected a program. The log's file:line refer to the user's C++ source through the
// #line directives the emitter writes.
class CompileError : public Error {
 public:
  CompileError(std::string programName, std::string log, std::vector<std::string> options, int arch);
  const std::string& programName() const { return program_; }
  const std::string& log() const { return log_; }
  const std::vector<std::string>& options() const { return options_; }
  int arch() const { return arch_; }

 private:
  std::string program_;
  std::string log_;
  std::vector<std::string> options_;
  int arch_;
};

// A launch whose arguments do not match the kernel's signature, caught before the driver sees
// anything. The message names the kernel and the parameter.
class ArgumentError : public Error {
 public:
  using Error::Error;
};

// A kernel failed while the CPU backend ran it: undefined behaviour the GPU would hide (an index
// out of range, an integer division by zero, ...), a failed assert, the step budget. The
// diagnostic has the source location and the values (what() is its text); on the GPU the same
// launch gives wrong results or, for an assert under EngineOptions::deviceAsserts, a CudaError.
class KernelError : public Error {
 public:
  explicit KernelError(Diagnostic d);
  const Diagnostic& diagnostic() const { return diag_; }

 private:
  Diagnostic diag_;
};

// The names CUDA gives its driver status codes (the driver stub gives none, so culift keeps
// its own table). Unknown codes give "CUDA_ERROR_<n>".
std::string cudaErrorName(int status);
// A one-line description of a driver status code.
std::string cudaErrorDescription(int status);
// NVRTC_SUCCESS, NVRTC_ERROR_COMPILATION, ...
std::string nvrtcResultName(int status);

}  // namespace culift::rt
