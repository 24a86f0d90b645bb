#include "hip_device.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "hip_module.h"
#include "shim/core/error.h"

namespace anygpu::hip {
namespace {

hipStream_t as_stream(void* stream) {
  return static_cast<hipStream_t>(stream);
}

hipEvent_t as_event(void* event) {
  return static_cast<hipEvent_t>(event);
}

bool printable(const char* text, size_t length) {
  for (size_t i = 0; i < length; ++i)
    if (text[i] < 0x21 || text[i] > 0x7e) return false;
  return true;
}

}  // namespace

ag_result HipDevice::query_properties() {
  ag_device_properties& p = properties_;
  if (hipError_t r = hip_.hipDeviceGetName(p.name, sizeof p.name, device_))
    return hip_fail(r, "hipDeviceGetName");
  p.name[sizeof p.name - 1] = 0;
  size_t total = 0;
  if (hipError_t r = hip_.hipDeviceTotalMem(&total, device_))
    return hip_fail(r, "hipDeviceTotalMem");
  p.total_memory = total;
  struct Attribute {
    hipDeviceAttribute_t attribute;
    int* value;
  };
  int shared = 0, optin = 0, l2 = 0;
  const Attribute attributes[] = {
      {hipDeviceAttributeMultiprocessorCount, &p.compute_units},
      {hipDeviceAttributeMaxThreadsPerBlock, &p.max_threads_per_block},
      {hipDeviceAttributeMaxBlockDimX, &p.max_block_dim[0]},
      {hipDeviceAttributeMaxBlockDimY, &p.max_block_dim[1]},
      {hipDeviceAttributeMaxBlockDimZ, &p.max_block_dim[2]},
      {hipDeviceAttributeMaxGridDimX, &p.max_grid_dim[0]},
      {hipDeviceAttributeMaxGridDimY, &p.max_grid_dim[1]},
      {hipDeviceAttributeMaxGridDimZ, &p.max_grid_dim[2]},
      {hipDeviceAttributeMaxSharedMemoryPerBlock, &shared},
      {hipDeviceAttributeWarpSize, &p.warp_size},
      {hipDeviceAttributeComputeCapabilityMajor, &p.compute_capability_major},
      {hipDeviceAttributeComputeCapabilityMinor, &p.compute_capability_minor},
      {hipDeviceAttributePciDomainID, &p.pci_domain_id},
      {hipDeviceAttributePciBusId, &p.pci_bus_id},
      {hipDeviceAttributePciDeviceId, &p.pci_device_id},
      {hipDeviceAttributeClockRate, &p.clock_rate_khz},
      {hipDeviceAttributeMemoryBusWidth, &p.memory_bus_width_bits},
      {hipDeviceAttributeMaxRegistersPerBlock, &p.registers_per_block},
      {hipDeviceAttributeSharedMemPerBlockOptin, &optin},
      {hipDeviceAttributeL2CacheSize, &l2},
      {hipDeviceAttributeManagedMemory, &p.managed_memory},
      {hipDeviceAttributeConcurrentManagedAccess, &p.concurrent_managed_access},
  };
  for (const Attribute& a : attributes)
    if (hipError_t r = hip_.hipDeviceGetAttribute(a.value, a.attribute, device_))
      return hip_fail(r, "hipDeviceGetAttribute");
  p.shared_memory_per_block = static_cast<uint64_t>(shared);
  p.shared_memory_per_block_optin = static_cast<uint64_t>(optin);
  p.l2_cache_bytes = static_cast<uint64_t>(l2);
  // HIP has memory pools from 5.1 on (the attribute that says so moved between versions): anygpu's
  // pools are the runtime's where it exports every call they need (hip_pool.cpp).
  p.stream_ordered_allocation = has_pool_functions() ? 1 : 0;
  if (hipError_t r = hip_.hipDriverGetVersion(&p.driver_version))
    return hip_fail(r, "hipDriverGetVersion");
  if (ag_result r = query_target_id()) return r;
  if (p.name[0] == 0) snprintf(p.name, sizeof p.name, "AMD %s", p.architecture);
  snprintf(p.vendor, sizeof p.vendor, "AMD");
  p.backend = AG_BACKEND_HIP;
  return AG_SUCCESS;
}

// hipDeviceProp_t's layout changed in HIP 6 (see hip_api.h): the R0600 form is read where the
// runtime exports it, else the R0000 one, each at its own gcnArchName offset, from a zeroed buffer
// far larger than either struct. The name must be NUL-terminated inside its 256 bytes, printable
// and a gfx target, or the layout was not the one expected.
ag_result HipDevice::query_target_id() {
  std::vector<char> buffer(kPropertiesBufferBytes, 0);
  const bool r0600 = hip_.hipGetDevicePropertiesR0600 != nullptr;
  const char* call = r0600 ? "hipGetDevicePropertiesR0600" : "hipGetDeviceProperties";
  const hipError_t r = r0600 ? hip_.hipGetDevicePropertiesR0600(buffer.data(), device_)
                             : hip_.hipGetDeviceProperties(buffer.data(), device_);
  if (r != hipSuccess) return hip_fail(r, call);
  const size_t offset = r0600 ? kR0600GcnArchNameOffset : kR0000GcnArchNameOffset;
  static_assert(kR0600GcnArchNameOffset + kGcnArchNameBytes <= kPropertiesBufferBytes);
  const char* name = buffer.data() + offset;
  const size_t length = strnlen(name, kGcnArchNameBytes);
  ag_device_properties& p = properties_;
  if (length == 0 || length == kGcnArchNameBytes || length >= sizeof p.architecture ||
      !printable(name, length) || strncmp(name, "gfx", 3) != 0)
    return fail(AG_ERROR_BACKEND_FAILURE,
                "%s gave no readable gcnArchName (expected a target id such as "
                "gfx90a:sramecc+:xnack- at byte %zu, NUL-terminated, under %zu characters)",
                call, offset, sizeof p.architecture);
  memcpy(p.architecture, name, length);
  p.architecture[length] = 0;
  return AG_SUCCESS;
}

ag_device_properties HipDevice::properties() {
  return properties_;
}

// Generic code objects (code object v6) load from HIP 6.4 on (earlier ROCm releases warned that
// v6 was not ready for production use).
DeviceTarget HipDevice::code_target() const {
  constexpr int kFirstGenericRuntime = 60400000;  // HIP_VERSION encoding
  return DeviceTarget{properties_.architecture,
                      properties_.driver_version >= kFirstGenericRuntime ? 6u : 0u};
}

ag_result HipDevice::finish_null_stream() {
  return hip_fail(hip_.hipStreamSynchronize(nullptr), "hipStreamSynchronize");
}

ag_result HipDevice::synchronize() {
  return on_device([&] { return hip_fail(hip_.hipDeviceSynchronize(), "hipDeviceSynchronize"); });
}

// ---- memory ------------------------------------------------------------------------------------

ag_result HipDevice::mem_alloc(size_t bytes, void** pointer) {
  return on_device([&] {
    void* allocated = nullptr;
    if (hipError_t r = hip_.hipMalloc(&allocated, bytes)) return hip_fail(r, "hipMalloc");
    *pointer = allocated;
    return AG_SUCCESS;
  });
}

ag_result HipDevice::mem_free(void* pointer) {
  return on_device([&] { return hip_fail(hip_.hipFree(pointer), "hipFree"); });
}

ag_result HipDevice::host_alloc(size_t bytes, void** pointer) {
  return on_device([&] {
    return hip_fail(hip_.hipHostMalloc(pointer, bytes, hipHostMallocDefault), "hipHostMalloc");
  });
}

ag_result HipDevice::host_free(void* pointer) {
  return on_device([&] { return hip_fail(hip_.hipHostFree(pointer), "hipHostFree"); });
}

ag_result HipDevice::mem_info(size_t* free_bytes, size_t* total_bytes) {
  return on_device(
      [&] { return hip_fail(hip_.hipMemGetInfo(free_bytes, total_bytes), "hipMemGetInfo"); });
}

// The synchronous forms run on the null stream, which anygpu's non-blocking streams do not wait
// for; as with CUDA, a device-side copy or memset (and a host-to-device copy from pageable memory,
// staged) may return before it is done, so they wait for the null stream. A device-to-host copy
// has landed when it returns.
ag_result HipDevice::copy(CopyKind kind, void* dst, const void* src, size_t bytes, void* stream) {
  return on_device([&] {
    hipError_t r = hipSuccess;
    const char* call = "";
    switch (kind) {
      case CopyKind::host_to_device:
        call = stream ? "hipMemcpyHtoDAsync" : "hipMemcpyHtoD";
        r = stream ? hip_.hipMemcpyHtoDAsync(dst, src, bytes, as_stream(stream))
                   : hip_.hipMemcpyHtoD(dst, src, bytes);
        break;
      case CopyKind::device_to_host:
        call = stream ? "hipMemcpyDtoHAsync" : "hipMemcpyDtoH";
        r = stream ? hip_.hipMemcpyDtoHAsync(dst, const_cast<void*>(src), bytes, as_stream(stream))
                   : hip_.hipMemcpyDtoH(dst, const_cast<void*>(src), bytes);
        break;
      case CopyKind::device_to_device:
        call = stream ? "hipMemcpyDtoDAsync" : "hipMemcpyDtoD";
        r = stream ? hip_.hipMemcpyDtoDAsync(dst, const_cast<void*>(src), bytes, as_stream(stream))
                   : hip_.hipMemcpyDtoD(dst, const_cast<void*>(src), bytes);
        break;
    }
    if (r != hipSuccess) return hip_fail(r, call);
    return stream || kind == CopyKind::device_to_host ? AG_SUCCESS : finish_null_stream();
  });
}

// A hipMemcpy2D a slice: HIP 5.2's hipMemcpy3D takes arrays and pitched pointers with their own
// extent rules, while the 2-D call is the one every HIP runs the same way.
ag_result HipDevice::copy_pitched(CopyKind kind, const PitchedCopy& c, void* stream) {
  const hipMemcpyKind direction = kind == CopyKind::host_to_device   ? hipMemcpyHostToDevice
                                  : kind == CopyKind::device_to_host ? hipMemcpyDeviceToHost
                                                                     : hipMemcpyDeviceToDevice;
  return on_device([&] {
    for (size_t z = 0; z < c.depth; ++z) {
      void* dst = static_cast<char*>(c.dst) + z * c.dst_slice();
      const void* src = static_cast<const char*>(c.src) + z * c.src_slice();
      const hipError_t r =
          stream
              ? hip_.hipMemcpy2DAsync(dst, c.dst_pitch, src, c.src_pitch, c.width, c.height,
                                      direction, as_stream(stream))
              : hip_.hipMemcpy2D(dst, c.dst_pitch, src, c.src_pitch, c.width, c.height, direction);
      if (r != hipSuccess) return hip_fail(r, stream ? "hipMemcpy2DAsync" : "hipMemcpy2D");
    }
    return stream || kind == CopyKind::device_to_host ? AG_SUCCESS : finish_null_stream();
  });
}

ag_result HipDevice::fill(void* dst, uint32_t value, unsigned element_size, size_t count,
                          void* stream) {
  return on_device([&] {
    hipError_t r = hipSuccess;
    const char* call = nullptr;
    hipStream_t s = stream ? as_stream(stream) : nullptr;
    if (element_size == 1) {
      const auto v = static_cast<unsigned char>(value);
      r = stream ? hip_.hipMemsetD8Async(dst, v, count, s) : hip_.hipMemsetD8(dst, v, count);
      call = stream ? "hipMemsetD8Async" : "hipMemsetD8";
    } else if (element_size == 2) {
      const auto v = static_cast<unsigned short>(value);
      r = stream ? hip_.hipMemsetD16Async(dst, v, count, s) : hip_.hipMemsetD16(dst, v, count);
      call = stream ? "hipMemsetD16Async" : "hipMemsetD16";
    } else {
      const auto v = static_cast<int>(value);  // HIP takes the 32 bits as an int
      r = stream ? hip_.hipMemsetD32Async(dst, v, count, s) : hip_.hipMemsetD32(dst, v, count);
      call = stream ? "hipMemsetD32Async" : "hipMemsetD32";
    }
    if (r) return hip_fail(r, call);
    return stream ? AG_SUCCESS : finish_null_stream();
  });
}

// ---- streams and events ------------------------------------------------------------------------

ag_result HipDevice::stream_create(unsigned, void** stream) {
  return on_device([&] {
    hipStream_t created = nullptr;
    if (hipError_t r = hip_.hipStreamCreateWithFlags(&created, hipStreamNonBlocking))
      return hip_fail(r, "hipStreamCreateWithFlags");
    *stream = created;
    return AG_SUCCESS;
  });
}

ag_result HipDevice::stream_destroy(void* stream) {
  return on_device([&] {
    if (hipError_t r = hip_.hipStreamSynchronize(as_stream(stream)))
      return hip_fail(r, "hipStreamSynchronize");
    return hip_fail(hip_.hipStreamDestroy(as_stream(stream)), "hipStreamDestroy");
  });
}

ag_result HipDevice::stream_synchronize(void* stream) {
  return on_device([&] {
    return hip_fail(hip_.hipStreamSynchronize(as_stream(stream)), "hipStreamSynchronize");
  });
}

ag_result HipDevice::stream_query(void* stream) {
  return on_device([&] {
    const hipError_t r = hip_.hipStreamQuery(as_stream(stream));
    return r == hipErrorNotReady ? AG_ERROR_NOT_READY : hip_fail(r, "hipStreamQuery");
  });
}

ag_result HipDevice::stream_wait_event(void* stream, void* event) {
  return on_device([&] {
    return hip_fail(hip_.hipStreamWaitEvent(as_stream(stream), as_event(event), 0),
                    "hipStreamWaitEvent");
  });
}

namespace {

// hipStreamAddCallback's callback has a signature of its own: it calls the host function.
struct HostFunctionCall {
  void (*fn)(void*);
  void* data;

  static void run(hipStream_t, hipError_t, void* call) {
    std::unique_ptr<HostFunctionCall> owned(static_cast<HostFunctionCall*>(call));
    owned->fn(owned->data);
  }
};

}  // namespace

ag_result HipDevice::launch_host_func(void* stream, void (*fn)(void*), void* data) {
  return on_device([&] {
    // Once queued, HostFunctionCall::run frees it; until then it is ours.
    auto* call = new HostFunctionCall{fn, data};
    if (hipError_t r =
            hip_.hipStreamAddCallback(as_stream(stream), &HostFunctionCall::run, call, 0)) {
      delete call;
      return hip_fail(r, "hipStreamAddCallback");
    }
    return AG_SUCCESS;
  });
}

ag_result HipDevice::stream_priority_range(int* least, int* greatest) {
  return on_device([&] {
    return hip_fail(hip_.hipDeviceGetStreamPriorityRange(least, greatest),
                    "hipDeviceGetStreamPriorityRange");
  });
}

ag_result HipDevice::stream_create_with_priority(int priority, void** stream) {
  return on_device([&] {
    hipStream_t created = nullptr;
    if (hipError_t r = hip_.hipStreamCreateWithPriority(&created, hipStreamNonBlocking, priority))
      return hip_fail(r, "hipStreamCreateWithPriority");
    *stream = created;
    return AG_SUCCESS;
  });
}

ag_result HipDevice::event_create(unsigned flags, void** event) {
  // anygpu's event flags have HIP's values.
  static_assert(unsigned{AG_EVENT_BLOCKING_SYNC} == hipEventBlockingSync &&
                unsigned{AG_EVENT_DISABLE_TIMING} == hipEventDisableTiming);
  return on_device([&] {
    hipEvent_t created = nullptr;
    if (hipError_t r = hip_.hipEventCreateWithFlags(&created, flags))
      return hip_fail(r, "hipEventCreateWithFlags");
    *event = created;
    return AG_SUCCESS;
  });
}

ag_result HipDevice::event_destroy(void* event) {
  return on_device(
      [&] { return hip_fail(hip_.hipEventDestroy(as_event(event)), "hipEventDestroy"); });
}

ag_result HipDevice::event_record(void* event, void* stream) {
  return on_device([&] {
    return hip_fail(hip_.hipEventRecord(as_event(event), as_stream(stream)), "hipEventRecord");
  });
}

ag_result HipDevice::event_synchronize(void* event) {
  return on_device(
      [&] { return hip_fail(hip_.hipEventSynchronize(as_event(event)), "hipEventSynchronize"); });
}

ag_result HipDevice::event_query(void* event) {
  return on_device([&] {
    const hipError_t r = hip_.hipEventQuery(as_event(event));
    return r == hipErrorNotReady ? AG_ERROR_NOT_READY : hip_fail(r, "hipEventQuery");
  });
}

ag_result HipDevice::event_elapsed(float* milliseconds, void* start, void* end) {
  return on_device([&] {
    const hipError_t r = hip_.hipEventElapsedTime(milliseconds, as_event(start), as_event(end));
    return r == hipErrorNotReady ? AG_ERROR_NOT_READY : hip_fail(r, "hipEventElapsedTime");
  });
}

// ---- modules and launch ------------------------------------------------------------------------

ag_result HipDevice::module_load(const CodeObject& code, void** module) {
  return on_device([&] {
    HipModule* loaded = nullptr;
    if (ag_result r = load_hip_module(hip_, code, &loaded)) return r;
    *module = loaded;
    return AG_SUCCESS;
  });
}

ag_result HipDevice::module_unload(void* module) {
  // Queued launches may still use the code; the wait holds no lock of the runtime.
  if (ag_result r = synchronize()) return r;
  return on_device([&] {
    auto* m = static_cast<HipModule*>(module);  // freed whatever the runtime says, as events are
    const hipError_t r = hip_.hipModuleUnload(m->module);
    delete m;
    return hip_fail(r, "hipModuleUnload");
  });
}

ag_result HipDevice::module_get_function(void* module, const char* name, void** function,
                                         std::vector<ag_param_info>& layout, bool& layout_known) {
  return on_device([&] {
    auto* m = static_cast<HipModule*>(module);
    hipFunction_t found = nullptr;
    if (hipError_t r = hip_.hipModuleGetFunction(&found, m->module, name))
      return hip_fail(r, "hipModuleGetFunction", ("kernel " + std::string(name)).c_str());
    layout_known = hip_kernel_layout(*m, name, &layout);
    *function = found;
    return AG_SUCCESS;
  });
}

ag_result HipDevice::module_get_global(void* module, const char* name, void** pointer,
                                       size_t* bytes) {
  return on_device([&] {
    hipDeviceptr_t address = nullptr;
    if (hipError_t r =
            hip_.hipModuleGetGlobal(&address, bytes, static_cast<HipModule*>(module)->module, name))
      return hip_fail(r, "hipModuleGetGlobal", ("global " + std::string(name)).c_str());
    *pointer = address;
    return AG_SUCCESS;
  });
}

ag_result HipDevice::launch(void* function, const LaunchConfig& c, void** params, void* stream) {
  return on_device([&] {
    if (hipError_t r = hip_.hipModuleLaunchKernel(
            static_cast<hipFunction_t>(function), c.grid[0], c.grid[1], c.grid[2], c.block[0],
            c.block[1], c.block[2], c.shared_memory_bytes, as_stream(stream), params, nullptr))
      return hip_fail(r, "hipModuleLaunchKernel");
    return stream ? AG_SUCCESS : finish_null_stream();
  });
}

}  // namespace anygpu::hip
