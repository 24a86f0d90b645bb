#include "shim/core/fork_guard.h"

#include <pthread.h>

#include <atomic>
#include <mutex>

#include "shim/core/error.h"

namespace anygpu {
namespace {

std::atomic<bool> g_forked_child{false};

void on_fork_in_child() {
  g_forked_child.store(true, std::memory_order_relaxed);
}

}  // namespace

void watch_for_fork() {
  static std::once_flag registered;
  std::call_once(registered, [] { pthread_atfork(nullptr, nullptr, &on_fork_in_child); });
}

bool in_forked_child() {
  return g_forked_child.load(std::memory_order_relaxed);
}

ag_result refuse_in_forked_child() {
  if (!in_forked_child()) return AG_SUCCESS;
  return fail(AG_ERROR_NOT_INITIALIZED,
              "this process is a fork of one that initialised anygpu; a forked child cannot use "
              "the parent's devices, streams or other objects (CUDA's rule) - initialise anygpu "
              "in the parent only after forking, or exec a new program in the child");
}

}  // namespace anygpu
