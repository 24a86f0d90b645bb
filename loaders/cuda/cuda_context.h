// Makes a device's primary context current for one call, without disturbing the application's:
// when the thread already has that context nothing happens; when it has none, ours is set and
// left there (as the CUDA runtime does, so the next call costs one cuCtxGetCurrent); when it has
// another one, ours is pushed for the call and popped after.
#pragma once

#include "cuda_api.h"

namespace anygpu::cuda {

class ContextScope {
 public:
  ContextScope(const CudaFunctions& cu, CUcontext context) : cu_(cu) {
    CUcontext current = nullptr;
    result_ = cu.cuCtxGetCurrent(&current);
    if (result_ != CUDA_SUCCESS || current == context) return;
    if (current == nullptr) {
      result_ = cu.cuCtxSetCurrent(context);
      call_ = "cuCtxSetCurrent";
      return;
    }
    result_ = cu.cuCtxPushCurrent_v2(context);
    call_ = "cuCtxPushCurrent_v2";
    pushed_ = result_ == CUDA_SUCCESS;
  }
  ~ContextScope() {
    if (pushed_) {
      CUcontext popped = nullptr;
      cu_.cuCtxPopCurrent_v2(&popped);
    }
  }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

  CUresult result() const { return result_; }
  const char* call() const { return call_; }

 private:
  const CudaFunctions& cu_;
  CUresult result_ = CUDA_SUCCESS;
  const char* call_ = "cuCtxGetCurrent";
  bool pushed_ = false;
};

}  // namespace anygpu::cuda
