#include "shim/support/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>

#include "shim/support/string_format.h"

extern char** environ;

namespace anygpu {

namespace {

using Clock = std::chrono::steady_clock;

// strsignal is not thread-safe; the signals a crashed or stopped tool gets, by name.
const char* signal_name(int signal_number) {
  switch (signal_number) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGILL:
      return "SIGILL";
    case SIGFPE:
      return "SIGFPE";
    case SIGKILL:
      return "SIGKILL";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGXCPU:
      return "SIGXCPU";
    case SIGXFSZ:
      return "SIGXFSZ";
    case SIGTRAP:
      return "SIGTRAP";
    case SIGSYS:
      return "SIGSYS";
    default:
      return "a signal";
  }
}

// Closes a descriptor once, on every path.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

// The spawn attributes and file actions, destroyed on every path.
struct SpawnSetup {
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_t actions;
  bool have_attributes = false, have_actions = false;
  ~SpawnSetup() {
    if (have_attributes) posix_spawnattr_destroy(&attributes);
    if (have_actions) posix_spawn_file_actions_destroy(&actions);
  }
};

// Our environment with `overrides` put in (same name replaced, others appended).
std::vector<std::string> merged_environment(const std::vector<std::string>& overrides) {
  std::vector<std::string> merged;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string text = *entry;
    const std::string name = text.substr(0, text.find('='));
    const bool replaced = std::any_of(overrides.begin(), overrides.end(), [&](const auto& o) {
      return o.compare(0, name.size() + 1, name + "=") == 0;
    });
    if (!replaced) merged.push_back(text);
  }
  merged.insert(merged.end(), overrides.begin(), overrides.end());
  return merged;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  result.reserve(strings.size() + 1);
  for (std::string& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

// Reaps `pid`; false with errno (ECHILD where the application ignores SIGCHLD) when it cannot.
bool reap(pid_t pid, bool block, bool* reaped, int* status) {
  for (;;) {
    const pid_t r = waitpid(pid, status, block ? 0 : WNOHANG);
    if (r == pid) {
      *reaped = true;
      return true;
    }
    if (r == 0) return true;  // still running
    if (errno != EINTR) return false;
  }
}

}  // namespace

std::string SubprocessResult::describe(double timeout_seconds) const {
  switch (outcome) {
    case Outcome::exited:
      return strprintf("exited with status %d", exit_status);
    case Outcome::signaled:
      return strprintf("was killed by signal %d (%s)", signal_number, signal_name(signal_number));
    case Outcome::timed_out:
      return strprintf("did not finish within %g s", timeout_seconds);
    case Outcome::status_lost:
      return "ended with an unknown exit status (" + error + ")";
    case Outcome::not_run:
      break;
  }
  return "could not be started: " + error;
}

SubprocessResult run_subprocess(const std::vector<std::string>& argv,
                                const SubprocessOptions& options) {
  SubprocessResult result;
  const Clock::time_point start = Clock::now();
  if (argv.empty() || argv[0].empty()) {
    result.spawn_error = EINVAL;
    result.error = "no program to run";
    return result;
  }
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    result.spawn_error = errno;
    result.error = strprintf("cannot make a pipe: %s", strerror(errno));
    return result;
  }
  Fd read_end(pipe_fds[0]), write_end(pipe_fds[1]);
  fcntl(read_end.get(), F_SETFL, fcntl(read_end.get(), F_GETFL) | O_NONBLOCK);

  SpawnSetup setup;
  int rc = posix_spawnattr_init(&setup.attributes);
  setup.have_attributes = rc == 0;
  if (rc == 0) {
    rc = posix_spawn_file_actions_init(&setup.actions);
    setup.have_actions = rc == 0;
  }
  sigset_t no_signals, every_signal;
  sigemptyset(&no_signals);
  sigfillset(&every_signal);
  // A process group of its own (a timeout kills the compiler and what it started), no blocked
  // signal and every handler at its default, whatever the calling thread has.
  if (rc == 0)
    rc = posix_spawnattr_setflags(
        &setup.attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  if (rc == 0) rc = posix_spawnattr_setpgroup(&setup.attributes, 0);
  if (rc == 0) rc = posix_spawnattr_setsigmask(&setup.attributes, &no_signals);
  if (rc == 0) rc = posix_spawnattr_setsigdefault(&setup.attributes, &every_signal);
  if (rc == 0) rc = posix_spawn_file_actions_addopen(&setup.actions, 0, "/dev/null", O_RDONLY, 0);
  // dup2 clears close-on-exec on 1 and 2; the pipe's own descriptors close at exec.
  if (rc == 0) rc = posix_spawn_file_actions_adddup2(&setup.actions, write_end.get(), 1);
  if (rc == 0) rc = posix_spawn_file_actions_adddup2(&setup.actions, write_end.get(), 2);
  if (rc != 0) {
    result.spawn_error = rc;
    result.error = strprintf("cannot prepare the process: %s", strerror(rc));
    return result;
  }

  std::vector<std::string> arguments = argv;
  std::vector<char*> argument_pointers = pointers(arguments);
  std::vector<std::string> environment_strings;
  std::vector<char*> environment_pointers;
  char** envp = environ;
  if (!options.environment_overrides.empty()) {
    environment_strings = merged_environment(options.environment_overrides);
    environment_pointers = pointers(environment_strings);
    envp = environment_pointers.data();
  }
  pid_t pid = -1;
  const bool search = argv[0].find('/') == std::string::npos;
  rc = search ? posix_spawnp(&pid, argv[0].c_str(), &setup.actions, &setup.attributes,
                             argument_pointers.data(), envp)
              : posix_spawn(&pid, argv[0].c_str(), &setup.actions, &setup.attributes,
                            argument_pointers.data(), envp);
  write_end.reset();  // the child has its copy: the read end ends when every writer is gone
  if (rc != 0) {
    result.spawn_error = rc;
    result.error = strprintf("%s: %s", argv[0].c_str(), strerror(rc));
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  }

  const bool limited = options.timeout_seconds > 0;
  const Clock::time_point deadline =
      limited ? start + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(options.timeout_seconds))
              : Clock::time_point::max();
  bool eof = false, reaped = false, timed_out = false, lost = false;
  int status = 0;
  char buffer[65536];
  auto drain = [&]() {  // reads what is there now; sets eof at the end of the pipe
    for (;;) {
      const ssize_t n = read(read_end.get(), buffer, sizeof buffer);
      if (n > 0) {
        const size_t room =
            options.max_output_bytes - std::min(options.max_output_bytes, result.output.size());
        result.output.append(buffer, std::min(room, static_cast<size_t>(n)));
        if (static_cast<size_t>(n) > room) result.output_truncated = true;
        continue;
      }
      if (n == 0) eof = true;
      if (n < 0 && errno == EINTR) continue;
      return;  // EAGAIN: nothing more for now
    }
  };
  while (!(eof && reaped)) {
    const Clock::time_point now = Clock::now();
    if (now >= deadline) {
      timed_out = true;
      break;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    // While output flows, wait for it (its end is the usual sign the program ended); once it
    // ended, or once the program was reaped, check every few milliseconds.
    int wait_ms = static_cast<int>(std::min<long long>(eof ? 5 : 100, left.count() + 1));
    struct pollfd fd = {read_end.get(), POLLIN, 0};
    if (poll(eof ? nullptr : &fd, eof ? 0 : 1, wait_ms) > 0 || !eof) drain();
    if (!reaped && !reap(pid, false, &reaped, &status)) {
      result.error = strprintf("cannot wait for %s: %s", argv[0].c_str(), strerror(errno));
      reaped = lost = true;  // the application ignores SIGCHLD: the status is gone
    }
    // Reaped but the pipe still open: something the program started holds it. Keep what is
    // there and stop; that process stays in the group, which ends with its leader's kin.
    if (reaped && !eof) {
      drain();
      break;
    }
  }
  if (timed_out) {
    kill(-pid, SIGKILL);  // the group: the program and whatever it started
    if (!reaped) reap(pid, true, &reaped, &status);
    drain();
    result.outcome = SubprocessResult::Outcome::timed_out;
  } else if (lost) {
    result.outcome = SubprocessResult::Outcome::status_lost;
  } else if (WIFSIGNALED(status)) {
    result.outcome = SubprocessResult::Outcome::signaled;
    result.signal_number = WTERMSIG(status);
  } else {
    result.outcome = SubprocessResult::Outcome::exited;
    result.exit_status = WEXITSTATUS(status);
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace anygpu
