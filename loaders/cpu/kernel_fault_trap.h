// Catches a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL) raised by kernel code on a thread that is
// running blocks, so that a bad kernel fails its launch, as on a GPU, instead of killing the
// process. A fault is the kernel's only when the thread is inside KernelFaultScope::run and the
// faulting instruction lies in a loaded host code object; every other fault goes to the handler
// the application had before (chained, never replaced).
#pragma once

#include <pthread.h>

#include <cstdint>

namespace anygpu::cpu {

// What the handler saw.
struct KernelFault {
  int signal = 0;
  int code = 0;                   // siginfo's si_code
  const void* address = nullptr;  // the faulting data address (si_addr)
  const void* instruction = nullptr;
  bool timed_out = false;        // stopped by the watchdog (interrupt_kernel), not a fault
  const char* reason = nullptr;  // stopped by the runtime (KernelFaultScope::abandon): why
};

// Records the executable ranges of a host code object just loaded by dlopen (its handle), so a
// fault there is attributed to a kernel. Ranges are never removed: the images stay mapped.
void register_kernel_code(void* dl_handle);

// Installs the handlers (once per process) and, on the calling thread, an alternate signal stack
// (where it has none), so that a kernel that overflowed its stack can still be caught.
void prepare_thread_for_kernels();

// While `body(argument)` runs on this thread (or on fibers it switches to), a fault in kernel code
// jumps back here: run returns false and `fault` says what happened. Not reentrant.
// `before_jump`, when set, is called in the handler just before it jumps back (to tell the
// sanitizers the stack changes); it gets the faulting context's stack pointer.
struct KernelFaultScope {
  using Body = void (*)(void* argument);
  using BeforeJump = void (*)(void* argument, uintptr_t stack_pointer);
  static bool run(Body body, void* argument, BeforeJump before_jump, KernelFault& fault);
  // Called by the runtime inside run's body (on its thread, perhaps on a fiber): leaves the
  // kernel as a fault would, with `fault`, which should say why in `reason`.
  [[noreturn]] static void abandon(const KernelFault& fault);
};

// Asks `thread` to abandon the blocks it is running, as timed out: the same jump as a fault, taken
// only when the thread is in kernel code (otherwise the request is dropped; ask again later).
// Sends SIGXCPU with a value of its own, so the application's SIGXCPU is still forwarded.
void interrupt_kernel(pthread_t thread);

// The fault's kind in words: "segmentation fault (address not mapped)".
const char* describe_fault(const KernelFault& fault);

}  // namespace anygpu::cpu
