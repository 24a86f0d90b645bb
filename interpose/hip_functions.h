// Every HIP runtime function the interposer wraps, one line each:
//   X(symbol, parameters, arguments, description)
// as in cuda_functions.h; every one returns hipError_t, and its parameters are checked against
// loaders/hip/hip_api.h's PFN_<symbol> (hip_wrappers.cpp).
#pragma once

#include "loaders/hip/hip_api.h"

#define ANYGPU_DESCRIBE_HIP_COPY c.pointer("dst", dst), c.pointer("src", src), c.copied(bytes)

// clang-format off
#define ANYGPU_HIP_FUNCTIONS(X)                                                                    \
  X(hipInit, (unsigned flags), (flags), c.number("flags", flags))                                  \
  X(hipGetDeviceCount, (int* count), (count), c.out_number("count", count))                        \
  X(hipSetDevice, (int device), (device), c.number("device", device))                              \
  X(hipGetDevice, (int* device), (device), c.out_number("device", device))                         \
  X(hipDeviceSynchronize, (), (), c.none())                                                        \
  X(hipMalloc, (void** pointer, size_t bytes), (pointer, bytes),                                   \
    c.number("bytes", bytes), c.device_allocated(pointer, bytes))                                  \
  X(hipFree, (void* pointer), (pointer), c.device_freed(pointer))                                  \
  X(hipHostMalloc, (void** pointer, size_t bytes, unsigned flags), (pointer, bytes, flags),        \
    c.number("bytes", bytes), c.number("flags", flags), c.host_allocated(pointer, bytes))          \
  X(hipHostFree, (void* pointer), (pointer), c.host_freed(pointer))                                \
  X(hipMemcpy, (void* dst, const void* src, size_t bytes, hipMemcpyKind kind),                     \
    (dst, src, bytes, kind), ANYGPU_DESCRIBE_HIP_COPY, c.number("kind", kind))                     \
  X(hipMemcpyAsync, (void* dst, const void* src, size_t bytes, hipMemcpyKind kind,                 \
    hipStream_t stream), (dst, src, bytes, kind, stream),                                          \
    ANYGPU_DESCRIBE_HIP_COPY, c.number("kind", kind), c.pointer("stream", stream))                 \
  X(hipMemcpyHtoD, (hipDeviceptr_t dst, const void* src, size_t bytes), (dst, src, bytes),         \
    ANYGPU_DESCRIBE_HIP_COPY)                                                                      \
  X(hipMemcpyDtoH, (void* dst, hipDeviceptr_t src, size_t bytes), (dst, src, bytes),               \
    ANYGPU_DESCRIBE_HIP_COPY)                                                                      \
  X(hipMemcpyDtoD, (hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes), (dst, src, bytes),      \
    ANYGPU_DESCRIBE_HIP_COPY)                                                                      \
  X(hipMemset, (void* dst, int value, size_t count), (dst, value, count),                          \
    c.pointer("dst", dst), c.number("value", value), c.number("count", count))                     \
  X(hipMemsetAsync, (void* dst, int value, size_t count, hipStream_t stream),                      \
    (dst, value, count, stream), c.pointer("dst", dst), c.number("value", value),                  \
    c.number("count", count), c.pointer("stream", stream))                                         \
  X(hipModuleLoadData, (hipModule_t* module, const void* image), (module, image),                  \
    c.module_image(image), c.out_pointer("module", module))                                        \
  X(hipModuleUnload, (hipModule_t module), (module), c.pointer("module", module))                  \
  X(hipModuleGetFunction, (hipFunction_t* function, hipModule_t module, const char* name),         \
    (function, module, name),                                                                      \
    c.pointer("module", module), c.text("name", name), c.kernel_found(function, name))             \
  X(hipModuleGetGlobal, (hipDeviceptr_t* pointer, size_t* bytes, hipModule_t module,               \
    const char* name), (pointer, bytes, module, name), c.pointer("module", module),                \
    c.text("name", name), c.out_pointer("pointer", pointer), c.out_number("bytes", bytes))         \
  X(hipModuleLaunchKernel, (hipFunction_t function, unsigned grid_x, unsigned grid_y,              \
    unsigned grid_z, unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,  \
    hipStream_t stream, void** params, void** extra), (function, grid_x, grid_y, grid_z, block_x,  \
    block_y, block_z, shared_bytes, stream, params, extra),                                        \
    c.kernel(function), c.dims("grid", grid_x, grid_y, grid_z),                                    \
    c.dims("block", block_x, block_y, block_z), c.number("shared_bytes", shared_bytes),            \
    c.pointer("stream", stream))                                                                   \
  X(hipLaunchKernel, (const void* host_function, dim3 grid, dim3 block, void** args,               \
    size_t shared_bytes, hipStream_t stream), (host_function, grid, block, args, shared_bytes,     \
    stream),                                                                                       \
    c.host_kernel(host_function), c.dims("grid", grid.x, grid.y, grid.z),                          \
    c.dims("block", block.x, block.y, block.z), c.number("shared_bytes", shared_bytes),            \
    c.pointer("stream", stream))                                                                   \
  X(hipStreamCreate, (hipStream_t* stream), (stream), c.out_pointer("stream", stream))             \
  X(hipStreamCreateWithFlags, (hipStream_t* stream, unsigned flags), (stream, flags),              \
    c.number("flags", flags), c.out_pointer("stream", stream))                                     \
  X(hipStreamDestroy, (hipStream_t stream), (stream), c.pointer("stream", stream))                 \
  X(hipStreamSynchronize, (hipStream_t stream), (stream), c.pointer("stream", stream))             \
  X(hipEventCreate, (hipEvent_t* event), (event), c.out_pointer("event", event))                   \
  X(hipEventRecord, (hipEvent_t event, hipStream_t stream), (event, stream),                       \
    c.pointer("event", event), c.pointer("stream", stream))                                        \
  X(hipEventSynchronize, (hipEvent_t event), (event), c.pointer("event", event))                   \
  X(hipEventElapsedTime, (float* milliseconds, hipEvent_t start, hipEvent_t end),                  \
    (milliseconds, start, end), c.pointer("start", start), c.pointer("end", end),                  \
    c.out_number("milliseconds", milliseconds))                                                    \
  X(hipEventDestroy, (hipEvent_t event), (event), c.pointer("event", event))                       \
  X(hipGetProcAddress, (const char* symbol, void** pfn, int hip_version, uint64_t flags,           \
    hipDriverProcAddressQueryResult* status), (symbol, pfn, hip_version, flags, status),           \
    c.text("symbol", symbol), c.number("hip_version", hip_version), c.number("flags", flags),      \
    c.hand_out_entry_point(symbol, pfn))
// clang-format on
