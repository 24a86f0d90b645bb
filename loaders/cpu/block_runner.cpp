#include "block_runner.h"

#include <cstdio>
#include <cstdlib>

namespace anygpu::cpu {

BlockRunner& BlockRunner::for_this_thread() {
  static thread_local BlockRunner runner;
  return runner;
}

BlockRunner::BlockRunner() : native_(current_thread_context()) {
  ctx_.barrier = &BlockRunner::on_barrier;
  ctx_.finish_block = &BlockRunner::on_finish_block;
  ctx_.runtime = this;
}

BlockRunner::~BlockRunner() = default;

bool BlockRunner::same(const agk_dim3& a, const agk_dim3& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

uint32_t BlockRunner::linear_thread(const agk_dim3& index) const {
  const agk_dim3& block = packet_->block;
  return index.x + block.x * (index.y + block.y * index.z);
}

void* BlockRunner::dynamic_shared(uint32_t bytes) {
  // Grows once to the largest size asked for; later launches reuse it.
  const size_t wanted = (bytes < 64 ? 64 : size_t{bytes} + 63) / 64 * 64;
  if (wanted > shared_capacity_) {
    shared_.reset(static_cast<unsigned char*>(aligned_alloc(64, wanted)));
    if (!shared_) {
      fprintf(stderr, "anygpu: cannot allocate %zu bytes of dynamic shared memory\n", wanted);
      abort();
    }
    shared_capacity_ = wanted;
  }
  return shared_.get();
}

void BlockRunner::run_blocks(const LaunchPacket& packet, uint32_t block_begin, uint32_t block_end) {
  packet_ = &packet;
  threads_per_block_ = packet.block.x * packet.block.y * packet.block.z;
  ctx_.grid_dim = packet.grid;
  ctx_.block_dim = packet.block;
  ctx_.dynamic_shared = dynamic_shared(packet.dynamic_shared_bytes);
  ctx_.converted = 0;
  ctx_.barrier = packet.kernel->work_item_loops ? &BlockRunner::on_work_item_barrier
                                                : &BlockRunner::on_barrier;
  packet.kernel->run_blocks(packet.params, &ctx_, block_begin, block_end);
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
  runner->yield_from(thread);
}

void BlockRunner::on_work_item_barrier(agk_thread_ctx* ctx) {
  // Only agk_wi_divergent() (or a barrier in code the pass could not see) gets here.
  auto* runner = static_cast<BlockRunner*>(ctx->runtime);
  fprintf(stderr,
          "anygpu: kernel '%s': the threads of a block reached different barriers (or a barrier "
          "the barrier pass did not see), which its loops cannot run; CUDA requires every thread "
          "of a block to reach the same __syncthreads(). ANYGPU_CPU_WORKITEM_LOOPS=0 runs it on "
          "fibers.\n",
          runner->packet_->kernel->desc->name);
  abort();
}

void BlockRunner::on_finish_block(agk_thread_ctx* ctx) {
  // The native thread's body returned; let the fibers finish, then continue the block loop.
  auto* runner = static_cast<BlockRunner*>(ctx->runtime);
  const uint32_t native = runner->native_thread_;
  const uint32_t next = runner->next_[native];
  runner->unlink(native);
  if (runner->live_ > 0) switch_context(runner->native_, runner->context_of(next));
  runner->converted_ = false;
  runner->ctx_.converted = 0;
}

void BlockRunner::finish_fiber_thread(uint32_t thread) {
  const uint32_t next = next_[thread];
  unlink(thread);
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
