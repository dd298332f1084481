// Running code on a thread with a small stack: musl, which the static release hosts use, gives
// threads 128 KiB unless the executable asks for more (the host now asks for 8 MiB,
// platform::widen_thread_stacks), and the walks stay within a quarter of that all the same, so that
// a host whose request is refused still holds. Native helpers that walk documents by recursion are
// bounded in depth so that, at the bound, they take a fraction of that; the tests run them at the
// bound on a thread with only that fraction.
#pragma once

#include <pthread.h>

#include <cstddef>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>

namespace luaform::lua::testing {

// How much larger this build's frames are than those of an optimized build, which release
// hosts are: unoptimized frames are many times larger (a deep engine::Value is destroyed by
// recursion, at about 1 KiB a level at -O0), the sanitizers' larger still. Only an optimized
// build checks the release budget itself; the others check the same walk on more stack.
// ThreadSanitizer's frames are the largest: destroying a 200-deep Value at -O0 is about 5,800
// frames, which overflowed 1 MiB there. GCC's -Og (the Debug build) defines __OPTIMIZE__ but
// keeps frames near -O0's: comparing two 200-deep Values overflowed the release budget there.
#if defined(LUAFORM_OPTIMIZED_FOR_DEBUGGING)
inline constexpr size_t kFrameScale = 4;
#elif defined(__SANITIZE_THREAD__)
inline constexpr size_t kFrameScale = 128;
#elif defined(__SANITIZE_ADDRESS__)
inline constexpr size_t kFrameScale = 32;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr size_t kFrameScale = 128;
#elif __has_feature(address_sanitizer)
inline constexpr size_t kFrameScale = 32;
#elif defined(__OPTIMIZE__)
inline constexpr size_t kFrameScale = 1;
#else
inline constexpr size_t kFrameScale = 10;
#endif
#elif defined(__OPTIMIZE__)
inline constexpr size_t kFrameScale = 1;
#else
inline constexpr size_t kFrameScale = 10;
#endif

inline constexpr size_t kMuslThreadStack = size_t{128} << 10;
// What a helper at its depth bound may take, with the rest left to gRPC, the engine and Lua.
inline constexpr size_t kQuarterOfMuslStack = kMuslThreadStack / 4 * kFrameScale;

// Runs `work` on a new thread whose stack is `bytes` large and waits for it; rethrows what it
// threw. A stack overflow ends the test binary (a crash, which the test run reports).
inline void run_on_small_stack(size_t bytes, const std::function<void()>& work) {
  struct Job {
    const std::function<void()>* work;
    std::exception_ptr thrown;
  } job{&work, nullptr};
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  if (pthread_attr_setstacksize(&attributes, bytes) != 0) {
    pthread_attr_destroy(&attributes);
    throw std::runtime_error("pthread_attr_setstacksize refused " + std::to_string(bytes));
  }
  pthread_t thread;
  const int created = pthread_create(
      &thread, &attributes,
      [](void* argument) -> void* {
        auto* j = static_cast<Job*>(argument);
        try {
          (*j->work)();
        } catch (...) {
          j->thrown = std::current_exception();
        }
        return nullptr;
      },
      &job);
  pthread_attr_destroy(&attributes);
  if (created != 0) throw std::runtime_error("pthread_create failed");
  pthread_join(thread, nullptr);
  if (job.thrown) std::rethrow_exception(job.thrown);
}

}  // namespace luaform::lua::testing
