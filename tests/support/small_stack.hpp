// Runs code on a thread with a small stack, the size a host app's thread pool may give
// (512 KB), as a host app calling culift from such a pool would. Code that recursed on the
// caller's stack as deep as its input crashes there, where the main thread's 8 MB hides it.
#pragma once

#include <pthread.h>

#include <cstddef>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>

namespace culift::test {

inline constexpr std::size_t kSmallStack = 512u << 10;

// Runs `work` on a new thread with a `stackSize` stack and waits for it; rethrows what it
// throws. Test assertions belong after the call, on the test's own thread.
inline void onSmallStack(const std::function<void()>& work, std::size_t stackSize = kSmallStack) {
  struct Call {
    const std::function<void()>* work;
    std::exception_ptr failure;
  } call{&work, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  int status = pthread_attr_setstacksize(&attr, stackSize);
  pthread_t thread;
  if (status == 0)
    status = pthread_create(
        &thread, &attr,
        [](void* p) -> void* {
          auto* c = static_cast<Call*>(p);
          try {
            (*c->work)();
          } catch (...) {
            c->failure = std::current_exception();
          }
          return nullptr;
        },
        &call);
  pthread_attr_destroy(&attr);
  if (status != 0)
    throw std::runtime_error("cannot start a thread with a small stack: error " + std::to_string(status));
  pthread_join(thread, nullptr);
  if (call.failure) std::rethrow_exception(call.failure);
}

}  // namespace culift::test
