#include "bench_support.h"

#include <omp.h>

#include <cstdlib>
#include <cstring>

#include "anygpu_image_bench_kernels.h"

namespace anygpu_bench {
namespace {

constexpr size_t kHostAlignment = 256;  // as the CPU backend aligns agMemAlloc

std::string describe_failure(ag_result result, const char* what) {
  const char* name = "";
  const char* detail = "";
  agGetErrorName(result, &name);
  agGetLastErrorDetail(&detail);
  return std::string(what) + ": " + name + " " + detail;
}

Runtime initialise() {
  Runtime r;
  int count = 0;
  ag_result result = agInit(0);
  if (result == AG_SUCCESS) result = agDeviceGetCount(&count);
  if (result != AG_SUCCESS) {
    r.error = describe_failure(result, "agInit");
    return r;
  }
  for (int i = 0; i < count && !r.device; ++i) {
    ag_device device = nullptr;
    ag_device_properties properties{};
    properties.struct_size = sizeof properties;
    if (agDeviceGet(i, &device) != AG_SUCCESS ||
        agDeviceGetProperties(device, &properties) != AG_SUCCESS)
      continue;
    if (properties.backend != AG_BACKEND_CPU) continue;
    r.device = device;
    r.properties = properties;
  }
  if (!r.device) {
    r.error = "no CPU device";
    return r;
  }
  result = agModuleLoadData(r.device, anygpu_image_bench_kernels, anygpu_image_bench_kernels_size,
                            &r.module);
  if (result != AG_SUCCESS) r.error = describe_failure(result, "agModuleLoadData");
  omp_set_num_threads(r.properties.compute_units);
  return r;
}

}  // namespace

const Runtime& runtime() {
  static const Runtime instance = initialise();
  return instance;
}

int openmp_threads() {
  const int units = runtime().properties.compute_units;
  return units > 0 ? units : omp_get_max_threads();
}

bool succeeded(benchmark::State& state, ag_result result, const char* what) {
  if (result == AG_SUCCESS) return true;
  state.SkipWithError(describe_failure(result, what).c_str());
  return false;
}

ag_stream runtime_stream(benchmark::State& state) {
  const Runtime& r = runtime();
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
    return nullptr;
  }
  ag_stream stream = nullptr;
  if (!succeeded(state, agStreamCreate(r.device, 0, &stream), "agStreamCreate")) return nullptr;
  return stream;
}

ag_function find_kernel(benchmark::State& state, const char* name) {
  const Runtime& r = runtime();
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
    return nullptr;
  }
  ag_function function = nullptr;
  if (!succeeded(state, agModuleGetFunction(r.module, name, &function), name)) return nullptr;
  return function;
}

Buffer::Buffer(benchmark::State& state, Memory memory, size_t count)
    : state_(state), memory_(memory), count_(count) {
  const size_t bytes = count * sizeof(float);
  if (memory_ == Memory::host) {
    const size_t rounded = (bytes + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
    data_ = static_cast<float*>(std::aligned_alloc(kHostAlignment, rounded));
    if (!data_) state_.SkipWithError("cannot allocate host memory");
    return;
  }
  const Runtime& r = runtime();
  if (!r.error.empty()) {
    state_.SkipWithError(r.error.c_str());
    return;
  }
  void* pointer = nullptr;
  if (succeeded(state_, agMemAlloc(r.device, bytes, &pointer), "agMemAlloc"))
    data_ = static_cast<float*>(pointer);
}

Buffer::~Buffer() {
  if (!data_) return;
  if (memory_ == Memory::host)
    std::free(data_);
  else
    agMemFree(runtime().device, data_);
}

bool Buffer::upload(const std::vector<float>& values) {
  const size_t bytes = values.size() * sizeof(float);
  if (memory_ == Memory::host) {
    std::memcpy(data_, values.data(), bytes);
    return true;
  }
  return succeeded(state_, agMemcpyHtoD(runtime().device, data_, values.data(), bytes),
                   "agMemcpyHtoD");
}

bool Buffer::download(size_t first, size_t count, float* out) {
  const size_t bytes = count * sizeof(float);
  if (memory_ == Memory::host) {
    std::memcpy(out, data_ + first, bytes);
    return true;
  }
  return succeeded(state_, agMemcpyDtoH(runtime().device, out, data_ + first, bytes),
                   "agMemcpyDtoH");
}

std::vector<size_t> sample_indices(size_t n, size_t count) {
  std::vector<size_t> indices;
  if (n == 0) return indices;
  indices.reserve(count);
  for (size_t k = 0; k < count; ++k) {
    const size_t spread = count > 1 ? k * (n - 1) / (count - 1) : 0;
    const size_t jitter = (k * 37) % 256;  // different positions within a block of 256
    indices.push_back(k + 1 == count ? n - 1 : (spread + jitter) % n);
  }
  return indices;
}

}  // namespace anygpu_bench
