// Runs blocks of a launch on the calling OS thread. A block starts as a plain loop over its
// threads on this thread's own stack. If a thread reaches __syncthreads() or a warp function, the
// block converts: that thread keeps the native stack, every later thread gets a pooled fiber, and
// the threads take turns in a fixed cycle. A thread waiting (at a barrier until every live thread
// reached it, in a warp function until the lanes of its mask did) passes its turn on. A kernel
// without barriers or warp functions never touches a fiber. One runner per OS thread.
#pragma once

#include <cstdlib>
#include <memory>
#include <vector>

#include "fiber.h"
#include "host_kernel.h"
#include "kernel_fault_trap.h"
#include "kernel_watchdog.h"
#include "warp_lanes.h"

namespace anygpu::cpu {

class BlockRunner {
 public:
  static BlockRunner& for_this_thread();

  BlockRunner();
  ~BlockRunner();
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;

  // False when kernel code faulted: `fault` says how, faulting_block() where; the rest of the
  // blocks were not run and this runner is ready for the next launch.
  // `started_ns` (watchdog_now_ns()) is when the launch began, for the watchdog.
  bool run_blocks(const LaunchPacket& packet, uint32_t block_begin, uint32_t block_end,
                  int64_t started_ns, KernelFault& fault);
  agk_dim3 faulting_block() const { return ctx_.block_idx; }

  const LaunchPacket& packet() const { return *packet_; }

 private:
  struct PooledFiber {
    std::unique_ptr<Fiber> fiber;
    BlockRunner* runner = nullptr;
    uint32_t thread = 0;
  };

  static void on_barrier(agk_thread_ctx* ctx);
  static void on_work_item_barrier(agk_thread_ctx* ctx);
  static void on_finish_block(agk_thread_ctx* ctx);
  static unsigned long long on_warp_exchange(agk_thread_ctx* ctx, unsigned long long mask,
                                             unsigned long long value,
                                             const unsigned long long** values);
  static unsigned long long on_work_item_warp_exchange(agk_thread_ctx* ctx, unsigned long long,
                                                       unsigned long long,
                                                       const unsigned long long**);
  static void fiber_main(void* pooled_fiber);
  static void run_kernel(void* runner);
  static void before_fault_jump(void* runner, uintptr_t stack_pointer);
  void recover_from_fault();

  static bool same(const agk_dim3& a, const agk_dim3& b);
  uint32_t linear_thread(const agk_dim3& index) const;
  void* dynamic_shared(uint32_t bytes);
  void convert(uint32_t native_thread);
  ExecutionContext& context_of(uint32_t thread);
  void unlink(uint32_t thread);
  void yield_from(uint32_t thread);
  void finish_fiber_thread(uint32_t thread);  // never returns until the fiber is reused
  void thread_exited(uint32_t thread);
  void release_barrier(uint32_t waiting);
  void wait_turns(uint32_t thread);  // counts as blocked; the deadlock check
  [[noreturn]] void stop_deadlocked(uint32_t thread);

  const LaunchPacket* packet_ = nullptr;
  uint32_t block_begin_ = 0, block_end_ = 0;
  bool fault_on_fiber_ = false;
  WatchedThread watched_;
  agk_thread_ctx ctx_{};  // the loop's context; also the native thread's after conversion
  uint32_t threads_per_block_ = 0;

  // After conversion: a cycle of the live threads, and what runs each.
  bool converted_ = false;
  uint32_t native_thread_ = 0;
  uint32_t live_ = 0;
  std::vector<uint32_t> next_, previous_;
  // Waiting threads pass their turn on. The barrier opens when every live thread arrived; a warp
  // exchange when the lanes of its mask did (lanes_). blocked_ counts the threads waiting.
  uint32_t barrier_arrived_ = 0, barrier_generation_ = 0, blocked_ = 0;
  WarpLanes lanes_;
  std::vector<agk_thread_ctx> thread_ctx_;
  // The launch shape thread_ctx_[prepared_from_, n) was prepared for.
  agk_dim3 prepared_block_{0, 0, 0}, prepared_grid_{0, 0, 0};
  void* prepared_shared_ = nullptr;
  uint32_t prepared_from_ = 0;
  std::vector<PooledFiber*> fiber_of_thread_;
  std::vector<std::unique_ptr<PooledFiber>> pool_;
  ExecutionContext native_;

  // Dynamic shared memory: a mapping whose last page is inaccessible; a launch's region ends at
  // that page, so a kernel reading or writing past what the launch gave faults.
  unsigned char* shared_mapping_ = nullptr;
  size_t shared_capacity_ = 0;  // bytes before the guard page
};

}  // namespace anygpu::cpu
