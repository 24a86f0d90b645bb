// A kernel of a loaded host code object, and one launch of it as the workers see it.
#pragma once

#include <anygpu/anygpu.h>
#include <anygpu/kernel_host_abi.h>
#include <ffi.h>

#include <vector>

namespace anygpu::cpu {

class HostModule;

struct HostKernel {
  HostModule* module = nullptr;  // owns this kernel; a queued launch holds a reference to it
  const agk_kernel_desc* desc = nullptr;
  std::vector<ag_param_info> layout;
  size_t argument_bytes = 0;  // the packed size of all parameters
  agk_run_blocks_fn run_blocks = nullptr;
  agk_run_thread_fn run_thread = nullptr;
  bool work_item_loops = false;  // run_blocks is the barrier pass's: it never reaches a barrier
  // C kernels only: how libffi calls desc->c_function.
  ffi_cif cif{};
  std::vector<ffi_type*> ffi_types;
};

struct LaunchPacket {
  const HostKernel* kernel;
  agk_dim3 grid;
  agk_dim3 block;
  uint32_t dynamic_shared_bytes;
  uint32_t total_blocks;
  void** params;
};

// Entry points for C kernels, which have no generated ones: they call through libffi.
void ffi_run_blocks(void** params, agk_thread_ctx* ctx, uint32_t block_begin, uint32_t block_end);
void ffi_run_thread(void** params, agk_thread_ctx* ctx);

}  // namespace anygpu::cpu
