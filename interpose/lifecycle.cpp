// The interposer's life in a process: settings read at load, the outputs written at exit
// (a destructor, so calls from the program's atexit handlers are in) or when it crashes
// (crash_handler.h), and fork: no lock of the interposer is held across it, and the child starts
// with fresh counts, events and trace file.
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "interpose/allocation_ledger.h"
#include "interpose/call_stats.h"
#include "interpose/crash_handler.h"
#include "interpose/fault_injector.h"
#include "interpose/intercept.h"
#include "interpose/kernel_names.h"
#include "interpose/module_dump.h"
#include "interpose/process_ids.h"
#include "interpose/report.h"
#include "interpose/settings.h"
#include "interpose/trace_writer.h"

namespace anygpu::intercept {

thread_local int t_depth __attribute__((tls_model("initial-exec"))) = 0;

int missing_real_function(int id) {
  static std::atomic<bool> reported[kFunctionCount];
  if (!reported[id].exchange(true))
    report("%s called, but no loaded library defines it; returning 3 (not initialized)",
           function_symbol(id));
  return 3;  // CUDA_ERROR_NOT_INITIALIZED, hipErrorNotInitialized
}

namespace {

void before_fork() {
  lock_trace();
  lock_stats();
  lock_ledger();
  lock_kernel_names();
}

void after_fork_in_parent() {
  unlock_kernel_names();
  unlock_ledger();
  unlock_stats();
  unlock_trace();
}

void after_fork_in_child() {
  after_fork_in_parent();
  forget_ids_in_child();
  reset_trace_in_child();
  reset_stats();
  reset_ledger();
  reset_fault_counts();
  reset_dump_count();
}

void write_stats_output() {
  const Settings& config = settings();
  if (!config.stats || recorded_calls() == 0) return;
  fflush(stderr);  // the table goes to the descriptor, after what the program wrote through stdio
  if (config.stats_file.empty()) {
    write_stats(STDERR_FILENO, getpid(), nullptr);
    return;
  }
  std::string path = expand_pid(config.stats_file, getpid());
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    report("cannot write the statistics to %s: %s; writing them to stderr", path.c_str(),
           strerror(errno));
    write_stats(STDERR_FILENO, getpid(), nullptr);
    return;
  }
  write_stats(fd, getpid(), nullptr);
  close(fd);
}

__attribute__((constructor)) void start() {
  if (!settings().any()) return;
  pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
  if (settings().trace || settings().stats) install_crash_handler();
}

__attribute__((destructor)) void finish() {
  if (!settings().any()) return;
  DepthScope scope;  // driver calls made from here on are not recorded
  if (settings().trace) finish_trace();
  write_stats_output();
}

}  // namespace
}  // namespace anygpu::intercept
