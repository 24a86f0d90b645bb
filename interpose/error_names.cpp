// The names of CUresult and hipError_t values: what a trace shows for a result and what a fault
// spec's error= may say. The tables are the CUDA and HIP backends' own
// (loaders/{cuda,hip}/*_result_names.cpp), compiled in here: libanygpu is never linked.
#include "interpose/error_names.h"

#include "loaders/cuda/cuda_result_names.h"
#include "loaders/hip/hip_result_names.h"

namespace anygpu::intercept {

const char* result_name(Api api, int value) {
  return api == Api::cuda ? cuda::cuda_result_name(value) : hip::hip_result_name(value);
}

bool result_value(Api api, const char* name, int* value) {
  return api == Api::cuda ? cuda::cuda_result_value(name, value)
                          : hip::hip_result_value(name, value);
}

}  // namespace anygpu::intercept
