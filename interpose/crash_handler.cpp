#include "interpose/crash_handler.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "interpose/call_stats.h"
#include "interpose/process_ids.h"
#include "interpose/real_functions.h"
#include "interpose/settings.h"
#include "interpose/signal_safe_text.h"
#include "interpose/trace_writer.h"

namespace anygpu::intercept {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

using SigactionFunction = int (*)(int, const struct sigaction*, struct sigaction*);

std::atomic<bool> g_installed{false};
// What the application asked for, by signal number; the kernel holds the interposer's handler.
struct sigaction g_application[NSIG];
std::atomic<long> g_writer{0};  // the thread writing the outputs, 0 when none

bool covered(int sig) {
  for (int covered_signal : kSignals)
    if (sig == covered_signal) return true;
  return false;
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    default:
      return "SIGABRT";
  }
}

void message(const char* first, const char* second = "", const char* third = "") {
  FdText(STDERR_FILENO).text("anygpu-intercept: ").text(first).text(second).text(third).text("\n");
}

// The statistics as settings() says, as write_stats_output does at exit, without allocating.
void write_stats_from_signal(int sig) {
  if (!settings().stats || recorded_calls() == 0) return;
  char occasion[64];
  {
    char* end = occasion;
    for (const char* part : {"so far, at signal ", signal_name(sig)})
      for (const char* c = part; *c; ++c) *end++ = *c;
    *end = '\0';
  }
  const long pid = current_pid();
  int fd = STDERR_FILENO;
  static char path[4096];  // static: the handler may run on a small alternate stack
  if (!settings().stats_file.empty()) {
    const char* pattern = settings().stats_file.c_str();
    fd = expand_pid_into(path, sizeof path, pattern, pid)
             ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
             : -1;
    if (fd < 0) {
      message("cannot write the statistics to ", pattern, "; writing them to stderr");
      fd = STDERR_FILENO;
    }
  }
  write_stats(fd, pid, occasion);
  if (fd != STDERR_FILENO) close(fd);
}

// The trace, closed (marked with the signal where `mark`), and with `final` (the signal will end
// the process) the statistics; the trace is left for no other thread to write to then. One thread
// at a time: a thread that finds another writing waits for it and writes nothing itself.
void write_outputs(int sig, bool final, bool mark) {
  const long me = current_tid();
  long writer = 0;
  if (!g_writer.compare_exchange_strong(writer, me)) {
    if (writer == me) return;  // a signal inside the handler's own writing
    for (int waited = 0; g_writer.load() != 0 && waited < 5000; ++waited) {
      const timespec millisecond = {0, 1000000};
      nanosleep(&millisecond, nullptr);
    }
    return;
  }
  if (settings().trace && !checkpoint_trace_from_signal(mark ? signal_name(sig) : nullptr, final))
    message(signal_name(sig), " inside the trace writer: the trace file is left unfinished");
  if (final) write_stats_from_signal(sig);
  g_writer.store(0);
}

// The default action of every covered signal ends the process: made the kernel's disposition and
// the signal raised again (pending until the handler returns, delivered then), so that the
// process ends with it as without the interposer.
void end_with_default_action(int sig) {
  struct sigaction action = {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  real_sigaction(sig, &action, nullptr);
  raise(sig);
}

bool is_default(const struct sigaction& action) {
  return !(action.sa_flags & SA_SIGINFO) && action.sa_handler == SIG_DFL;
}
bool is_ignored(const struct sigaction& action) {
  return !(action.sa_flags & SA_SIGINFO) && action.sa_handler == SIG_IGN;
}

// Calls the application's handler as the kernel would have: its mask added, SA_NODEFER and
// SA_RESETHAND honoured.
void call_application_handler(int sig, siginfo_t* info, void* context,
                              const struct sigaction& action) {
  if (action.sa_flags & SA_RESETHAND) {
    g_application[sig].sa_handler = SIG_DFL;
    g_application[sig].sa_flags &= ~SA_SIGINFO;
  }
  sigset_t block = action.sa_mask, previous;
  pthread_sigmask(SIG_BLOCK, &block, &previous);
  if (action.sa_flags & SA_NODEFER) {
    sigset_t self;
    sigemptyset(&self);
    sigaddset(&self, sig);
    pthread_sigmask(SIG_UNBLOCK, &self, nullptr);
  }
  if (action.sa_flags & SA_SIGINFO)
    action.sa_sigaction(sig, info, context);
  else
    action.sa_handler(sig);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void on_crash_signal(int sig, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  const struct sigaction action = g_application[sig];
  // A signal the kernel sent for a fault (si_code > 0) ends the process even when ignored.
  const bool from_fault = info && info->si_code > 0;
  if (is_default(action) || (is_ignored(action) && from_fault)) {
    write_outputs(sig, true, true);
    end_with_default_action(sig);
  } else if (!is_ignored(action)) {
    // The application's handler may recover (and the trace goes on) or end the process its own
    // way, so the trace is closed now and the statistics wait to see which.
    write_outputs(sig, false, true);
    call_application_handler(sig, info, context, action);
    // It set the default back and raised the signal again, or returns to a fault that recurs.
    sigset_t pending;
    sigpending(&pending);
    if (is_default(g_application[sig]) && (from_fault || sigismember(&pending, sig) == 1)) {
      write_outputs(sig, true, false);
      end_with_default_action(sig);
    }
  }
  errno = saved_errno;
}

SigactionFunction find_real_sigaction() {
  DlsymFunction dlsym_function = real_dlsym();
  void* found = dlsym_function ? dlsym_function(RTLD_NEXT, "sigaction") : nullptr;
  return reinterpret_cast<SigactionFunction>(found);
}

}  // namespace

int real_sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
  static const SigactionFunction real = find_real_sigaction();
  if (!real) {
    errno = ENOSYS;
    return -1;
  }
  return real(sig, act, old);
}

void install_crash_handler() {
  struct sigaction ours = {};
  ours.sa_sigaction = on_crash_signal;
  // On the application's alternate stack where it has one (a stack overflow is a SIGSEGV).
  ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&ours.sa_mask);
  for (int sig : kSignals) real_sigaction(sig, &ours, &g_application[sig]);
  g_installed.store(true);
}

bool application_sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
  if (!g_installed.load() || !covered(sig)) return false;
  // The signals are blocked while the record changes, so the handler never reads it half-made.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &previous);
  if (old) *old = g_application[sig];
  if (act) g_application[sig] = *act;
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return true;
}

}  // namespace anygpu::intercept
