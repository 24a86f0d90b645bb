#include "interpose/process_ids.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

namespace anygpu::intercept {
namespace {

std::atomic<long> g_pid{0};
// Initial-exec, as t_depth (intercept.h): the interposer is loaded at start-up.
thread_local long t_tid __attribute__((tls_model("initial-exec"))) = 0;

}  // namespace

long current_pid() {
  long pid = g_pid.load(std::memory_order_relaxed);
  if (pid == 0) {
    pid = getpid();
    g_pid.store(pid, std::memory_order_relaxed);
  }
  return pid;
}

long current_tid() {
  if (t_tid == 0) t_tid = syscall(SYS_gettid);
  return t_tid;
}

void forget_ids_in_child() {
  g_pid.store(0, std::memory_order_relaxed);
  t_tid = 0;
}

}  // namespace anygpu::intercept
