// The CUDA objects behind anygpu's: the device and its primary context, streams and events, and
// streams the application made in that context.
#include "cuda_device.h"
#include "shim/core/error.h"

namespace anygpu::cuda {

ag_result CudaDevice::native_device(ag_native_device& native) {
  CUcontext context = context_.load(std::memory_order_acquire);
  if (!context) {
    if (ag_result r = retain_context(&context)) return r;
  }
  native.ordinal = device_;
  native.context = context;
  return AG_SUCCESS;
}

ag_result CudaDevice::stream_native(void* stream, void** native) {
  *native = stream;  // anygpu's CUDA stream is the CUstream itself
  return AG_SUCCESS;
}

ag_result CudaDevice::event_native(void* event, void** native) {
  *native = event;
  return AG_SUCCESS;
}

// The stream must be of the primary context, where anygpu's modules and memory are.
ag_result CudaDevice::stream_adopt(void* native, void** stream, int* priority) {
  return in_context([&] {
    auto* cu_stream = static_cast<CUstream>(native);
    CUcontext owner = nullptr;
    if (CUresult r = cu_.cuStreamGetCtx(cu_stream, &owner)) return cuda_fail(r, "cuStreamGetCtx");
    if (owner != context_.load(std::memory_order_acquire))
      return fail(AG_ERROR_INVALID_VALUE,
                  "the stream belongs to another CUDA context than device %d's primary context, "
                  "where anygpu's modules and memory are; create it with that context current "
                  "(agDeviceGetNativeHandle gives it)",
                  device_);
    if (CUresult r = cu_.cuStreamGetPriority(cu_stream, priority))
      return cuda_fail(r, "cuStreamGetPriority");
    *stream = native;
    return AG_SUCCESS;
  });
}

ag_result CudaDevice::stream_release(void* stream) {
  return in_context([&] {
    return cuda_fail(cu_.cuStreamSynchronize(static_cast<CUstream>(stream)), "cuStreamSynchronize");
  });
}

}  // namespace anygpu::cuda
