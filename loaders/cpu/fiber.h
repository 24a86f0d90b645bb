// Fibers for kernels with barriers: each thread of a block gets its own stack, and a barrier
// switches to the next thread with a hand-written context switch (context_switch_*.S), never
// swapcontext. Annotated for AddressSanitizer and ThreadSanitizer, which must know about stacks
// that change under them.
#pragma once

#include <cstddef>

namespace anygpu::cpu {

// A place to resume: a saved stack pointer, plus what the sanitizers need.
struct ExecutionContext {
  void* stack_pointer = nullptr;
  void* stack_bottom = nullptr;  // lowest address of the stack
  size_t stack_size = 0;
  void* tsan_fiber = nullptr;
};

// The calling OS thread's own stack, to come back to.
ExecutionContext current_thread_context();

// Suspends the caller, saving into `from`, and resumes `to`.
void switch_context(ExecutionContext& from, const ExecutionContext& to);

// A fiber with its own stack (guard page below it). It starts running entry(argument) the first
// time it is switched to; entry must never return.
class Fiber {
 public:
  Fiber(void (*entry)(void*), void* argument);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  ExecutionContext& context() { return context_; }
  bool valid() const { return mapping_ != nullptr; }

  // Called first thing in `entry`: tells the sanitizers the switch into a new stack completed.
  static void on_first_entry();

 private:
  void* mapping_ = nullptr;
  size_t mapping_size_ = 0;
  ExecutionContext context_;
};

}  // namespace anygpu::cpu
