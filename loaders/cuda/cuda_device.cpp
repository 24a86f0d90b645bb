#include "cuda_device.h"

#include <cstdio>
#include <cstring>

#include "cuda_module.h"
#include "ptx_isa.h"
#include "shim/core/error.h"

namespace anygpu::cuda {
namespace {

CUdeviceptr device_pointer(const void* pointer) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(pointer));
}
CUstream as_stream(void* stream) {
  return static_cast<CUstream>(stream);
}

CUevent as_event(void* event) {
  return static_cast<CUevent>(event);
}

}  // namespace

ag_result CudaDevice::query_properties() {
  ag_device_properties& p = properties_;
  if (CUresult r = cu_.cuDeviceGetName(p.name, sizeof p.name, device_))
    return cuda_fail(r, "cuDeviceGetName");
  size_t total = 0;
  if (CUresult r = cu_.cuDeviceTotalMem_v2(&total, device_))
    return cuda_fail(r, "cuDeviceTotalMem_v2");
  p.total_memory = total;
  struct Attribute {
    CUdevice_attribute attribute;
    int* value;
  };
  int major = 0, minor = 0, shared = 0, optin = 0, l2 = 0;
  const Attribute attributes[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &p.compute_units},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &p.max_threads_per_block},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, &p.max_block_dim[0]},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, &p.max_block_dim[1]},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, &p.max_block_dim[2]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, &p.max_grid_dim[0]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, &p.max_grid_dim[1]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, &p.max_grid_dim[2]},
      // Without cuFuncSetAttribute a launch gets the default limit, not the opt-in one.
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &shared},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, &p.warp_size},
      {CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, &p.pci_domain_id},
      {CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, &p.pci_bus_id},
      {CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, &p.pci_device_id},
      {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &p.clock_rate_khz},
      {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, &p.memory_bus_width_bits},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, &p.registers_per_block},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &optin},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &l2},
      {CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, &p.managed_memory},
      {CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, &p.concurrent_managed_access},
  };
  for (const Attribute& a : attributes)
    if (CUresult r = cu_.cuDeviceGetAttribute(a.value, a.attribute, device_))
      return cuda_fail(r, "cuDeviceGetAttribute");
  // CUDA 11.2: a driver of 11.0 or 11.1 does not know it, and the device has no memory pools.
  if (cu_.cuDeviceGetAttribute(&p.stream_ordered_allocation,
                               CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, device_))
    p.stream_ordered_allocation = 0;
  // anygpu's pools are the driver's where it has every call they need (cuda_pool.cpp).
  if (!has_pool_functions()) p.stream_ordered_allocation = 0;
  p.shared_memory_per_block = static_cast<uint64_t>(shared);
  p.shared_memory_per_block_optin = static_cast<uint64_t>(optin);
  p.l2_cache_bytes = static_cast<uint64_t>(l2);
  p.compute_capability_major = major;
  p.compute_capability_minor = minor;
  p.driver_version = driver_version_;
  CUuuid uuid{};  // all zero where the driver has no cuDeviceGetUuid (before CUDA 9.2)
  if (cu_.cuDeviceGetUuid) {
    if (CUresult r = cu_.cuDeviceGetUuid(&uuid, device_)) return cuda_fail(r, "cuDeviceGetUuid");
  }
  memcpy(p.uuid, uuid.bytes, sizeof p.uuid);
  snprintf(p.vendor, sizeof p.vendor, "NVIDIA");
  snprintf(p.architecture, sizeof p.architecture, "sm_%d%d", major, minor);
  p.backend = AG_BACKEND_CUDA;
  return AG_SUCCESS;
}

ag_device_properties CudaDevice::properties() {
  return properties_;
}

DeviceTarget CudaDevice::code_target() const {
  return DeviceTarget{properties_.architecture, max_ptx_version_for_driver(driver_version_)};
}

ag_result CudaDevice::retain_context(CUcontext* context) {
  std::lock_guard<std::mutex> lock(context_mutex_);
  if (CUcontext retained = context_.load(std::memory_order_relaxed)) {
    *context = retained;
    return AG_SUCCESS;
  }
  // Released never: the driver tears contexts down at exit, and a release from a static
  // destructor could run after the driver has.
  if (CUresult r = cu_.cuDevicePrimaryCtxRetain(context, device_))
    return cuda_fail(r, "cuDevicePrimaryCtxRetain");
  context_.store(*context, std::memory_order_release);
  return AG_SUCCESS;
}

ag_result CudaDevice::finish_default_stream() {
  return cuda_fail(cu_.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
}

ag_result CudaDevice::synchronize() {
  return in_context([&] { return cuda_fail(cu_.cuCtxSynchronize(), "cuCtxSynchronize"); });
}

// ---- memory ------------------------------------------------------------------------------------

ag_result CudaDevice::mem_alloc(size_t bytes, void** pointer) {
  return in_context([&] {
    CUdeviceptr allocated = 0;
    if (CUresult r = cu_.cuMemAlloc_v2(&allocated, bytes)) return cuda_fail(r, "cuMemAlloc_v2");
    *pointer = reinterpret_cast<void*>(static_cast<uintptr_t>(allocated));
    return AG_SUCCESS;
  });
}

ag_result CudaDevice::mem_free(void* pointer) {
  return in_context(
      [&] { return cuda_fail(cu_.cuMemFree_v2(device_pointer(pointer)), "cuMemFree_v2"); });
}

ag_result CudaDevice::host_alloc(size_t bytes, void** pointer) {
  return in_context(
      [&] { return cuda_fail(cu_.cuMemAllocHost_v2(pointer, bytes), "cuMemAllocHost_v2"); });
}

ag_result CudaDevice::host_free(void* pointer) {
  return in_context([&] { return cuda_fail(cu_.cuMemFreeHost(pointer), "cuMemFreeHost"); });
}

ag_result CudaDevice::mem_info(size_t* free_bytes, size_t* total_bytes) {
  return in_context(
      [&] { return cuda_fail(cu_.cuMemGetInfo_v2(free_bytes, total_bytes), "cuMemGetInfo_v2"); });
}

// The synchronous forms run on the legacy default stream, which anygpu's non-blocking streams do
// not wait for; CUDA returns from a device-side copy or memset before it is done, so they wait.
ag_result CudaDevice::copy(CopyKind kind, void* dst, const void* src, size_t bytes, void* stream) {
  return in_context([&] {
    CUresult r = CUDA_SUCCESS;
    const char* call = "";
    switch (kind) {
      case CopyKind::host_to_device:
        call = stream ? "cuMemcpyHtoDAsync_v2" : "cuMemcpyHtoD_v2";
        r = stream ? cu_.cuMemcpyHtoDAsync_v2(device_pointer(dst), src, bytes, as_stream(stream))
                   : cu_.cuMemcpyHtoD_v2(device_pointer(dst), src, bytes);
        break;
      case CopyKind::device_to_host:
        call = stream ? "cuMemcpyDtoHAsync_v2" : "cuMemcpyDtoH_v2";
        r = stream ? cu_.cuMemcpyDtoHAsync_v2(dst, device_pointer(src), bytes, as_stream(stream))
                   : cu_.cuMemcpyDtoH_v2(dst, device_pointer(src), bytes);
        break;
      case CopyKind::device_to_device:
        call = stream ? "cuMemcpyDtoDAsync_v2" : "cuMemcpyDtoD_v2";
        r = stream ? cu_.cuMemcpyDtoDAsync_v2(device_pointer(dst), device_pointer(src), bytes,
                                              as_stream(stream))
                   : cu_.cuMemcpyDtoD_v2(device_pointer(dst), device_pointer(src), bytes);
        break;
    }
    if (r != CUDA_SUCCESS) return cuda_fail(r, call);
    return stream || kind == CopyKind::device_to_host ? AG_SUCCESS : finish_default_stream();
  });
}

// One cuMemcpy3D for a 2-D or 3-D box; the origins are in the pointers already.
ag_result CudaDevice::copy_pitched(CopyKind kind, const PitchedCopy& c, void* stream) {
  CUDA_MEMCPY3D p{};
  const bool src_on_device = kind != CopyKind::host_to_device;
  const bool dst_on_device = kind != CopyKind::device_to_host;
  p.srcMemoryType = src_on_device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
  if (src_on_device)
    p.srcDevice = device_pointer(c.src);
  else
    p.srcHost = c.src;
  p.dstMemoryType = dst_on_device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
  if (dst_on_device)
    p.dstDevice = device_pointer(c.dst);
  else
    p.dstHost = c.dst;
  p.srcPitch = c.src_pitch;
  p.srcHeight = c.src_rows;
  p.dstPitch = c.dst_pitch;
  p.dstHeight = c.dst_rows;
  p.WidthInBytes = c.width;
  p.Height = c.height;
  p.Depth = c.depth;
  return in_context([&] {
    const CUresult r =
        stream ? cu_.cuMemcpy3DAsync_v2(&p, as_stream(stream)) : cu_.cuMemcpy3D_v2(&p);
    if (r != CUDA_SUCCESS) return cuda_fail(r, stream ? "cuMemcpy3DAsync_v2" : "cuMemcpy3D_v2");
    return stream || kind == CopyKind::device_to_host ? AG_SUCCESS : finish_default_stream();
  });
}

ag_result CudaDevice::fill(void* dst, uint32_t value, unsigned element_size, size_t count,
                           void* stream) {
  const CUdeviceptr p = device_pointer(dst);
  return in_context([&] {
    CUresult r = CUDA_SUCCESS;
    const char* call = nullptr;
    if (element_size == 1) {
      const auto v = static_cast<unsigned char>(value);
      r = stream ? cu_.cuMemsetD8Async(p, v, count, as_stream(stream))
                 : cu_.cuMemsetD8_v2(p, v, count);
      call = stream ? "cuMemsetD8Async" : "cuMemsetD8_v2";
    } else if (element_size == 2) {
      const auto v = static_cast<unsigned short>(value);
      r = stream ? cu_.cuMemsetD16Async(p, v, count, as_stream(stream))
                 : cu_.cuMemsetD16_v2(p, v, count);
      call = stream ? "cuMemsetD16Async" : "cuMemsetD16_v2";
    } else {
      r = stream ? cu_.cuMemsetD32Async(p, value, count, as_stream(stream))
                 : cu_.cuMemsetD32_v2(p, value, count);
      call = stream ? "cuMemsetD32Async" : "cuMemsetD32_v2";
    }
    if (r) return cuda_fail(r, call);
    return stream ? AG_SUCCESS : finish_default_stream();
  });
}

// ---- streams and events ------------------------------------------------------------------------

ag_result CudaDevice::stream_create(unsigned, void** stream) {
  return in_context([&] {
    CUstream created = nullptr;
    if (CUresult r = cu_.cuStreamCreate(&created, CU_STREAM_NON_BLOCKING))
      return cuda_fail(r, "cuStreamCreate");
    *stream = created;
    return AG_SUCCESS;
  });
}

ag_result CudaDevice::stream_priority_range(int* least, int* greatest) {
  return in_context([&] {
    return cuda_fail(cu_.cuCtxGetStreamPriorityRange(least, greatest),
                     "cuCtxGetStreamPriorityRange");
  });
}

ag_result CudaDevice::stream_create_with_priority(int priority, void** stream) {
  return in_context([&] {
    CUstream created = nullptr;
    if (CUresult r = cu_.cuStreamCreateWithPriority(&created, CU_STREAM_NON_BLOCKING, priority))
      return cuda_fail(r, "cuStreamCreateWithPriority");
    *stream = created;
    return AG_SUCCESS;
  });
}

ag_result CudaDevice::stream_destroy(void* stream) {
  return in_context([&] {
    if (CUresult r = cu_.cuStreamSynchronize(as_stream(stream)))
      return cuda_fail(r, "cuStreamSynchronize");
    return cuda_fail(cu_.cuStreamDestroy_v2(as_stream(stream)), "cuStreamDestroy_v2");
  });
}

ag_result CudaDevice::stream_synchronize(void* stream) {
  return in_context(
      [&] { return cuda_fail(cu_.cuStreamSynchronize(as_stream(stream)), "cuStreamSynchronize"); });
}

ag_result CudaDevice::stream_query(void* stream) {
  return in_context([&] {
    const CUresult r = cu_.cuStreamQuery(as_stream(stream));
    return r == CUDA_ERROR_NOT_READY ? AG_ERROR_NOT_READY : cuda_fail(r, "cuStreamQuery");
  });
}

ag_result CudaDevice::stream_wait_event(void* stream, void* event) {
  return in_context([&] {
    return cuda_fail(cu_.cuStreamWaitEvent(as_stream(stream), as_event(event), 0),
                     "cuStreamWaitEvent");
  });
}

ag_result CudaDevice::launch_host_func(void* stream, void (*fn)(void*), void* data) {
  return in_context([&] {
    return cuda_fail(cu_.cuLaunchHostFunc(as_stream(stream), fn, data), "cuLaunchHostFunc");
  });
}

ag_result CudaDevice::event_create(unsigned flags, void** event) {
  // anygpu's event flags have CUDA's values.
  static_assert(unsigned{AG_EVENT_BLOCKING_SYNC} == CU_EVENT_BLOCKING_SYNC &&
                unsigned{AG_EVENT_DISABLE_TIMING} == CU_EVENT_DISABLE_TIMING);
  return in_context([&] {
    CUevent created = nullptr;
    if (CUresult r = cu_.cuEventCreate(&created, flags)) return cuda_fail(r, "cuEventCreate");
    *event = created;
    return AG_SUCCESS;
  });
}

ag_result CudaDevice::event_destroy(void* event) {
  return in_context(
      [&] { return cuda_fail(cu_.cuEventDestroy_v2(as_event(event)), "cuEventDestroy_v2"); });
}

ag_result CudaDevice::event_record(void* event, void* stream) {
  return in_context([&] {
    return cuda_fail(cu_.cuEventRecord(as_event(event), as_stream(stream)), "cuEventRecord");
  });
}

ag_result CudaDevice::event_synchronize(void* event) {
  return in_context(
      [&] { return cuda_fail(cu_.cuEventSynchronize(as_event(event)), "cuEventSynchronize"); });
}

ag_result CudaDevice::event_query(void* event) {
  return in_context([&] {
    const CUresult r = cu_.cuEventQuery(as_event(event));
    return r == CUDA_ERROR_NOT_READY ? AG_ERROR_NOT_READY : cuda_fail(r, "cuEventQuery");
  });
}

ag_result CudaDevice::event_elapsed(float* milliseconds, void* start, void* end) {
  return in_context([&] {
    const CUresult r = cu_.cuEventElapsedTime(milliseconds, as_event(start), as_event(end));
    return r == CUDA_ERROR_NOT_READY ? AG_ERROR_NOT_READY : cuda_fail(r, "cuEventElapsedTime");
  });
}

// ---- modules and launch ------------------------------------------------------------------------

ag_result CudaDevice::module_load(const CodeObject& code, void** module) {
  return in_context([&] {
    CudaModule* loaded = nullptr;
    if (ag_result r = load_cuda_module(cu_, code, &loaded)) return r;
    *module = loaded;
    return AG_SUCCESS;
  });
}

ag_result CudaDevice::module_unload(void* module) {
  // Queued launches may still use the code; the wait holds no lock of the runtime.
  if (ag_result r = synchronize()) return r;
  return in_context([&] {
    auto* m = static_cast<CudaModule*>(module);  // freed whatever the driver says, as events are
    const CUresult r = cu_.cuModuleUnload(m->module);
    delete m;
    return cuda_fail(r, "cuModuleUnload");
  });
}

ag_result CudaDevice::module_get_function(void* module, const char* name, void** function,
                                          std::vector<ag_param_info>& layout, bool& layout_known) {
  return in_context([&] {
    auto* m = static_cast<CudaModule*>(module);
    CUfunction found = nullptr;
    if (CUresult r = cu_.cuModuleGetFunction(&found, m->module, name))
      return cuda_fail(r, "cuModuleGetFunction", ("kernel " + std::string(name)).c_str());
    layout_known = cuda_kernel_layout(cu_, *m, found, name, &layout);
    *function = found;
    return AG_SUCCESS;
  });
}

ag_result CudaDevice::module_get_global(void* module, const char* name, void** pointer,
                                        size_t* bytes) {
  return in_context([&] {
    CUdeviceptr address = 0;
    const CUresult r =
        cu_.cuModuleGetGlobal_v2(&address, bytes, static_cast<CudaModule*>(module)->module, name);
    // The driver answers CUDA_ERROR_INVALID_VALUE for a name that is a kernel: no variable either.
    if (r == CUDA_ERROR_INVALID_VALUE)
      return fail(AG_ERROR_NOT_FOUND,
                  "agModuleGetGlobal: the module has no variable named '%s' (cuModuleGetGlobal "
                  "answered CUDA_ERROR_INVALID_VALUE: the name is a kernel's, or not a variable's)",
                  name);
    if (r) return cuda_fail(r, "cuModuleGetGlobal", ("global " + std::string(name)).c_str());
    *pointer = reinterpret_cast<void*>(static_cast<uintptr_t>(address));
    return AG_SUCCESS;
  });
}

ag_result CudaDevice::launch(void* function, const LaunchConfig& c, void** params, void* stream) {
  return in_context([&] {
    if (CUresult r = cu_.cuLaunchKernel(static_cast<CUfunction>(function), c.grid[0], c.grid[1],
                                        c.grid[2], c.block[0], c.block[1], c.block[2],
                                        c.shared_memory_bytes, as_stream(stream), params, nullptr))
      return cuda_fail(r, "cuLaunchKernel");
    return stream ? AG_SUCCESS : finish_default_stream();
  });
}

}  // namespace anygpu::cuda
