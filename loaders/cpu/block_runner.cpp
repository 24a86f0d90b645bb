#include "block_runner.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "sanitizers.h"

#if defined(ANYGPU_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(ANYGPU_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace anygpu::cpu {

BlockRunner& BlockRunner::for_this_thread() {
  static thread_local BlockRunner runner;
  return runner;
}

BlockRunner::BlockRunner() : native_(current_thread_context()) {
  prepare_thread_for_kernels();
  watch_thread(&watched_);
  ctx_.barrier = &BlockRunner::on_barrier;
  ctx_.finish_block = &BlockRunner::on_finish_block;
  ctx_.warp_exchange = &BlockRunner::on_warp_exchange;
  ctx_.warp_size = kCpuWarpSize;
  ctx_.runtime = this;
}

BlockRunner::~BlockRunner() {
  unwatch_thread(&watched_);
  if (shared_mapping_)
    munmap(shared_mapping_, shared_capacity_ + static_cast<size_t>(sysconf(_SC_PAGESIZE)));
}

bool BlockRunner::same(const agk_dim3& a, const agk_dim3& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

uint32_t BlockRunner::linear_thread(const agk_dim3& index) const {
  const agk_dim3& block = packet_->block;
  return index.x + block.x * (index.y + block.y * index.z);
}

void* BlockRunner::dynamic_shared(uint32_t bytes) {
  // The region is 16-byte aligned (as CUDA's) and ends at the guard page; the mapping grows once
  // to the largest size asked for, later launches reuse it.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t region = (size_t{bytes} + 15) / 16 * 16;
  const size_t wanted = (region + page - 1) / page * page;
  if (!shared_mapping_ || wanted > shared_capacity_) {
    if (shared_mapping_) munmap(shared_mapping_, shared_capacity_ + page);
    void* mapping = mmap(nullptr, wanted + page, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED) {
      fprintf(stderr, "anygpu: cannot map %zu bytes of dynamic shared memory\n", wanted + page);
      abort();
    }
    shared_mapping_ = static_cast<unsigned char*>(mapping);
    shared_capacity_ = wanted;
    mprotect(shared_mapping_ + wanted, page, PROT_NONE);
  }
  return shared_mapping_ + shared_capacity_ - region;
}

bool BlockRunner::run_blocks(const LaunchPacket& packet, uint32_t block_begin, uint32_t block_end,
                             int64_t started_ns, KernelFault& fault) {
  packet_ = &packet;
  block_begin_ = block_begin;
  block_end_ = block_end;
  threads_per_block_ = packet.block.x * packet.block.y * packet.block.z;
  ctx_.grid_dim = packet.grid;
  ctx_.block_dim = packet.block;
  ctx_.dynamic_shared = dynamic_shared(packet.dynamic_shared_bytes);
  ctx_.converted = 0;
  ctx_.barrier = packet.kernel->work_item_loops ? &BlockRunner::on_work_item_barrier
                                                : &BlockRunner::on_barrier;
  ctx_.warp_exchange = packet.kernel->work_item_loops ? &BlockRunner::on_work_item_warp_exchange
                                                      : &BlockRunner::on_warp_exchange;
  watched_.launch_started_ns.store(started_ns, std::memory_order_release);
  const bool finished =
      KernelFaultScope::run(&BlockRunner::run_kernel, this, &BlockRunner::before_fault_jump, fault);
  watched_.launch_started_ns.store(0, std::memory_order_release);
  if (!finished) recover_from_fault();
  return finished;
}

void BlockRunner::run_kernel(void* argument) {
  auto* runner = static_cast<BlockRunner*>(argument);
  const LaunchPacket& packet = *runner->packet_;
  packet.kernel->run_blocks(packet.params, &runner->ctx_, runner->block_begin_, runner->block_end_);
}

// In the signal handler: a fault on a fiber's stack jumps back to this thread's own stack, which
// the sanitizers must be told of, as of any switch.
void BlockRunner::before_fault_jump(void* argument, uintptr_t stack_pointer) {
  auto* runner = static_cast<BlockRunner*>(argument);
  const auto bottom = reinterpret_cast<uintptr_t>(runner->native_.stack_bottom);
  runner->fault_on_fiber_ =
      runner->converted_ &&
      !(stack_pointer >= bottom && stack_pointer < bottom + runner->native_.stack_size);
  if (!runner->fault_on_fiber_) return;
#if defined(ANYGPU_ASAN)
  __sanitizer_start_switch_fiber(nullptr, runner->native_.stack_bottom, runner->native_.stack_size);
#endif
#if defined(ANYGPU_TSAN)
  __tsan_switch_to_fiber(runner->native_.tsan_fiber, 0);
#endif
}

// The faulting block was abandoned mid-way, perhaps with threads suspended on fibers: those fibers
// are dropped (their stacks hold frames that will never return) and the next launch starts afresh.
void BlockRunner::recover_from_fault() {
#if defined(ANYGPU_ASAN)
  if (fault_on_fiber_) __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
  // The abandoned frames below this one may have left their redzones poisoned.
  char here = 0;
  auto* bottom = static_cast<char*>(native_.stack_bottom);
  if (bottom) __asan_unpoison_memory_region(bottom, static_cast<size_t>(&here - bottom));
#endif
  fault_on_fiber_ = false;
  converted_ = false;
  ctx_.converted = 0;
  pool_.clear();
  prepared_block_ = agk_dim3{0, 0, 0};
  prepared_grid_ = agk_dim3{0, 0, 0};
  prepared_shared_ = nullptr;
  prepared_from_ = 0;
}

ExecutionContext& BlockRunner::context_of(uint32_t thread) {
  return thread == native_thread_ ? native_ : fiber_of_thread_[thread]->fiber->context();
}

void BlockRunner::convert(uint32_t native_thread) {
  converted_ = true;
  ctx_.converted = 1;
  native_thread_ = native_thread;
  const uint32_t n = threads_per_block_;
  if (next_.size() < n) {
    next_.resize(n);
    previous_.resize(n);
    thread_ctx_.resize(n);
    fiber_of_thread_.resize(n);
  }
  const uint32_t fibers_needed = n - native_thread - 1;
  while (pool_.size() < fibers_needed) {
    auto pooled = std::make_unique<PooledFiber>();
    pooled->runner = this;
    pooled->fiber = std::make_unique<Fiber>(&BlockRunner::fiber_main, pooled.get());
    if (!pooled->fiber->valid()) {
      fprintf(stderr, "anygpu: cannot map a fiber stack for a block of %u threads\n", n);
      abort();
    }
    pool_.push_back(std::move(pooled));
  }
  // The fibers' contexts change only with the launch's shape; blocks of one launch reuse them.
  const agk_dim3 block = packet_->block;
  const bool same_shape = same(prepared_block_, block) && same(prepared_grid_, packet_->grid) &&
                          prepared_shared_ == ctx_.dynamic_shared;
  if (!same_shape) {
    prepared_block_ = block;
    prepared_grid_ = packet_->grid;
    prepared_shared_ = ctx_.dynamic_shared;
    prepared_from_ = n;
  }
  for (uint32_t t = native_thread + 1; t < prepared_from_; ++t) {
    agk_thread_ctx& ctx = thread_ctx_[t];
    ctx = ctx_;
    ctx.converted = 0;
    ctx.thread_idx.x = t % block.x;
    ctx.thread_idx.y = (t / block.x) % block.y;
    ctx.thread_idx.z = t / (block.x * block.y);
  }
  if (native_thread + 1 < prepared_from_) prepared_from_ = native_thread + 1;
  for (uint32_t t = native_thread; t < n; ++t) {
    next_[t] = t + 1 < n ? t + 1 : native_thread;
    previous_[t] = t > native_thread ? t - 1 : n - 1;
    if (t == native_thread) continue;
    PooledFiber* pooled = pool_[t - native_thread - 1].get();
    pooled->thread = t;
    fiber_of_thread_[t] = pooled;
  }
  live_ = n - native_thread;
  barrier_arrived_ = 0;
  blocked_ = 0;
  lanes_.reset(n, kCpuWarpSize, native_thread);
}

void BlockRunner::unlink(uint32_t thread) {
  next_[previous_[thread]] = next_[thread];
  previous_[next_[thread]] = previous_[thread];
  --live_;
}

void BlockRunner::yield_from(uint32_t thread) {
  const uint32_t next = next_[thread];
  if (next != thread) switch_context(context_of(thread), context_of(next));
}

void BlockRunner::on_barrier(agk_thread_ctx* ctx) {
  auto* runner = static_cast<BlockRunner*>(ctx->runtime);
  const uint32_t thread = runner->linear_thread(ctx->thread_idx);
  if (!runner->converted_) runner->convert(thread);
  const uint32_t generation = runner->barrier_generation_;
  if (++runner->barrier_arrived_ == runner->live_) {
    runner->release_barrier(runner->barrier_arrived_ - 1);  // the last to arrive goes on at once
    return;
  }
  ++runner->blocked_;
  if (runner->blocked_ == runner->live_) runner->stop_deadlocked(thread);
  while (runner->barrier_generation_ == generation) runner->yield_from(thread);
}

void BlockRunner::release_barrier(uint32_t waiting) {
  ++barrier_generation_;
  blocked_ -= waiting;
  barrier_arrived_ = 0;
}

// A thread's body returned. Threads exited do not hold a barrier or a warp function back (as
// on a GPU since Volta).
void BlockRunner::thread_exited(uint32_t thread) {
  unlink(thread);
  blocked_ -= lanes_.exit(thread);
  if (barrier_arrived_ > 0 && barrier_arrived_ == live_) release_barrier(barrier_arrived_);
  if (live_ > 0 && blocked_ == live_) stop_deadlocked(thread);
}

unsigned long long BlockRunner::on_warp_exchange(agk_thread_ctx* ctx, unsigned long long mask,
                                                 unsigned long long value,
                                                 const unsigned long long** values) {
  auto* runner = static_cast<BlockRunner*>(ctx->runtime);
  const uint32_t thread = runner->linear_thread(ctx->thread_idx);
  if (!runner->converted_) runner->convert(thread);
  WarpLanes& lanes = runner->lanes_;
  ++runner->blocked_;
  runner->blocked_ -= lanes.arrive(thread, mask, value);
  if (!lanes.released(thread)) {
    if (runner->blocked_ == runner->live_) runner->stop_deadlocked(thread);
    while (!lanes.released(thread)) runner->yield_from(thread);
  }
  const uint64_t* snapshot = nullptr;
  const uint64_t taking_part = lanes.result(thread, &snapshot);
  static_assert(sizeof(uint64_t) == sizeof(unsigned long long));
  *values = reinterpret_cast<const unsigned long long*>(snapshot);
  return taking_part;
}

// Why a block whose threads wait for each other fails its launch.
#define AG_THREADS_WAIT_FOR_EACH_OTHER                                                            \
  "every live thread of the block waits, in __syncthreads() or in a warp function (__shfl_sync, " \
  "__ballot_sync, __syncwarp, ...), for threads that exited or wait elsewhere: on a GPU the "     \
  "block would hang. CUDA requires all threads of a block to reach the same __syncthreads(), "    \
  "and all live lanes named in a warp function's mask to call it"

// The barrier pass's loops run warp functions themselves, so only code the pass could not see
// gets here.
unsigned long long BlockRunner::on_work_item_warp_exchange(agk_thread_ctx* ctx, unsigned long long,
                                                           unsigned long long,
                                                           const unsigned long long**) {
  on_work_item_barrier(ctx);
  return 0;
}

// Only agk_wi_divergent() (threads waiting at different places that cannot go on) or a barrier in
// code the pass could not see gets here: the launch fails, as on fibers.
void BlockRunner::on_work_item_barrier(agk_thread_ctx*) {
  KernelFault fault;
  fault.reason = AG_THREADS_WAIT_FOR_EACH_OTHER
      " (or it reached a barrier the barrier pass did not see: ANYGPU_CPU_WORKITEM_LOOPS=0 runs "
      "the kernel on fibers)";
  KernelFaultScope::abandon(fault);
}

// Every live thread waits, at a barrier or in a warp function, for threads that never come: on a
// GPU the block would hang. The launch fails instead.
void BlockRunner::stop_deadlocked(uint32_t thread) {
  KernelFault fault;
  fault.reason = AG_THREADS_WAIT_FOR_EACH_OTHER;
  (void)thread;
  KernelFaultScope::abandon(fault);
}

void BlockRunner::on_finish_block(agk_thread_ctx* ctx) {
  // The native thread's body returned; let the fibers finish, then continue the block loop.
  auto* runner = static_cast<BlockRunner*>(ctx->runtime);
  const uint32_t native = runner->native_thread_;
  const uint32_t next = runner->next_[native];
  runner->thread_exited(native);
  if (runner->live_ > 0) switch_context(runner->native_, runner->context_of(next));
  runner->converted_ = false;
  runner->ctx_.converted = 0;
}

void BlockRunner::finish_fiber_thread(uint32_t thread) {
  const uint32_t next = next_[thread];
  thread_exited(thread);
  ExecutionContext& self = context_of(thread);
  // The last thread to finish hands control back to the native thread, waiting in on_finish_block.
  switch_context(self, live_ > 0 ? context_of(next) : native_);
}

void BlockRunner::fiber_main(void* argument) {
  Fiber::on_first_entry();
  auto* pooled = static_cast<PooledFiber*>(argument);
  for (;;) {
    BlockRunner* runner = pooled->runner;
    const uint32_t thread = pooled->thread;
    agk_thread_ctx& ctx = runner->thread_ctx_[thread];
    ctx.block_idx = runner->ctx_.block_idx;
    runner->packet_->kernel->run_thread(runner->packet_->params, &ctx);
    runner->finish_fiber_thread(thread);
  }
}

}  // namespace anygpu::cpu
