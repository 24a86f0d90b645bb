// Every CUDA Driver API function the interposer wraps, one line each:
//   X(symbol, parameters, arguments, description)
// `symbol` is the exported, versioned name; every one returns CUresult. The parameters are named
// here for the description, and checked against the one declaration of each function,
// loaders/cuda/cuda_api.h's PFN_<symbol> (cuda_wrappers.cpp). `description` runs after the call
// with `c` (call_record.h): it names the arguments worth seeing, reads outputs when the call
// succeeded, and tells the statistics about copies, allocations and kernels. Per-thread default
// stream variants (_ptsz, _ptds) are listed where libcuda exports them (nm -D libcuda.so), with
// their base function's description.
#pragma once

#include "loaders/cuda/cuda_api.h"

// Descriptions shared by a function and its per-thread-stream variant.
#define ANYGPU_DESCRIBE_MEMCPY \
  c.device_pointer("dst", dst), c.device_pointer("src", src), c.copied(bytes)
#define ANYGPU_DESCRIBE_HTOD c.device_pointer("dst", dst), c.pointer("src", src), c.copied(bytes)
#define ANYGPU_DESCRIBE_DTOH c.pointer("dst", dst), c.device_pointer("src", src), c.copied(bytes)
#define ANYGPU_DESCRIBE_MEMSET \
  c.device_pointer("dst", dst), c.number("value", value), c.number("count", count)
#define ANYGPU_DESCRIBE_LAUNCH                                                            \
  c.kernel(function), c.dims("grid", grid_x, grid_y, grid_z),                             \
      c.dims("block", block_x, block_y, block_z), c.number("shared_bytes", shared_bytes), \
      c.pointer("stream", stream)
#define ANYGPU_DESCRIBE_LAUNCH_EX                                                         \
  c.kernel(function),                                                                     \
      config ? (c.dims("grid", config->gridDimX, config->gridDimY, config->gridDimZ),     \
                c.dims("block", config->blockDimX, config->blockDimY, config->blockDimZ), \
                c.number("shared_bytes", config->sharedMemBytes),                         \
                c.pointer("stream", config->hStream))                                     \
             : c.pointer("config", config)

// clang-format off
#define ANYGPU_CUDA_FUNCTIONS(X)                                                                   \
  X(cuInit, (unsigned flags), (flags), c.number("flags", flags))                                   \
  X(cuDriverGetVersion, (int* version), (version), c.out_number("version", version))               \
  X(cuDeviceGet, (CUdevice* device, int ordinal), (device, ordinal),                               \
    c.number("ordinal", ordinal), c.out_number("device", device))                                  \
  X(cuDeviceGetCount, (int* count), (count), c.out_number("count", count))                         \
  X(cuDeviceGetName, (char* name, int length, CUdevice device), (name, length, device),            \
    c.number("device", device), c.out_text("name", name))                                          \
  X(cuDeviceGetAttribute, (int* value, CUdevice_attribute attribute, CUdevice device),             \
    (value, attribute, device),                                                                    \
    c.number("attribute", attribute), c.number("device", device), c.out_number("value", value))    \
  X(cuDeviceTotalMem_v2, (size_t* bytes, CUdevice device), (bytes, device),                        \
    c.number("device", device), c.out_number("bytes", bytes))                                      \
  X(cuDevicePrimaryCtxRetain, (CUcontext* context, CUdevice device), (context, device),            \
    c.number("device", device), c.out_pointer("context", context))                                 \
  X(cuDevicePrimaryCtxRelease, (CUdevice device), (device), c.number("device", device))            \
  X(cuDevicePrimaryCtxRelease_v2, (CUdevice device), (device), c.number("device", device))         \
  X(cuCtxCreate, (CUcontext* context, unsigned flags, CUdevice device), (context, flags, device),  \
    c.number("flags", flags), c.number("device", device), c.out_pointer("context", context))       \
  X(cuCtxCreate_v2, (CUcontext* context, unsigned flags, CUdevice device),                         \
    (context, flags, device),                                                                      \
    c.number("flags", flags), c.number("device", device), c.out_pointer("context", context))       \
  X(cuCtxCreate_v3, (CUcontext* context, CUexecAffinityParam* affinity, int affinity_count,        \
    unsigned flags, CUdevice device), (context, affinity, affinity_count, flags, device),          \
    c.number("flags", flags), c.number("device", device), c.out_pointer("context", context))       \
  X(cuCtxCreate_v4, (CUcontext* context, CUctxCreateParams* params, unsigned flags,                \
    CUdevice device), (context, params, flags, device),                                            \
    c.number("flags", flags), c.number("device", device), c.out_pointer("context", context))       \
  X(cuCtxDestroy, (CUcontext context), (context), c.pointer("context", context))                   \
  X(cuCtxDestroy_v2, (CUcontext context), (context), c.pointer("context", context))                \
  X(cuCtxSetCurrent, (CUcontext context), (context), c.pointer("context", context))                \
  X(cuCtxGetCurrent, (CUcontext* context), (context), c.out_pointer("context", context))           \
  X(cuCtxPushCurrent, (CUcontext context), (context), c.pointer("context", context))               \
  X(cuCtxPushCurrent_v2, (CUcontext context), (context), c.pointer("context", context))            \
  X(cuCtxPopCurrent, (CUcontext* context), (context), c.out_pointer("context", context))           \
  X(cuCtxPopCurrent_v2, (CUcontext* context), (context), c.out_pointer("context", context))        \
  X(cuCtxSynchronize, (), (), c.none())                                                            \
  X(cuCtxSynchronize_v2, (CUcontext context), (context), c.pointer("context", context))            \
  X(cuMemAlloc_v2, (CUdeviceptr* pointer, size_t bytes), (pointer, bytes),                         \
    c.number("bytes", bytes), c.device_allocated(pointer, bytes))                                  \
  X(cuMemAllocPitch_v2, (CUdeviceptr* pointer, size_t* pitch, size_t width, size_t height,         \
    unsigned element_bytes), (pointer, pitch, width, height, element_bytes),                       \
    c.number("width", width), c.number("height", height), c.out_number("pitch", pitch),            \
    c.device_allocated(pointer, c.succeeded() && pitch ? *pitch * height : 0))                     \
  X(cuMemFree_v2, (CUdeviceptr pointer), (pointer), c.device_freed(pointer))                       \
  X(cuMemAllocHost_v2, (void** pointer, size_t bytes), (pointer, bytes),                           \
    c.number("bytes", bytes), c.host_allocated(pointer, bytes))                                    \
  X(cuMemHostAlloc, (void** pointer, size_t bytes, unsigned flags), (pointer, bytes, flags),       \
    c.number("bytes", bytes), c.number("flags", flags), c.host_allocated(pointer, bytes))          \
  X(cuMemFreeHost, (void* pointer), (pointer), c.host_freed(pointer))                              \
  X(cuMemAllocManaged, (CUdeviceptr* pointer, size_t bytes, unsigned flags),                       \
    (pointer, bytes, flags),                                                                       \
    c.number("bytes", bytes), c.number("flags", flags), c.device_allocated(pointer, bytes))        \
  X(cuMemAllocAsync, (CUdeviceptr* pointer, size_t bytes, CUstream stream),                        \
    (pointer, bytes, stream),                                                                      \
    c.number("bytes", bytes), c.pointer("stream", stream), c.device_allocated(pointer, bytes))     \
  X(cuMemAllocAsync_ptsz, (CUdeviceptr* pointer, size_t bytes, CUstream stream),                   \
    (pointer, bytes, stream),                                                                      \
    c.number("bytes", bytes), c.pointer("stream", stream), c.device_allocated(pointer, bytes))     \
  X(cuMemFreeAsync, (CUdeviceptr pointer, CUstream stream), (pointer, stream),                     \
    c.pointer("stream", stream), c.device_freed(pointer))                                          \
  X(cuMemFreeAsync_ptsz, (CUdeviceptr pointer, CUstream stream), (pointer, stream),                \
    c.pointer("stream", stream), c.device_freed(pointer))                                          \
  X(cuMemcpy, (CUdeviceptr dst, CUdeviceptr src, size_t bytes), (dst, src, bytes),                 \
    ANYGPU_DESCRIBE_MEMCPY)                                                                        \
  X(cuMemcpy_ptds, (CUdeviceptr dst, CUdeviceptr src, size_t bytes), (dst, src, bytes),            \
    ANYGPU_DESCRIBE_MEMCPY)                                                                        \
  X(cuMemcpyAsync, (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream),              \
    (dst, src, bytes, stream), ANYGPU_DESCRIBE_MEMCPY, c.pointer("stream", stream))                \
  X(cuMemcpyAsync_ptsz, (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream),         \
    (dst, src, bytes, stream), ANYGPU_DESCRIBE_MEMCPY, c.pointer("stream", stream))                \
  X(cuMemcpyHtoD_v2, (CUdeviceptr dst, const void* src, size_t bytes), (dst, src, bytes),          \
    ANYGPU_DESCRIBE_HTOD)                                                                          \
  X(cuMemcpyHtoD_v2_ptds, (CUdeviceptr dst, const void* src, size_t bytes), (dst, src, bytes),     \
    ANYGPU_DESCRIBE_HTOD)                                                                          \
  X(cuMemcpyDtoH_v2, (void* dst, CUdeviceptr src, size_t bytes), (dst, src, bytes),                \
    ANYGPU_DESCRIBE_DTOH)                                                                          \
  X(cuMemcpyDtoH_v2_ptds, (void* dst, CUdeviceptr src, size_t bytes), (dst, src, bytes),           \
    ANYGPU_DESCRIBE_DTOH)                                                                          \
  X(cuMemcpyDtoD_v2, (CUdeviceptr dst, CUdeviceptr src, size_t bytes), (dst, src, bytes),          \
    ANYGPU_DESCRIBE_MEMCPY)                                                                        \
  X(cuMemcpyDtoD_v2_ptds, (CUdeviceptr dst, CUdeviceptr src, size_t bytes), (dst, src, bytes),     \
    ANYGPU_DESCRIBE_MEMCPY)                                                                        \
  X(cuMemcpyHtoDAsync_v2, (CUdeviceptr dst, const void* src, size_t bytes, CUstream stream),       \
    (dst, src, bytes, stream), ANYGPU_DESCRIBE_HTOD, c.pointer("stream", stream))                  \
  X(cuMemcpyHtoDAsync_v2_ptsz, (CUdeviceptr dst, const void* src, size_t bytes, CUstream stream),  \
    (dst, src, bytes, stream), ANYGPU_DESCRIBE_HTOD, c.pointer("stream", stream))                  \
  X(cuMemcpyDtoHAsync_v2, (void* dst, CUdeviceptr src, size_t bytes, CUstream stream),             \
    (dst, src, bytes, stream), ANYGPU_DESCRIBE_DTOH, c.pointer("stream", stream))                  \
  X(cuMemcpyDtoHAsync_v2_ptsz, (void* dst, CUdeviceptr src, size_t bytes, CUstream stream),        \
    (dst, src, bytes, stream), ANYGPU_DESCRIBE_DTOH, c.pointer("stream", stream))                  \
  X(cuMemcpyDtoDAsync_v2, (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream),       \
    (dst, src, bytes, stream), ANYGPU_DESCRIBE_MEMCPY, c.pointer("stream", stream))                \
  X(cuMemcpyDtoDAsync_v2_ptsz, (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream),  \
    (dst, src, bytes, stream), ANYGPU_DESCRIBE_MEMCPY, c.pointer("stream", stream))                \
  X(cuMemsetD8_v2, (CUdeviceptr dst, unsigned char value, size_t count), (dst, value, count),      \
    ANYGPU_DESCRIBE_MEMSET)                                                                        \
  X(cuMemsetD8_v2_ptds, (CUdeviceptr dst, unsigned char value, size_t count), (dst, value, count), \
    ANYGPU_DESCRIBE_MEMSET)                                                                        \
  X(cuMemsetD32_v2, (CUdeviceptr dst, unsigned value, size_t count), (dst, value, count),          \
    ANYGPU_DESCRIBE_MEMSET)                                                                        \
  X(cuMemsetD32_v2_ptds, (CUdeviceptr dst, unsigned value, size_t count), (dst, value, count),     \
    ANYGPU_DESCRIBE_MEMSET)                                                                        \
  X(cuMemsetD8Async, (CUdeviceptr dst, unsigned char value, size_t count, CUstream stream),        \
    (dst, value, count, stream), ANYGPU_DESCRIBE_MEMSET, c.pointer("stream", stream))              \
  X(cuMemsetD8Async_ptsz, (CUdeviceptr dst, unsigned char value, size_t count, CUstream stream),   \
    (dst, value, count, stream), ANYGPU_DESCRIBE_MEMSET, c.pointer("stream", stream))              \
  X(cuMemsetD32Async, (CUdeviceptr dst, unsigned value, size_t count, CUstream stream),            \
    (dst, value, count, stream), ANYGPU_DESCRIBE_MEMSET, c.pointer("stream", stream))              \
  X(cuMemsetD32Async_ptsz, (CUdeviceptr dst, unsigned value, size_t count, CUstream stream),       \
    (dst, value, count, stream), ANYGPU_DESCRIBE_MEMSET, c.pointer("stream", stream))              \
  X(cuModuleLoad, (CUmodule* module, const char* path), (module, path),                            \
    c.text("path", path), c.module_file(path), c.out_pointer("module", module))                    \
  X(cuModuleLoadData, (CUmodule* module, const void* image), (module, image),                      \
    c.module_image(image), c.out_pointer("module", module))                                        \
  X(cuModuleLoadDataEx, (CUmodule* module, const void* image, unsigned option_count,               \
    CUjit_option* options, void** option_values), (module, image, option_count, options,           \
    option_values), c.module_image(image), c.out_pointer("module", module))                        \
  X(cuModuleLoadFatBinary, (CUmodule* module, const void* image), (module, image),                 \
    c.module_image(image), c.out_pointer("module", module))                                        \
  X(cuModuleUnload, (CUmodule module), (module), c.pointer("module", module))                      \
  X(cuModuleGetFunction, (CUfunction* function, CUmodule module, const char* name),                \
    (function, module, name),                                                                      \
    c.pointer("module", module), c.text("name", name), c.kernel_found(function, name))             \
  X(cuModuleGetGlobal_v2, (CUdeviceptr* pointer, size_t* bytes, CUmodule module, const char* name),\
    (pointer, bytes, module, name), c.pointer("module", module), c.text("name", name),             \
    c.succeeded() && pointer ? c.device_pointer("pointer", *pointer) : c.none(),                   \
    c.out_number("bytes", bytes))                                                                  \
  X(cuLibraryLoadData, (CUlibrary* library, const void* image, CUjit_option* jit_options,          \
    void** jit_values, unsigned jit_count, CUlibraryOption* options, void** option_values,         \
    unsigned option_count), (library, image, jit_options, jit_values, jit_count, options,          \
    option_values, option_count), c.module_image(image), c.out_pointer("library", library))        \
  X(cuLibraryUnload, (CUlibrary library), (library), c.pointer("library", library))                \
  X(cuLibraryGetKernel, (CUkernel* kernel, CUlibrary library, const char* name),                   \
    (kernel, library, name),                                                                       \
    c.pointer("library", library), c.text("name", name), c.kernel_found(kernel, name))             \
  X(cuKernelGetFunction, (CUfunction* function, CUkernel kernel), (function, kernel),              \
    c.kernel(kernel), c.kernel_alias(function, kernel))                                            \
  X(cuLaunchKernel, (CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,       \
    unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream,  \
    void** params, void** extra), (function, grid_x, grid_y, grid_z, block_x, block_y, block_z,    \
    shared_bytes, stream, params, extra), ANYGPU_DESCRIBE_LAUNCH)                                  \
  X(cuLaunchKernel_ptsz, (CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,  \
    unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream,  \
    void** params, void** extra), (function, grid_x, grid_y, grid_z, block_x, block_y, block_z,    \
    shared_bytes, stream, params, extra), ANYGPU_DESCRIBE_LAUNCH)                                  \
  X(cuLaunchKernelEx, (const CUlaunchConfig* config, CUfunction function, void** params,           \
    void** extra), (config, function, params, extra), ANYGPU_DESCRIBE_LAUNCH_EX)                   \
  X(cuLaunchKernelEx_ptsz, (const CUlaunchConfig* config, CUfunction function, void** params,      \
    void** extra), (config, function, params, extra), ANYGPU_DESCRIBE_LAUNCH_EX)                   \
  X(cuStreamCreate, (CUstream* stream, unsigned flags), (stream, flags),                           \
    c.number("flags", flags), c.out_pointer("stream", stream))                                     \
  X(cuStreamCreateWithPriority, (CUstream* stream, unsigned flags, int priority),                  \
    (stream, flags, priority),                                                                     \
    c.number("flags", flags), c.number("priority", priority), c.out_pointer("stream", stream))     \
  X(cuStreamDestroy, (CUstream stream), (stream), c.pointer("stream", stream))                     \
  X(cuStreamDestroy_v2, (CUstream stream), (stream), c.pointer("stream", stream))                  \
  X(cuStreamSynchronize, (CUstream stream), (stream), c.pointer("stream", stream))                 \
  X(cuStreamSynchronize_ptsz, (CUstream stream), (stream), c.pointer("stream", stream))            \
  X(cuStreamQuery, (CUstream stream), (stream), c.pointer("stream", stream))                       \
  X(cuStreamQuery_ptsz, (CUstream stream), (stream), c.pointer("stream", stream))                  \
  X(cuEventCreate, (CUevent* event, unsigned flags), (event, flags),                               \
    c.number("flags", flags), c.out_pointer("event", event))                                       \
  X(cuEventRecord, (CUevent event, CUstream stream), (event, stream),                              \
    c.pointer("event", event), c.pointer("stream", stream))                                        \
  X(cuEventRecord_ptsz, (CUevent event, CUstream stream), (event, stream),                         \
    c.pointer("event", event), c.pointer("stream", stream))                                        \
  X(cuEventSynchronize, (CUevent event), (event), c.pointer("event", event))                       \
  X(cuEventElapsedTime, (float* milliseconds, CUevent start, CUevent end),                         \
    (milliseconds, start, end), c.pointer("start", start), c.pointer("end", end),                  \
    c.out_number("milliseconds", milliseconds))                                                    \
  X(cuEventElapsedTime_v2, (float* milliseconds, CUevent start, CUevent end),                      \
    (milliseconds, start, end), c.pointer("start", start), c.pointer("end", end),                  \
    c.out_number("milliseconds", milliseconds))                                                    \
  X(cuEventDestroy, (CUevent event), (event), c.pointer("event", event))                           \
  X(cuEventDestroy_v2, (CUevent event), (event), c.pointer("event", event))                        \
  X(cuGetProcAddress, (const char* symbol, void** pfn, int cuda_version, cuuint64_t flags),        \
    (symbol, pfn, cuda_version, flags),                                                            \
    c.text("symbol", symbol), c.number("cuda_version", cuda_version), c.number("flags", flags),    \
    c.hand_out_entry_point(symbol, pfn))                                                           \
  X(cuGetProcAddress_v2, (const char* symbol, void** pfn, int cuda_version, cuuint64_t flags,      \
    CUdriverProcAddressQueryResult* status), (symbol, pfn, cuda_version, flags, status),           \
    c.text("symbol", symbol), c.number("cuda_version", cuda_version), c.number("flags", flags),    \
    c.hand_out_entry_point(symbol, pfn))
// clang-format on
