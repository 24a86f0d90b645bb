#include "kernel_fault_trap.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <cstring>
#include <mutex>

#include "kernel_watchdog.h"
#include "shim/core/log.h"

namespace anygpu::cpu {
namespace {

constexpr int kWatchdogSignal = SIGXCPU;
constexpr int kTrappedSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, kWatchdogSignal};
char g_watchdog_tag;  // its address marks the watchdog's own signals
constexpr size_t kSignalCount = sizeof kTrappedSignals / sizeof kTrappedSignals[0];
struct sigaction g_previous[kSignalCount];  // the application's handlers, written once

// The executable segments of every loaded host code object. Appended under a mutex, read by the
// handler without one: an entry is complete before the count that covers it is published.
struct CodeRange {
  uintptr_t begin;
  uintptr_t end;
};
constexpr size_t kMaxCodeRanges = 4096;
CodeRange g_code_ranges[kMaxCodeRanges];
std::atomic<size_t> g_code_range_count{0};

// This thread's trap, armed while it runs blocks.
struct ThreadTrap {
  sigjmp_buf* jump = nullptr;
  KernelFault* fault = nullptr;
  KernelFaultScope::BeforeJump before_jump = nullptr;
  void* argument = nullptr;
};
// initial-exec: the handler reads it, and a dynamic TLS access could call malloc on a thread's
// first use (libanygpu may be dlopened), which a fault inside malloc must not re-enter.
thread_local ThreadTrap t_trap __attribute__((tls_model("initial-exec")));

// An alternate signal stack of our own, removed when the thread ends.
class AlternateStack {
 public:
  AlternateStack() {
    stack_t current{};
    if (sigaltstack(nullptr, &current) != 0 || !(current.ss_flags & SS_DISABLE)) return;
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    size_ = size_t{64} * 1024 + page;
    void* mapping =
        mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) return;
    mprotect(mapping, page, PROT_NONE);  // guard page: an overflowing handler faults cleanly
    stack_t ours{};
    ours.ss_sp = static_cast<char*>(mapping) + page;
    ours.ss_size = size_ - page;
    if (sigaltstack(&ours, nullptr) != 0) {
      munmap(mapping, size_);
      return;
    }
    mapping_ = mapping;
    stack_ = ours.ss_sp;
  }
  ~AlternateStack() {
    if (!mapping_) return;
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && current.ss_sp == stack_) {
      stack_t disable{};
      disable.ss_flags = SS_DISABLE;
      sigaltstack(&disable, nullptr);
    }
    munmap(mapping_, size_);
  }
  AlternateStack(const AlternateStack&) = delete;
  AlternateStack& operator=(const AlternateStack&) = delete;

 private:
  void* mapping_ = nullptr;
  void* stack_ = nullptr;
  size_t size_ = 0;
};

uintptr_t instruction_of(const void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#else
  return static_cast<uintptr_t>(uc->uc_mcontext.pc);
#endif
}

uintptr_t stack_pointer_of(const void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#else
  return static_cast<uintptr_t>(uc->uc_mcontext.sp);
#endif
}

bool in_kernel_code(uintptr_t instruction) {
  const size_t count = g_code_range_count.load(std::memory_order_acquire);
  for (size_t i = 0; i < count; ++i)
    if (instruction >= g_code_ranges[i].begin && instruction < g_code_ranges[i].end) return true;
  return false;
}

size_t index_of(int signal) {
  for (size_t i = 0; i < kSignalCount; ++i)
    if (kTrappedSignals[i] == signal) return i;
  return 0;
}

// Hands a fault that is not a kernel's to what the application had installed. A default (or
// ignored) disposition is restored: a real fault then re-executes and ends the process as it would
// have; a signal that was sent (si_code <= 0), or a SIGXCPU of RLIMIT_CPU (which nothing
// re-executes), is raised again, or stays ignored.
void forward(int signal, siginfo_t* info, void* context) {
  const struct sigaction& previous = g_previous[index_of(signal)];
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
    previous.sa_sigaction(signal, info, context);
    return;
  }
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal);
    return;
  }
  const bool sent = info->si_code <= 0 || signal == kWatchdogSignal;
  if (sent && previous.sa_handler == SIG_IGN) return;
  struct sigaction fallback{};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, nullptr);
  if (sent) raise(signal);  // blocked until this handler returns
}

// Leaves the kernel: back to KernelFaultScope::run on this thread.
[[noreturn]] void jump_out(ThreadTrap& trap, const void* context) {
  if (trap.before_jump) trap.before_jump(trap.argument, stack_pointer_of(context));
  sigjmp_buf* jump = trap.jump;
  trap.jump = nullptr;
  siglongjmp(*jump, 1);  // NOLINT(cert-err52-cpp): leaving the kernel's frames is the point
}

void on_signal(int signal, siginfo_t* info, void* context) {
  ThreadTrap& trap = t_trap;
  const bool armed = trap.jump && in_kernel_code(instruction_of(context));
  if (signal == kWatchdogSignal && info->si_code == SI_QUEUE &&
      info->si_value.sival_ptr == &g_watchdog_tag) {
    if (!armed) return;  // not in kernel code now: the watchdog asks again
    *trap.fault = KernelFault{signal, info->si_code, nullptr,
                              reinterpret_cast<const void*>(instruction_of(context)), true};
    jump_out(trap, context);
  }
  // si_code > 0: raised by the processor, not sent by kill() or raise().
  if (armed && signal != kWatchdogSignal && info->si_code > 0) {
    *trap.fault = KernelFault{signal, info->si_code, info->si_addr,
                              reinterpret_cast<const void*>(instruction_of(context)), false};
    jump_out(trap, context);
  }
  const int saved_errno = errno;
  forward(signal, info, context);
  errno = saved_errno;
}

// SIGXCPU only when the watchdog is on: otherwise the application's disposition of it (RLIMIT_CPU)
// is left alone entirely.
void install_handlers() {
  for (size_t i = 0; i < kSignalCount; ++i) {
    if (kTrappedSignals[i] == kWatchdogSignal && kernel_timeout_ms() == 0) continue;
    struct sigaction action{};
    action.sa_sigaction = &on_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(kTrappedSignals[i], &action, &g_previous[i]);
  }
}

struct Segments {
  uintptr_t base;
  const char* name;
};

int add_executable_segments(dl_phdr_info* info, size_t, void* data) {
  auto* wanted = static_cast<Segments*>(data);
  if (info->dlpi_addr != wanted->base || !info->dlpi_name ||
      strcmp(info->dlpi_name, wanted->name) != 0)
    return 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_X)) continue;
    const size_t count = g_code_range_count.load(std::memory_order_relaxed);
    if (count == kMaxCodeRanges) {
      log(LogLevel::warn,
          "more than %zu code segments of host code objects: a fault in later ones ends the "
          "process instead of failing the launch",
          kMaxCodeRanges);
      return 1;
    }
    const uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
    g_code_ranges[count] = CodeRange{begin, begin + segment.p_memsz};
    g_code_range_count.store(count + 1, std::memory_order_release);
  }
  return 1;
}

}  // namespace

void register_kernel_code(void* dl_handle) {
  static std::mutex mutex;
  link_map* map = nullptr;
  if (dlinfo(dl_handle, RTLD_DI_LINKMAP, &map) != 0 || !map) return;
  std::lock_guard<std::mutex> lock(mutex);
  Segments wanted{static_cast<uintptr_t>(map->l_addr), map->l_name};
  dl_iterate_phdr(&add_executable_segments, &wanted);
}

void prepare_thread_for_kernels() {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  static thread_local AlternateStack alternate_stack;
}

bool KernelFaultScope::run(Body body, void* argument, BeforeJump before_jump, KernelFault& fault) {
  ThreadTrap& trap = t_trap;
  trap.fault = &fault;
  trap.before_jump = before_jump;
  trap.argument = argument;
  sigjmp_buf jump;
  // The mask is not saved (that would cost a system call per chunk of blocks); the handler
  // returns through the jump with its signal blocked, so it is unblocked here.
  if (sigsetjmp(jump, 0) != 0) {  // NOLINT(cert-err52-cpp)
    if (fault.signal != 0) {      // 0: abandon(), no handler ran
      sigset_t signals;
      sigemptyset(&signals);
      sigaddset(&signals, fault.signal);
      pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
    }
    return false;
  }
  trap.jump = &jump;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  body(argument);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  trap.jump = nullptr;
  return true;
}

void KernelFaultScope::abandon(const KernelFault& fault) {
  ThreadTrap& trap = t_trap;
  if (!trap.jump) abort();  // not inside run: a bug in the runtime
  *trap.fault = fault;
  if (trap.before_jump)
    trap.before_jump(trap.argument, reinterpret_cast<uintptr_t>(__builtin_frame_address(0)));
  sigjmp_buf* jump = trap.jump;
  trap.jump = nullptr;
  siglongjmp(*jump, 1);  // NOLINT(cert-err52-cpp): as jump_out
}

void interrupt_kernel(pthread_t thread) {
  sigval value{};
  value.sival_ptr = &g_watchdog_tag;
  pthread_sigqueue(thread, kWatchdogSignal, value);
}

const char* describe_fault(const KernelFault& fault) {
  if (fault.timed_out) return "stopped by the watchdog";
  if (fault.reason) return fault.reason;
  switch (fault.signal) {
    case SIGSEGV:
      return fault.code == SEGV_ACCERR ? "segmentation fault (access to protected memory)"
                                       : "segmentation fault (address not mapped)";
    case SIGBUS:
      return "bus error (misaligned or past the end of a mapped file)";
    case SIGFPE:
      return fault.code == FPE_INTDIV   ? "arithmetic fault (integer divide by zero)"
             : fault.code == FPE_INTOVF ? "arithmetic fault (integer overflow)"
                                        : "arithmetic fault";
    case SIGILL:
      return "illegal instruction";
    default:
      return "fault";
  }
}

}  // namespace anygpu::cpu
