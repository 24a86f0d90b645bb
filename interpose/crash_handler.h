// A program that crashes under the interposer still leaves its outputs. On SIGSEGV, SIGBUS,
// SIGFPE, SIGILL and SIGABRT the interposer's handler writes the trace (closed: a valid document)
// and, when the signal will end the process, the statistics so far, with async-signal-safe calls
// only; then the signal takes the course the application chose: its own handler is called, or the
// default action ends the process with that signal.
//
// The handler stays installed: a handler the application installs for these signals, before the
// interposer or after it (sigaction and signal are interposed, signal_hook.cpp), is recorded as
// the application's and called from the interposer's, with its flags and mask.
#pragma once

#include <signal.h>

namespace anygpu::intercept {

// From the library's constructor, when mode trace or stats is on.
void install_crash_handler();

// The application's side of sigaction for a signal the handler covers: records `act` as the
// application's disposition and reports the one it had in `old`. Returns false (nothing done) for
// other signals and when the handler is not installed: the call then goes to the real sigaction.
bool application_sigaction(int sig, const struct sigaction* act, struct sigaction* old);

// The sigaction of the library after the interposer (the C library's, or a sanitizer's).
int real_sigaction(int sig, const struct sigaction* act, struct sigaction* old);

}  // namespace anygpu::intercept
