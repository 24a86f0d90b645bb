// PoCL's context, queue and program, shared by the bench's PoCL variants (built only with the
// OpenCL ICD loader, ANYGPU_BENCH_OPENCL).
#pragma once

#ifdef ANYGPU_BENCH_OPENCL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <string>

namespace cpu_pass_bench {

// One for the whole run, built on first use: the kernels of cpu_pass_pocl_kernels.h and
// cpu_pass_pocl_port_kernels.h in one program. A non-empty `error` says why there is none.
struct Pocl {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  std::string error;
};
const Pocl& pocl();

}  // namespace cpu_pass_bench
#endif
