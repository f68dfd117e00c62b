#include "culift/ast/stack.hpp"

#include <cstdint>
#include <exception>
#include <optional>
#include <utility>  // llvm/Support/thread.h uses std::exchange without including it

#include "llvm/Support/thread.h"

namespace culift {
namespace {

// The frame address at the top of the running culift thread's stack; null on other threads.
// A frame address, not the address of a local: sanitizers may move locals off the stack.
thread_local const char* stackTop = nullptr;

const char* frameAddress() { return static_cast<const char*>(__builtin_frame_address(0)); }

}  // namespace

void runOnCuliftStack(const std::function<void()>& work) {
  if (stackTop) {
    work();
    return;
  }
  std::exception_ptr failure;
  llvm::thread thread(std::optional<unsigned>(kCuliftStackSize), [&] {
    stackTop = frameAddress();
    try {
      work();
    } catch (...) {
      failure = std::current_exception();
    }
  });
  thread.join();
  if (failure) std::rethrow_exception(failure);
}

std::size_t culiftStackLeft() {
  if (!stackTop) return SIZE_MAX;
  // The stack grows down on every platform culift builds for.
  const std::uintptr_t used = reinterpret_cast<std::uintptr_t>(stackTop) -
                              reinterpret_cast<std::uintptr_t>(frameAddress());
  return used >= kCuliftStackSize ? 0 : kCuliftStackSize - used;
}

}  // namespace culift
