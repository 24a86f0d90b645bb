#include "level_zero_support.h"

#include <dlfcn.h>

#include <cstdio>
#include <vector>

#include "anygpu_image_bench_kernels.h"
#include "bundle_reader.h"

namespace anygpu_level_zero_bench {
namespace {

// The loader has no call that names a result: the number, as the specification lists it.
std::string ze_failure(ze::ze_result_t result, const char* what) {
  char number[16];
  std::snprintf(number, sizeof number, "0x%x", static_cast<unsigned>(result));
  return std::string(what) + " failed: ze_result_t " + number;
}

// Every entry point as anygpu finds it (loaders/level_zero/level_zero_loader.cpp): dlsym.
std::string resolve(void* library, ze::LevelZeroFunctions* fn) {
  return anygpu::resolve_functions(*fn, anygpu::dlsym_lookup(library));
}

// The anygpu side, then the loader it loaded, resolved.
std::string set_up_anygpu(LevelZeroRuntime& r) {
  std::string library;
  if (std::string error =
          anygpu_bench::set_up_anygpu(AG_BACKEND_LEVEL_ZERO, "Level Zero", &r, &library);
      !error.empty())
    return error;
  void* loader =
      anygpu_bench::loaded_library(library, "ANYGPU_LEVEL_ZERO_LIBRARY", {"libze_loader.so.1"});
  if (!loader) return "the Level Zero loader anygpu loaded (" + library + ") is not open";
  const std::string missing = resolve(loader, &r.fn);
  if (!missing.empty()) return library + " lacks " + missing;
  return "";
}

// anygpu's device 0 is the first GPU of the first driver that has one (level_zero_backend.cpp
// lists them in the loader's order): the same device here, and the driver it belongs to.
std::string find_first_gpu(const ze::LevelZeroFunctions& fn, ze::ze_driver_handle_t* driver,
                           ze::ze_device_handle_t* device) {
  uint32_t count = 0;
  if (ze::ze_result_t e = fn.zeDriverGet(&count, nullptr)) return ze_failure(e, "zeDriverGet");
  std::vector<ze::ze_driver_handle_t> drivers(count);
  if (ze::ze_result_t e = fn.zeDriverGet(&count, drivers.data()))
    return ze_failure(e, "zeDriverGet");
  for (ze::ze_driver_handle_t d : drivers) {
    uint32_t devices_count = 0;
    if (ze::ze_result_t e = fn.zeDeviceGet(d, &devices_count, nullptr))
      return ze_failure(e, "zeDeviceGet");
    std::vector<ze::ze_device_handle_t> devices(devices_count);
    if (ze::ze_result_t e = fn.zeDeviceGet(d, &devices_count, devices.data()))
      return ze_failure(e, "zeDeviceGet");
    for (ze::ze_device_handle_t candidate : devices) {
      ze::ze_device_properties_t properties{};
      properties.stype = ze::ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
      if (ze::ze_result_t e = fn.zeDeviceGetProperties(candidate, &properties))
        return ze_failure(e, "zeDeviceGetProperties");
      if (properties.type != ze::ZE_DEVICE_TYPE_GPU) continue;
      *driver = d;
      *device = candidate;
      return "";
    }
  }
  return "the Level Zero loader lists no GPU";
}

// The bundle's one SPIR-V entry, which anygpu also builds on a Level Zero device.
std::string spirv_entry(std::vector<unsigned char>* spirv) {
  std::vector<anygpu_bench::BundleEntry> entries;
  std::string error;
  if (!anygpu_bench::read_bundle(anygpu_image_bench_kernels, anygpu_image_bench_kernels_size,
                                 &entries, &error))
    return error;
  for (const anygpu_bench::BundleEntry& e : entries)
    if (e.id.find("spirv64") != std::string::npos) {
      spirv->assign(e.data, e.data + e.size);
      return "";
    }
  return "the bundle holds no SPIR-V (it holds " + anygpu_bench::bundle_ids(entries) + ")";
}

// The direct side: the same device, a context of its own and the same SPIR-V built on it.
std::string set_up_direct(LevelZeroRuntime& r) {
  const ze::LevelZeroFunctions& fn = r.fn;
  ze::ze_driver_handle_t driver = nullptr;
  if (std::string error = find_first_gpu(fn, &driver, &r.ze_device); !error.empty()) return error;
  ze::ze_context_desc_t context_desc{};
  context_desc.stype = ze::ZE_STRUCTURE_TYPE_CONTEXT_DESC;
  if (ze::ze_result_t e = fn.zeContextCreate(driver, &context_desc, &r.context))
    return ze_failure(e, "zeContextCreate");
  static std::vector<unsigned char> spirv;  // the driver may keep pointing at it
  if (std::string error = spirv_entry(&spirv); !error.empty()) return error;
  ze::ze_module_desc_t desc{};
  desc.stype = ze::ZE_STRUCTURE_TYPE_MODULE_DESC;
  desc.format = ze::ZE_MODULE_FORMAT_IL_SPIRV;
  desc.inputSize = spirv.size();
  desc.pInputModule = spirv.data();
  desc.pBuildFlags = "";
  if (ze::ze_result_t e = fn.zeModuleCreate(r.context, r.ze_device, &desc, &r.ze_kernels, nullptr))
    return ze_failure(e, "zeModuleCreate(bench_kernels)");
  return "";
}

LevelZeroRuntime initialise() {
  LevelZeroRuntime r;
  r.error = set_up_anygpu(r);
  if (r.error.empty()) r.error = set_up_direct(r);
  return r;
}

// Skip the benchmark with "<what>: <reason>" and return false unless the call succeeded.
bool ze_ok(benchmark::State& state, ze::ze_result_t result, const char* what) {
  if (result == ze::ZE_RESULT_SUCCESS) return true;
  state.SkipWithError(ze_failure(result, what).c_str());
  return false;
}

// A stream as anygpu makes one (level_zero_device.cpp): an in-order immediate command list, and
// an event that a barrier signals, since Debian's loader (1.8) has no
// zeCommandListHostSynchronize.
struct Stream {
  ze::ze_command_list_handle_t list = nullptr;
  ze::ze_event_pool_handle_t pool = nullptr;
  ze::ze_event_handle_t done = nullptr;
};

// The shared benchmarks' calls on the loader, directly. Level Zero sets a kernel's arguments by
// index and size, which the shared launch does not carry: it launches `empty`, which takes none.
class DirectApi final : public anygpu_bench::GpuApi {
 public:
  explicit DirectApi(const LevelZeroRuntime& r) : r_(r), fn_(r.fn) {}

  bool get_function(benchmark::State& state, const char* name, void** function) const override {
    ze::ze_kernel_desc_t desc{};
    desc.stype = ze::ZE_STRUCTURE_TYPE_KERNEL_DESC;
    desc.pKernelName = name;
    ze::ze_kernel_handle_t kernel = nullptr;
    if (!ze_ok(state, fn_.zeKernelCreate(r_.ze_kernels, &desc, &kernel), "zeKernelCreate"))
      return false;
    // Every launch here is one work-item of a kernel without user parameters, so all is set once:
    // the group size, and argument 0, the trailing __local parameter every anygpu SPIR-V kernel
    // has (docs/kernel-dialect.md), at 1 byte as anygpu sets it when no shared memory is asked.
    if (!ze_ok(state, fn_.zeKernelSetGroupSize(kernel, 1, 1, 1), "zeKernelSetGroupSize") ||
        !ze_ok(state, fn_.zeKernelSetArgumentValue(kernel, 0, 1, nullptr),
               "zeKernelSetArgumentValue(trailing __local)"))
      return false;
    *function = kernel;
    return true;
  }
  bool stream_create(benchmark::State& state, void** stream) const override {
    auto* s = new Stream;
    ze::ze_command_queue_desc_t desc{};
    desc.stype = ze::ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
    desc.flags = ze::ZE_COMMAND_QUEUE_FLAG_IN_ORDER;
    desc.mode = ze::ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    ze::ze_event_pool_desc_t pool_desc{};
    pool_desc.stype = ze::ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
    pool_desc.flags = ze::ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
    pool_desc.count = 1;
    ze::ze_event_desc_t event_desc{};
    event_desc.stype = ze::ZE_STRUCTURE_TYPE_EVENT_DESC;
    event_desc.signal = ze::ZE_EVENT_SCOPE_FLAG_HOST;
    event_desc.wait = ze::ZE_EVENT_SCOPE_FLAG_HOST;
    ze::ze_device_handle_t device = r_.ze_device;
    const bool ok =
        ze_ok(state, fn_.zeCommandListCreateImmediate(r_.context, device, &desc, &s->list),
              "zeCommandListCreateImmediate") &&
        ze_ok(state, fn_.zeEventPoolCreate(r_.context, &pool_desc, 1, &device, &s->pool),
              "zeEventPoolCreate") &&
        ze_ok(state, fn_.zeEventCreate(s->pool, &event_desc, &s->done), "zeEventCreate");
    if (!ok) {
      stream_destroy(s);
      return false;
    }
    *stream = s;
    return true;
  }
  // A barrier signals the event once all before it is done; the host waits, then resets it.
  bool stream_synchronize(benchmark::State& state, void* stream) const override {
    const Stream* s = static_cast<Stream*>(stream);
    return ze_ok(state, fn_.zeCommandListAppendBarrier(s->list, s->done, 0, nullptr),
                 "zeCommandListAppendBarrier") &&
           ze_ok(state, fn_.zeEventHostSynchronize(s->done, ze::kWaitForever),
                 "zeEventHostSynchronize") &&
           ze_ok(state, fn_.zeEventHostReset(s->done), "zeEventHostReset");
  }
  void stream_destroy(void* stream) const override {
    auto* s = static_cast<Stream*>(stream);
    if (s->done) fn_.zeEventDestroy(s->done);
    if (s->pool) fn_.zeEventPoolDestroy(s->pool);
    if (s->list) fn_.zeCommandListDestroy(s->list);
    delete s;
  }
  bool launch_single(benchmark::State& state, void* function, void* stream,
                     void** params) const override {
    if (params && params[0]) {
      state.SkipWithError("the Level Zero direct side launches kernels without parameters only");
      return false;
    }
    const ze::ze_group_count_t groups{1, 1, 1};
    return ze_ok(state,
                 fn_.zeCommandListAppendLaunchKernel(static_cast<Stream*>(stream)->list,
                                                     static_cast<ze::ze_kernel_handle_t>(function),
                                                     &groups, nullptr, 0, nullptr),
                 "zeCommandListAppendLaunchKernel");
  }
  bool alloc_host(benchmark::State& state, size_t bytes, void** host) const override {
    ze::ze_host_mem_alloc_desc_t desc{};
    desc.stype = ze::ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
    return ze_ok(state, fn_.zeMemAllocHost(r_.context, &desc, bytes, 64, host), "zeMemAllocHost");
  }
  void free_host(void* host) const override { fn_.zeMemFree(r_.context, host); }
  bool alloc(benchmark::State& state, size_t bytes, void** device) const override {
    ze::ze_device_mem_alloc_desc_t desc{};
    desc.stype = ze::ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
    return ze_ok(state, fn_.zeMemAllocDevice(r_.context, &desc, bytes, 64, r_.ze_device, device),
                 "zeMemAllocDevice");
  }
  void free(void* device) const override { fn_.zeMemFree(r_.context, device); }
  bool copy_htod(benchmark::State& state, void* device, const void* host,
                 size_t bytes) const override {
    return copy(state, device, host, bytes);
  }
  bool copy_dtoh(benchmark::State& state, void* host, const void* device,
                 size_t bytes) const override {
    return copy(state, host, device, bytes);
  }
  bool copy_dtod(benchmark::State& state, void* to, const void* from, size_t bytes) const override {
    return copy(state, to, from, bytes);
  }
  // One region copy (32-bit pitches and sizes, which the benchmark's boxes fit).
  bool copy_2d_dtod(benchmark::State& state, void* to, size_t to_pitch, const void* from,
                    size_t from_pitch, size_t width, size_t height) const override {
    if (!copies_ && !stream_create(state, &copies_)) return false;
    const ze::ze_copy_region_t region{
        0, 0, 0, static_cast<uint32_t>(width), static_cast<uint32_t>(height), 1};
    return ze_ok(state,
                 fn_.zeCommandListAppendMemoryCopyRegion(
                     static_cast<Stream*>(copies_)->list, to, &region,
                     static_cast<uint32_t>(to_pitch), 0, from, &region,
                     static_cast<uint32_t>(from_pitch), 0, nullptr, 0, nullptr),
                 "zeCommandListAppendMemoryCopyRegion") &&
           stream_synchronize(state, copies_);
  }

 private:
  // Level Zero has one copy call for every direction: on a list of its own, waited for.
  bool copy(benchmark::State& state, void* to, const void* from, size_t bytes) const {
    if (!copies_ && !stream_create(state, &copies_)) return false;
    return ze_ok(state,
                 fn_.zeCommandListAppendMemoryCopy(static_cast<Stream*>(copies_)->list, to, from,
                                                   bytes, nullptr, 0, nullptr),
                 "zeCommandListAppendMemoryCopy") &&
           stream_synchronize(state, copies_);
  }

  const LevelZeroRuntime& r_;
  const ze::LevelZeroFunctions& fn_;
  // Made on the first copy and kept until exit, like the context (a static destructor could run
  // after the driver is gone).
  mutable void* copies_ = nullptr;
};

class LevelZero final : public anygpu_bench::Vendor {
 public:
  const char* prefix() const override { return "level_zero"; }
  // Skips with the setup failure, if any. Level Zero has no current device to set.
  const anygpu_bench::GpuApi* ready(benchmark::State& state,
                                    anygpu_bench::Side side) const override {
    const LevelZeroRuntime& r = level_zero_runtime();
    if (!r.error.empty()) {
      state.SkipWithError(r.error.c_str());
      return nullptr;
    }
    return anygpu_bench::side_api<DirectApi>(side, r);
  }
};

const bool registered = anygpu_bench::register_shared_benchmarks<LevelZero>(false, false);

}  // namespace

const LevelZeroRuntime& level_zero_runtime() {
  static const LevelZeroRuntime instance = initialise();
  return instance;
}

}  // namespace anygpu_level_zero_bench
