#include "fiber.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

#include "sanitizers.h"

#if defined(ANYGPU_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(ANYGPU_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

extern "C" void anygpu_switch_stack(void** save_sp, void* load_sp);
extern "C" void anygpu_fiber_trampoline();

namespace anygpu::cpu {
namespace {

#if defined(ANYGPU_ASAN) || defined(ANYGPU_TSAN)
constexpr size_t kStackSize = size_t{1024} * 1024;  // instrumented frames are much larger
#else
constexpr size_t kStackSize = size_t{256} * 1024;
#endif

// Lays out the frame anygpu_switch_stack pops, so that its `ret` enters the trampoline.
void* initial_stack_pointer(void* stack_top, void (*entry)(void*), void* argument) {
  char* top = static_cast<char*>(stack_top);
  auto* sp = reinterpret_cast<uint64_t*>(top - (reinterpret_cast<uintptr_t>(top) & 15));
#if defined(__x86_64__)
  *--sp = 0;  // the trampoline runs with sp 16-byte aligned, as before a call
  *--sp = 0;
  *--sp = reinterpret_cast<uint64_t>(&anygpu_fiber_trampoline);  // popped by ret
  *--sp = 0;                                                     // rbp
  *--sp = 0;                                                     // rbx
  *--sp = reinterpret_cast<uint64_t>(argument);                  // r12
  *--sp = reinterpret_cast<uint64_t>(entry);                     // r13
  *--sp = 0;                                                     // r14
  *--sp = 0;                                                     // r15
#else
  sp -= 20;  // the 160-byte frame
  for (int i = 0; i < 20; ++i) sp[i] = 0;
  sp[0] = reinterpret_cast<uint64_t>(argument);                   // x19
  sp[1] = reinterpret_cast<uint64_t>(entry);                      // x20
  sp[11] = reinterpret_cast<uint64_t>(&anygpu_fiber_trampoline);  // x30, the return address
#endif
  return sp;
}

}  // namespace

ExecutionContext current_thread_context() {
  ExecutionContext context;
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
    pthread_attr_getstack(&attributes, &context.stack_bottom, &context.stack_size);
    pthread_attr_destroy(&attributes);
  }
#if defined(ANYGPU_TSAN)
  context.tsan_fiber = __tsan_get_current_fiber();
#endif
  return context;
}

void switch_context(ExecutionContext& from, const ExecutionContext& to) {
#if defined(ANYGPU_ASAN)
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, to.stack_bottom, to.stack_size);
#endif
#if defined(ANYGPU_TSAN)
  __tsan_switch_to_fiber(to.tsan_fiber, 0);
#endif
  anygpu_switch_stack(&from.stack_pointer, to.stack_pointer);
#if defined(ANYGPU_ASAN)
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

void Fiber::on_first_entry() {
#if defined(ANYGPU_ASAN)
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
}

Fiber::Fiber(void (*entry)(void*), void* argument) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  mapping_size_ = kStackSize + page;
  void* mapping = mmap(nullptr, mapping_size_, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mapping == MAP_FAILED) return;
  mprotect(mapping, page, PROT_NONE);  // guard page: an overflow faults instead of corrupting
  mapping_ = mapping;
  context_.stack_bottom = static_cast<char*>(mapping) + page;
  context_.stack_size = kStackSize;
  // Stacks are a multiple of the page size apart, so their tops would all fall in the same cache
  // sets; start each one at a different offset (its "colour") to spread the switching fibers.
  static std::atomic<unsigned> created{0};
  const size_t colour = size_t{created.fetch_add(1, std::memory_order_relaxed) % 64} * 64;
  context_.stack_pointer = initial_stack_pointer(
      static_cast<char*>(context_.stack_bottom) + kStackSize - colour, entry, argument);
#if defined(ANYGPU_TSAN)
  context_.tsan_fiber = __tsan_create_fiber(0);
#endif
}

Fiber::~Fiber() {
#if defined(ANYGPU_TSAN)
  if (context_.tsan_fiber) __tsan_destroy_fiber(context_.tsan_fiber);
#endif
  if (mapping_) munmap(mapping_, mapping_size_);
}

}  // namespace anygpu::cpu
