// Runs a program (an argument vector, no shell) with a time limit and captures what it prints
// (stdout and stderr together, bounded), for the run-time compilers, which run the host compiler
// or a vendor's tools. Safe from many threads at once: posix_spawn (vfork-like, no code of ours
// runs in the child), every descriptor of ours close-on-exec, the child in a process group of its
// own, which a timeout kills whole, and the child always reaped.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace anygpu {

struct SubprocessOptions {
  double timeout_seconds = 300;                    // <= 0: no limit
  size_t max_output_bytes = size_t{1} << 20;       // output kept; the rest is read and dropped
  std::vector<std::string> environment_overrides;  // "NAME=VALUE" added to (or replacing in) ours
};

struct SubprocessResult {
  enum class Outcome {
    exited,       // exit_status holds the status
    signaled,     // the program was killed by signal `signal_number`
    timed_out,    // ran past the limit: its process group was killed
    not_run,      // it could not be started (spawn_error: errno; `error` says why)
    status_lost,  // it ran, but waitpid failed (ECHILD: the application ignores or reaps
                  // SIGCHLD), so its exit status is unknown; `error` says why
  };
  Outcome outcome = Outcome::not_run;
  int exit_status = -1;
  int signal_number = 0;
  int spawn_error = 0;
  std::string output;  // stdout and stderr, interleaved as written, the first max_output_bytes
  bool output_truncated = false;
  std::string error;   // for not_run, and for a failure while waiting
  double seconds = 0;  // wall time from start to reaping

  bool succeeded() const { return outcome == Outcome::exited && exit_status == 0; }
  // "exited with status 3", "killed by signal 11 (Segmentation fault)", "timed out after 1 s",
  // "could not be started: ...", "ended with an unknown exit status (...)".
  std::string describe(double timeout_seconds) const;
};

// Runs argv[0] (searched on PATH when it has no '/') with argv, stdin /dev/null, the process's
// environment (plus `options.environment_overrides`), and waits for it and for its output to end.
SubprocessResult run_subprocess(const std::vector<std::string>& argv,
                                const SubprocessOptions& options = SubprocessOptions());

}  // namespace anygpu
