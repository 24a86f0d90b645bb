// anygpu's CPU device running the pass_bench_kernels image, with the barrier pass's loops or,
// with ANYGPU_CPU_WORKITEM_LOOPS=0 when the kernel is looked up, on fibers.
#include <anygpu/anygpu.h>

#include <cstdlib>

#include "anygpu_image_pass_bench_kernels.h"
#include "cpu_pass_anygpu.h"
#include "cpu_pass_bench.h"

namespace cpu_pass_bench {

ag_device cpu_device() {
  static ag_device device = [] {
    ag_device found = nullptr;
    int count = 0;
    if (agDeviceGetCount(&count) != AG_SUCCESS) return found;
    for (int i = 0; i < count; ++i) {
      ag_device d = nullptr;
      ag_device_properties p{};
      p.struct_size = sizeof p;
      if (agDeviceGet(i, &d) == AG_SUCCESS && agDeviceGetProperties(d, &p) == AG_SUCCESS &&
          p.backend == AG_BACKEND_CPU)
        found = d;
    }
    return found;
  }();
  return device;
}

namespace {

class AnygpuRunner : public Runner {
 public:
  AnygpuRunner(const std::string& workload, const Problem& problem, bool loops) : p_(problem) {
    device_ = cpu_device();
    if (!device_) {
      error = "no anygpu CPU device";
      return;
    }
    setenv("ANYGPU_CPU_WORKITEM_LOOPS", loops ? "1" : "0", 1);
    if (agModuleLoadData(device_, anygpu_image_pass_bench_kernels,
                         anygpu_image_pass_bench_kernels_size, &module_) != AG_SUCCESS ||
        agModuleGetFunction(module_, workload.rfind("empty", 0) == 0 ? "empty" : workload.c_str(),
                            &function_) != AG_SUCCESS)
      error = "cannot load " + workload;
    unsetenv("ANYGPU_CPU_WORKITEM_LOOPS");
    if (error.empty()) setup(workload);
  }
  ~AnygpuRunner() override {
    for (void* b : buffers_) agMemFree(device_, b);
    if (stream_) agStreamDestroy(stream_);
    if (module_) agModuleUnload(module_);
  }

  void run() override {
    for (int i = 0; i < repeat_; ++i) {
      agLaunchKernel(function_, grid_[0], grid_[1], 1, block_[0], block_[1], 1, 0, stream_,
                     params_.data(), nullptr);
      if (stream_) agStreamSynchronize(stream_);  // launch latency: each launch waited for
    }
    agDeviceSynchronize(device_);
  }
  std::vector<float> result() override {
    std::vector<float> out(out_count_);
    if (out_count_) agMemcpyDtoH(device_, out.data(), out_, out_count_ * sizeof(float));
    return out;
  }

 private:
  void* buffer(const std::vector<float>& values) {
    void* b = nullptr;
    agMemAlloc(device_, values.size() * sizeof(float), &b);
    agMemcpyHtoD(device_, b, values.data(), values.size() * sizeof(float));
    buffers_.push_back(b);
    return b;
  }

  void setup(const std::string& workload) {
    const unsigned n = (unsigned)p_.n;
    if (workload == "saxpy") {
      a_ = 2.0f;
      x_ = buffer(input(n, 1));
      out_ = buffer(input(n, 2));
      params_ = {&p_.n, &a_, &x_, &out_};
      set_launch(n, 256, (n + 255) / 256, 1, 1);
    } else if (workload == "block_reduce") {
      x_ = buffer(input(n, 1));
      out_ = buffer(std::vector<float>((n + 255) / 256));
      params_ = {&p_.n, &x_, &out_};
      set_launch((n + 255) / 256, 256, (n + 255) / 256, 1, 1);
    } else if (workload == "sgemm_tiled") {
      x_ = buffer(input((size_t)n * n, 1));
      y_ = buffer(input((size_t)n * n, 2));
      out_ = buffer(std::vector<float>((size_t)n * n));
      params_ = {&p_.n, &p_.n, &p_.n, &x_, &y_, &out_};
      set_launch((size_t)n * n, 16, (n + 15) / 16, 16, (n + 15) / 16);
    } else if (workload == "transpose_shared") {
      x_ = buffer(input((size_t)n * n, 1));
      out_ = buffer(std::vector<float>((size_t)n * n));
      params_ = {&p_.n, &p_.n, &x_, &out_};
      set_launch((size_t)n * n, 32, (n + 31) / 32, 8, (n + 31) / 32);
    } else if (workload == "smooth_steps") {
      const unsigned blocks = (n + 255) / 256;
      std::vector<int> steps(blocks, p_.steps);
      void* s = nullptr;
      agMemAlloc(device_, blocks * sizeof(int), &s);
      agMemcpyHtoD(device_, s, steps.data(), blocks * sizeof(int));
      buffers_.push_back(s);
      steps_ = s;
      out_ = buffer(input(n, 3));
      params_ = {&p_.n, &steps_, &out_};
      set_launch(n, 256, blocks, 1, 1);
    } else {  // empty: many launches per run, each waited for, as PoCL's are: with the NULL
              // stream (agLaunchKernel returns when the kernel has run) or on a stream
      set_launch(0, 1, 1, 1, 1);
      repeat_ = p_.launches;
      if (workload == "empty_stream" && agStreamCreate(device_, 0, &stream_) != AG_SUCCESS)
        error = "agStreamCreate failed";
    }
  }

  void set_launch(size_t out_count, unsigned bx, unsigned gx, unsigned by, unsigned gy) {
    out_count_ = out_count;
    block_[0] = bx;
    block_[1] = by;
    grid_[0] = gx;
    grid_[1] = gy;
  }

  Problem p_;
  ag_device device_ = nullptr;
  ag_module module_ = nullptr;
  ag_function function_ = nullptr;
  ag_stream stream_ = nullptr;
  std::vector<void*> buffers_;
  std::vector<void*> params_;
  float a_ = 0;
  void *x_ = nullptr, *y_ = nullptr, *out_ = nullptr, *steps_ = nullptr;
  size_t out_count_ = 0;
  unsigned block_[2] = {1, 1}, grid_[2] = {1, 1};
  int repeat_ = 1;
};

}  // namespace

std::unique_ptr<Runner> make_anygpu(const std::string& workload, const Problem& problem,
                                    bool loops) {
  if (workload == "copy") return nullptr;  // the machine's bandwidth: OpenMP alone
  return std::make_unique<AnygpuRunner>(workload, problem, loops);
}

}  // namespace cpu_pass_bench
