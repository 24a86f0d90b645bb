// The ported CUDA kernels on anygpu's CPU device, built from tests/cuda_sources/*.cu (image
// pass_bench_cuda_ports), with the barrier pass's loops or, with ANYGPU_CPU_WORKITEM_LOOPS=0 when
// the kernels are looked up, on fibers. Launched as the CUDA samples launch them; kernels by their
// mangled names, as tests/conformance/cuda_ports_test.cpp asks for them.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>

#include "anygpu_image_pass_bench_cuda_ports.h"
#include "cpu_pass_anygpu.h"
#include "cpu_pass_ports.h"

namespace cpu_pass_bench::ports {
namespace {

class CudaPortRunner : public Runner {
 public:
  CudaPortRunner(const std::string& workload, const Problem& problem, bool loops) {
    device_ = cpu_device();
    if (!device_) {
      error = "no anygpu CPU device";
      return;
    }
    if (agModuleLoadData(device_, anygpu_image_pass_bench_cuda_ports,
                         anygpu_image_pass_bench_cuda_ports_size, &module_) != AG_SUCCESS) {
      error = "cannot load the pass_bench_cuda_ports image";
      return;
    }
    // Read when a kernel is looked up: every launch() below looks its kernel up.
    setenv("ANYGPU_CPU_WORKITEM_LOOPS", loops ? "1" : "0", 1);
    setup(workload, problem);
    unsetenv("ANYGPU_CPU_WORKITEM_LOOPS");
  }
  ~CudaPortRunner() override {
    for (void* b : buffers_) agMemFree(device_, b);
    if (module_) agModuleUnload(module_);
  }

  void run() override {
    for (Launch& l : launches_)
      agLaunchKernel(l.function, l.grid[0], l.grid[1], 1, l.block[0], l.block[1], 1, l.shared,
                     nullptr, l.params.data(), nullptr);
    agDeviceSynchronize(device_);
    if (finish_) finish_();
  }
  std::vector<float> result() override { return result_(); }

 private:
  struct Launch {
    ag_function function;
    unsigned grid[2], block[2], shared;
    std::vector<void*> params;
  };

  template <typename T>
  void* buffer(const std::vector<T>& values) {
    void* b = nullptr;
    if (agMemAlloc(device_, values.size() * sizeof(T), &b) != AG_SUCCESS) {
      error = "agMemAlloc failed";
      return nullptr;
    }
    agMemcpyHtoD(device_, b, values.data(), values.size() * sizeof(T));
    buffers_.push_back(b);
    return b;
  }
  void* floats(size_t count) { return buffer(std::vector<float>(count)); }
  template <typename T>
  std::vector<T> download(const void* b, size_t count) const {
    std::vector<T> out(count);
    agMemcpyDtoH(device_, out.data(), b, count * sizeof(T));
    return out;
  }
  std::vector<float> download_floats(std::initializer_list<std::pair<const void*, size_t>> parts) {
    std::vector<float> out;
    for (const auto& [b, count] : parts) {
      const std::vector<float> part = download<float>(b, count);
      out.insert(out.end(), part.begin(), part.end());
    }
    return out;
  }
  // A kernel parameter's value, kept where the launches' parameter arrays point.
  template <typename T>
  void* arg(T value) {
    static_assert(sizeof(T) <= sizeof(uint64_t));
    uint64_t& slot = args_.emplace_back(0);
    memcpy(&slot, &value, sizeof value);
    return &slot;
  }
  void launch(const char* kernel, unsigned gx, unsigned gy, unsigned bx, unsigned by,
              unsigned shared, std::vector<void*> params) {
    ag_function f = nullptr;
    if (agModuleGetFunction(module_, kernel, &f) != AG_SUCCESS) {
      error = std::string("no kernel ") + kernel;
      return;
    }
    launches_.push_back({f, {gx, gy}, {bx, by}, shared, std::move(params)});
  }

  void setup(const std::string& workload, const Problem& p) {
    const unsigned n = (unsigned)p.n;
    if (workload == "reduction" || workload == "warp_reduction") {
      // Partial sums per block, added up by the host as there: through shared memory, or with
      // warp shuffles (warp_reduce.cu's cg_reduce, whose tiles' sums are static shared memory).
      void* in = buffer(whole_numbers(n, 1));
      void* partials = floats(kReduceGrid);
      if (workload == "reduction")
        launch("_Z16reduceGridStrideIfLj256EEvPKT_PS0_j", kReduceGrid, 1, kReduceBlock, 1,
               kReduceBlock * sizeof(float), {arg(in), arg(partials), arg(n)});
      else
        launch("_Z9cg_reduceIfEvPKT_PS0_j", kReduceGrid, 1, kReduceBlock, 1, 0,
               {arg(in), arg(partials), arg(n)});
      finish_ = [this, partials] {
        total_ = 0.0f;
        for (float partial : download<float>(partials, kReduceGrid)) total_ += partial;
      };
      result_ = [this] { return std::vector<float>{total_}; };
    } else if (workload == "matrix_mul") {  // n x n, n a multiple of the tile
      void* a = buffer(input((size_t)n * n, 1));
      void* b = buffer(input((size_t)n * n, 2));
      void* c = floats((size_t)n * n);
      launch("_Z13MatrixMulCUDAILi32EEvPfS0_S0_ii", n / kMatrixTile, n / kMatrixTile, kMatrixTile,
             kMatrixTile, 0, {arg(c), arg(a), arg(b), arg(p.n), arg(p.n)});
      result_ = [this, c, n] { return download<float>(c, (size_t)n * n); };
    } else if (workload == "transpose") {
      void* in = buffer(input((size_t)n * n, 1));
      void* out = floats((size_t)n * n);
      const unsigned tiles = (n + kTransposeTile - 1) / kTransposeTile;
      launch("_Z24transposeNoBankConflictsPfPKfii", tiles, tiles, kTransposeTile, kTransposeRows, 0,
             {arg(out), arg(in), arg(p.n), arg(p.n)});
      result_ = [this, out, n] { return download<float>(out, (size_t)n * n); };
    } else if (workload == "scan") {
      setup_scan(n);
    } else if (workload == "histogram256") {  // n words
      void* data = buffer(words(n, 1));
      void* partials = floats((size_t)kHistogramPartials * 256);
      void* histogram = floats(256);
      launch("_Z18histogram256KernelPjPKjj", kHistogramPartials, 1, kHistogramBlock, 1, 0,
             {arg(partials), arg(data), arg(n)});
      launch("_Z23mergeHistogram256KernelPjPKjj", 256, 1, 256, 1, 0,
             {arg(histogram), arg(partials), arg(kHistogramPartials)});
      result_ = [this, histogram] {
        const std::vector<uint32_t> counts = download<uint32_t>(histogram, 256);
        return std::vector<float>(counts.begin(), counts.end());
      };
    } else if (workload == "black_scholes") {
      const Options o = options(n);
      void* call = floats(n);
      void* put = floats(n);
      launch("_Z15BlackScholesGPUPfS_PKfS1_S1_ffi", kOptionsGrid, 1, kOptionsBlock, 1, 0,
             {arg(call), arg(put), arg(buffer(o.price)), arg(buffer(o.strike)),
              arg(buffer(o.years)), arg(kRiskfree), arg(kVolatility), arg(p.n)});
      result_ = [this, call, put, n] { return download_floats({{call, n}, {put, n}}); };
    } else if (workload == "layernorm_forward") {  // n rows of p.columns
      const Rows r = rows(p.n, p.columns);
      const size_t count = (size_t)n * p.columns;
      void* out = floats(count);
      void* mean = floats(n);
      void* rstd = floats(n);
      launch("_Z25layernorm_forward_kernel1PfS_S_PKfS1_S1_ii", (n + kRowBlock - 1) / kRowBlock, 1,
             kRowBlock, 1, 0,
             {arg(out), arg(mean), arg(rstd), arg(buffer(r.values)), arg(buffer(r.weight)),
              arg(buffer(r.bias)), arg(p.n), arg(p.columns)});
      result_ = [this, out, mean, rstd, count, n] {
        return download_floats({{out, count}, {mean, n}, {rstd, n}});
      };
    } else if (workload == "softmax_forward") {  // n rows of p.columns
      const size_t count = (size_t)n * p.columns;
      std::vector<float> values = input(count, 31);
      for (float& v : values) v *= 8.0f;
      void* in = buffer(values);
      void* out = floats(count);
      launch("_Z23softmax_forward_kernel1PfPKfii", (n + kRowBlock - 1) / kRowBlock, 1, kRowBlock, 1,
             0, {arg(out), arg(in), arg(p.n), arg(p.columns)});
      result_ = [this, out, count] { return download<float>(out, count); };
    } else if (workload == "nbody") {  // one integration step of n bodies, n a multiple of 256
      const Bodies b = bodies(n);
      void* new_position = floats(4 * (size_t)n);
      void* new_velocity = floats(4 * (size_t)n);
      launch(
          "_Z15integrateBodiesP6float4S0_PKS_S2_ffif", n / kBodyBlock, 1, kBodyBlock, 1,
          kBodyBlock * 4 * sizeof(float),
          {arg(new_position), arg(new_velocity), arg(buffer(b.position)), arg(buffer(b.velocity)),
           arg(kBodyStep), arg(kBodyDamping), arg((int)(n / kBodyBlock)), arg(kBodySoftening2)});
      result_ = [this, new_position, new_velocity, n] {
        return download_floats({{new_position, 4 * (size_t)n}, {new_velocity, 4 * (size_t)n}});
      };
    } else {
      error = "no workload " + workload;
    }
  }

  // An exclusive scan of n elements as GPU Gems 3's recursive prescan: each level scans blocks
  // of 2 * kScanBlock elements and writes their totals, which the next level scans; then each
  // level's scanned totals are added back to the level below.
  void setup_scan(unsigned n) {
    const std::vector<unsigned> levels = scan_levels(n);
    const unsigned shared = 2 * kScanBlock * sizeof(float);
    std::vector<void*> in = {buffer(whole_numbers(n, 1))}, out;
    for (unsigned count : levels) {
      const unsigned grid = (count + 2 * kScanBlock - 1) / (2 * kScanBlock);
      out.push_back(floats(count));
      in.push_back(floats(grid));  // this level's totals: the next level's input
      launch("_Z7prescanPfPKfS_i", grid, 1, kScanBlock, 1, shared,
             {arg(out.back()), arg(in[in.size() - 2]), arg(in.back()), arg((int)count)});
    }
    for (size_t level = levels.size() - 1; level-- > 0;)
      launch("_Z10uniformAddPfPKfi", (levels[level] + 2 * kScanBlock - 1) / (2 * kScanBlock), 1,
             kScanBlock, 1, 0, {arg(out[level]), arg(out[level + 1]), arg((int)levels[level])});
    result_ = [this, result = out[0], n] { return download<float>(result, n); };
  }

  ag_device device_ = nullptr;
  ag_module module_ = nullptr;
  std::vector<void*> buffers_;
  std::deque<uint64_t> args_;  // a deque: growing it moves no element
  std::vector<Launch> launches_;
  std::function<void()> finish_;  // after the launches, inside the timed run
  std::function<std::vector<float>()> result_;
  float total_ = 0.0f;
};

}  // namespace

std::unique_ptr<Runner> make_anygpu(const std::string& workload, const Problem& problem,
                                    bool loops) {
  return std::make_unique<CudaPortRunner>(workload, problem, loops);
}

}  // namespace cpu_pass_bench::ports
