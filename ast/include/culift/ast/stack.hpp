// The stack culift's recursive passes run on. Clang's parser, the lifter, the classifier, the
// emitter's printer and the interpreter (compiling, and running deep functions) recurse once
// per nesting level of the user's code, so how deep an input they can take depends on the
// stack under them. A host app
// may call culift from a thread with little stack (thread pools give 512 KB to 2 MB); these
// passes therefore run on a thread culift starts with a stack of its own size, and the same
// input gives the same result, a clean translation or a clean diagnostic, on any thread.
#pragma once

#include <cstddef>
#include <functional>

namespace culift {

// The stack size of culift's own threads. Clang's parser takes 1 to 3 KB per level of nesting
// it parses before culift's limits see the input (clang's own driver gives it 8 MB); the
// lifter under 1 KB per level in a normal build, several times that under sanitizers, for up
// to 1000 levels of statements around 1000 of expressions. 64 MB holds that with a wide
// margin; only the pages used are ever touched.
inline constexpr std::size_t kCuliftStackSize = 64u << 20;

// Runs `work` on a thread with a stack of kCuliftStackSize and waits for it; an exception
// thrown by `work` is rethrown to the caller. Already on such a thread, runs `work` in place.
void runOnCuliftStack(const std::function<void()>& work);

// Bytes of stack left below the caller when it runs on a culift thread (from inside
// runOnCuliftStack); on any other thread, where the size is not culift's to know, SIZE_MAX.
std::size_t culiftStackLeft();

}  // namespace culift
