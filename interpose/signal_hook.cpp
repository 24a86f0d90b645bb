// The interposer's sigaction and signal: a program setting a handler for a signal the crash
// handler covers (crash_handler.h) has it recorded as its own, called from the interposer's
// handler; anything else goes to the real functions unchanged.
#include <signal.h>

#include "interpose/crash_handler.h"
#include "interpose/wrappers.h"

extern "C" ANYGPU_INTERCEPT_EXPORT int sigaction(int sig, const struct sigaction* __restrict act,
                                                 struct sigaction* __restrict old) noexcept {
  if (anygpu::intercept::application_sigaction(sig, act, old)) return 0;
  return anygpu::intercept::real_sigaction(sig, act, old);
}

// glibc's signal(): BSD semantics, the handler stays and interrupted calls restart.
extern "C" ANYGPU_INTERCEPT_EXPORT sighandler_t signal(int sig, sighandler_t handler) noexcept {
  struct sigaction act = {};
  act.sa_handler = handler;
  sigemptyset(&act.sa_mask);
  if (sig > 0 && sig < NSIG) sigaddset(&act.sa_mask, sig);
  act.sa_flags = SA_RESTART;
  struct sigaction old = {};
  if (::sigaction(sig, &act, &old) != 0) return SIG_ERR;
  return old.sa_handler;
}
