// Entry points for C kernels: the same block loop as the generated C++ entry (kernel.h), with
// each thread called through libffi from the kernel's recorded signature.
#include "block_runner.h"

namespace anygpu::cpu {
namespace {

void call_thread(const HostKernel& kernel, void** params) {
  ffi_arg ignored;
  ffi_call(const_cast<ffi_cif*>(&kernel.cif), kernel.desc->c_function, &ignored, params);
}

const HostKernel& kernel_of(const agk_thread_ctx* ctx) {
  return *static_cast<BlockRunner*>(ctx->runtime)->packet().kernel;
}

}  // namespace

void ffi_run_blocks(void** params, agk_thread_ctx* ctx, uint32_t block_begin, uint32_t block_end) {
  const HostKernel& kernel = kernel_of(ctx);
  kernel.desc->set_context(ctx);
  const agk_dim3 grid = ctx->grid_dim, block = ctx->block_dim;
  for (uint32_t b = block_begin; b < block_end; ++b) {
    ctx->block_idx.x = b % grid.x;
    ctx->block_idx.y = (b / grid.x) % grid.y;
    ctx->block_idx.z = b / (grid.x * grid.y);
    for (unsigned z = 0; z < block.z; ++z)
      for (unsigned y = 0; y < block.y; ++y)
        for (unsigned x = 0; x < block.x; ++x) {
          ctx->thread_idx = agk_dim3{x, y, z};
          call_thread(kernel, params);
          if (ctx->converted) {
            ctx->finish_block(ctx);
            kernel.desc->set_context(ctx);
            goto next_block;
          }
        }
  next_block:;
  }
}

void ffi_run_thread(void** params, agk_thread_ctx* ctx) {
  const HostKernel& kernel = kernel_of(ctx);
  kernel.desc->set_context(ctx);
  call_thread(kernel, params);
}

}  // namespace anygpu::cpu
