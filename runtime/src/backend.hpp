// What an engine needs from a backend: memory, modules, launches, streams and events. The GPU
// backend drives the CUDA driver; the CPU backend runs launches in the interpreter over host
// memory. Handles are opaque (CUstream, CUevent, CUfunction; or the CPU backend's own).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "culift/runtime/arguments.hpp"
#include "culift/runtime/engine.hpp"
#include "culift/runtime/tuning.hpp"

namespace culift::rt::detail {

class BackendImpl {
 public:
  virtual ~BackendImpl() = default;
  virtual Backend kind() const = 0;
  virtual const DeviceInfo& device() const = 0;

  virtual std::uint64_t allocate(std::size_t bytes) = 0;  // zero-filled; 0 for 0 bytes
  virtual void release(std::uint64_t address) noexcept = 0;
  virtual void copyIn(std::uint64_t dst, const void* src, std::size_t bytes, void* stream, bool async) = 0;
  virtual void copyOut(void* dst, std::uint64_t src, std::size_t bytes, void* stream, bool async) = 0;
  virtual void fillZero(std::uint64_t dst, std::size_t bytes, void* stream) = 0;
  // Copies `bytes` from `src`, memory of `from` (this backend or another), to `dst` of this one
  // without the host where both are GPUs (a peer copy between devices); false where it cannot.
  virtual bool copyBetween(std::uint64_t /*dst*/, BackendImpl& /*from*/, std::uint64_t /*src*/, std::size_t /*bytes*/) {
    return false;
  }

  // Encodes into `map` (128 bytes, 64-byte aligned) the tensor map of a row-major fp32 matrix at
  // `address`, `rows` x `cols` elements with rows `strideBytes` apart, in boxes of boxCols x
  // boxRows with the 128-byte swizzle; false where the device or driver has none or the matrix
  // does not allow one (the entry then copies without it).
  virtual bool encodeTensorMap(void* /*map*/, std::uint64_t /*address*/, std::uint64_t /*rows*/, std::uint64_t /*cols*/,
                               std::uint64_t /*strideBytes*/, unsigned /*boxCols*/, unsigned /*boxRows*/) {
    return false;
  }

  // Compiles and loads `module` unless loaded; the returned handle names the kernel entry
  // `entry` of `fn` (its kernelName, wideKernelName, a plan entry's or its edge kernel). `unit`:
  // the kernel whose guard holds `entry` (entryMacro), compiled where the engine compiles kernel
  // by kernel; empty: `entry`'s own.
  virtual void load(const std::shared_ptr<const Module>& module) = 0;
  virtual void* function(const std::shared_ptr<const Module>& module, const Function& fn, const std::string& entry,
                         const std::string& unit = {}) = 0;
  // `afterEntry`: an entry's edge kernel, launched right after its entry on `stream`; its blocks
  // may start beside the entry's last ones (disjoint outputs; the kernels order themselves:
  // culift_start_edge, culift_wait_for_entry) where the device and driver allow.
  virtual void launch(const Function& fn, void* function, const LaunchPlan& plan, std::span<const ResolvedArg> args,
                      void* stream, bool afterEntry = false) = 0;
  virtual unsigned suggestedBlockSize(void* function) = 0;

  virtual void* createStream() = 0;
  virtual void destroyStream(void* stream) noexcept = 0;
  virtual void synchronize(void* stream) = 0;  // null: the whole device
  virtual void* createEvent() = 0;
  virtual void recordEvent(void* event, void* stream) = 0;
  virtual void synchronizeEvent(void* event) = 0;
  virtual float elapsedMs(void* start, void* end) = 0;
  virtual void destroyEvent(void* event) noexcept = 0;
  // `stream` (null: the default stream) waits for the event's last record. The CPU backend's work
  // is synchronous: nothing to wait for.
  virtual void waitEvent(void* /*stream*/, void* /*event*/) {}

  // CUDA graphs, for Pipeline: a stream's launches captured once and replayed. A backend without
  // them (the CPU backend, a driver that lacks the entry points) refuses the capture and the
  // pipeline runs its launches one by one.
  struct CapturedGraph {
    void* graph = nullptr;  // CUgraph
    void* exec = nullptr;   // CUgraphExec: what a replay launches
  };
  // A stream for capturing, one that does not synchronize with the default stream implicitly
  // (the default stream cannot be used while a stream that does is capturing).
  virtual void* createCaptureStream() { return createStream(); }
  // Starts capturing `stream` on the calling thread; false with the reason when it cannot.
  virtual bool beginCapture(void* /*stream*/, std::string* whyNot) {
    if (whyNot) *whyNot = "this backend has no graphs";
    return false;
  }
  // Ends the capture and instantiates what it recorded. On failure nothing is left behind: the
  // graph is empty (exec null), with the reason.
  virtual CapturedGraph endCapture(void* /*stream*/, std::string* whyNot) {
    if (whyNot) *whyNot = "this backend has no graphs";
    return {};
  }
  // Ends a capture that a failed launch interrupted and discards its graph.
  virtual void abortCapture(void* /*stream*/) noexcept {}
  virtual void launchGraph(const CapturedGraph& /*graph*/, void* /*stream*/) {
    throw std::logic_error("launchGraph on a backend without graphs");  // beginCapture refused every capture
  }
  virtual void destroyGraph(const CapturedGraph& /*graph*/) noexcept {}

  // Whether launches of `fn` run a native host launcher (the CPU backend's, where the engine uses
  // them and the module has one for it).
  virtual bool runsHostLauncher(const Module& /*module*/, const Function& /*fn*/) const { return false; }

  // Whether `stream` is capturing into a graph (where nothing may wait for it); true where the
  // backend cannot tell.
  virtual bool capturing(void* /*stream*/) { return false; }
  // The table of measured entry choices (tuning.hpp); null where launches take the runtime's rules'
  // choice unmeasured (the CPU backend, EngineOptions::tuneEntries off, $CULIFT_TUNE=0).
  virtual TuningTable* tuning() { return nullptr; }
  // A digest of `module`'s emitted source, part of its kernels' keys in that table: found once per
  // module (a Kernel is often made for each launch).
  virtual std::string moduleDigest(const std::shared_ptr<const Module>& /*module*/) { return {}; }

  virtual CompileCache* cache() = 0;
  virtual const std::shared_ptr<const Nvrtc>& nvrtc() const = 0;
  virtual std::vector<CompileRecord> compileRecords() const = 0;
};

// Null plus a reason when no GPU engine can be made (no driver, no device, no NVRTC, ...).
std::unique_ptr<BackendImpl> createGpuBackend(const EngineOptions& options, std::string* whyNot);
// Null plus a reason when culift was built without the interpreter.
std::unique_ptr<BackendImpl> createCpuBackend(const EngineOptions& options, std::string* whyNot);

// The translator version this runtime was built with (the default cache-key component).
const char* builtInTranslatorVersion();

}  // namespace culift::rt::detail
