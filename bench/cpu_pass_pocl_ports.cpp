// The ported CUDA kernels in OpenCL C (cpu_pass_pocl_port_kernels.h) on PoCL's CPU device, launched
// with the same grids and work-group shapes as the anygpu variants.
#include "cpu_pass_pocl.h"
#include "cpu_pass_ports.h"

#ifdef ANYGPU_BENCH_OPENCL
#include <functional>

namespace cpu_pass_bench::ports {
namespace {

class PoclPortRunner : public Runner {
 public:
  PoclPortRunner(const std::string& workload, const Problem& problem) {
    const Pocl& cl = pocl();
    if (!cl.error.empty()) {
      error = cl.error;
      return;
    }
    context_ = cl.context;
    queue_ = cl.queue;
    program_ = cl.program;
    setup(workload, problem);
  }
  ~PoclPortRunner() override {
    for (cl_mem b : buffers_) clReleaseMemObject(b);
    for (Launch& l : launches_) clReleaseKernel(l.kernel);
  }

  void run() override {
    for (Launch& l : launches_)
      clEnqueueNDRangeKernel(queue_, l.kernel, 2, nullptr, l.global, l.local, 0, nullptr, nullptr);
    clFinish(queue_);
    if (finish_) finish_();
  }
  std::vector<float> result() override { return result_(); }

 private:
  struct Launch {
    cl_kernel kernel;
    size_t global[2], local[2];
  };
  template <typename T>
  cl_mem buffer(const std::vector<T>& values) {
    cl_int status = CL_SUCCESS;
    cl_mem b = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              values.size() * sizeof(T), const_cast<T*>(values.data()), &status);
    if (status != CL_SUCCESS) error = "clCreateBuffer failed";
    buffers_.push_back(b);
    return b;
  }
  cl_mem floats(size_t count) { return buffer(std::vector<float>(count)); }
  template <typename T>
  std::vector<T> download(cl_mem b, size_t count) {
    std::vector<T> out(count);
    clEnqueueReadBuffer(queue_, b, CL_TRUE, 0, count * sizeof(T), out.data(), 0, nullptr, nullptr);
    return out;
  }
  std::vector<float> download_floats(std::initializer_list<std::pair<cl_mem, size_t>> parts) {
    std::vector<float> out;
    for (const auto& [b, count] : parts) {
      const std::vector<float> part = download<float>(b, count);
      out.insert(out.end(), part.begin(), part.end());
    }
    return out;
  }

  // One kernel object per launch, its arguments set once: the scan launches prescan with
  // different arguments at each level.
  template <typename... Args>
  void launch(const char* name, size_t gx, size_t gy, size_t bx, size_t by, const Args&... args) {
    cl_int status = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program_, name, &status);
    if (status != CL_SUCCESS) {
      error = std::string("no kernel ") + name;
      return;
    }
    cl_uint index = 0;
    (set_arg(kernel, index++, args), ...);
    launches_.push_back({kernel, {gx * bx, gy * by}, {bx, by}});
  }
  template <typename T>
  void set_arg(cl_kernel kernel, cl_uint index, const T& value) {
    if (clSetKernelArg(kernel, index, sizeof(T), &value) != CL_SUCCESS)
      error = "clSetKernelArg failed";
  }
  struct Local {
    size_t bytes;
  };
  void set_arg(cl_kernel kernel, cl_uint index, const Local& local) {
    if (clSetKernelArg(kernel, index, local.bytes, nullptr) != CL_SUCCESS)
      error = "clSetKernelArg failed";
  }

  void setup(const std::string& workload, const Problem& p) {
    const unsigned n = (unsigned)p.n;
    if (workload == "reduction") {
      cl_mem in = buffer(whole_numbers(n, 1));
      cl_mem partials = floats(kReduceGrid);
      launch("reduceGridStride", kReduceGrid, 1, kReduceBlock, 1, in, partials, n,
             Local{kReduceBlock * sizeof(float)});
      finish_ = [this, partials] {
        total_ = 0.0f;
        for (float partial : download<float>(partials, kReduceGrid)) total_ += partial;
      };
      result_ = [this] { return std::vector<float>{total_}; };
    } else if (workload == "matrix_mul") {
      cl_mem a = buffer(input((size_t)n * n, 1));
      cl_mem b = buffer(input((size_t)n * n, 2));
      cl_mem c = floats((size_t)n * n);
      launch("MatrixMulCUDA", n / kMatrixTile, n / kMatrixTile, kMatrixTile, kMatrixTile, c, a, b,
             p.n, p.n);
      result_ = [this, c, n] { return download<float>(c, (size_t)n * n); };
    } else if (workload == "transpose") {
      cl_mem in = buffer(input((size_t)n * n, 1));
      cl_mem out = floats((size_t)n * n);
      const unsigned tiles = (n + kTransposeTile - 1) / kTransposeTile;
      launch("transposeNoBankConflicts", tiles, tiles, kTransposeTile, kTransposeRows, out, in, p.n,
             p.n);
      result_ = [this, out, n] { return download<float>(out, (size_t)n * n); };
    } else if (workload == "scan") {
      setup_scan(n);
    } else if (workload == "histogram256") {
      cl_mem data = buffer(words(n, 1));
      cl_mem partials = floats((size_t)kHistogramPartials * 256);
      cl_mem histogram = floats(256);
      launch("histogram256Kernel", kHistogramPartials, 1, kHistogramBlock, 1, partials, data, n);
      launch("mergeHistogram256Kernel", 256, 1, 256, 1, histogram, partials, kHistogramPartials);
      result_ = [this, histogram] {
        const std::vector<uint32_t> counts = download<uint32_t>(histogram, 256);
        return std::vector<float>(counts.begin(), counts.end());
      };
    } else if (workload == "black_scholes") {
      const Options o = options(n);
      cl_mem call = floats(n), put = floats(n);
      launch("BlackScholesGPU", kOptionsGrid, 1, kOptionsBlock, 1, call, put, buffer(o.price),
             buffer(o.strike), buffer(o.years), kRiskfree, kVolatility, p.n);
      result_ = [this, call, put, n] { return download_floats({{call, n}, {put, n}}); };
    } else if (workload == "layernorm_forward") {
      const Rows r = rows(p.n, p.columns);
      const size_t count = (size_t)n * p.columns;
      cl_mem out = floats(count), mean = floats(n), rstd = floats(n);
      launch("layernorm_forward_kernel1", (n + kRowBlock - 1) / kRowBlock, 1, kRowBlock, 1, out,
             mean, rstd, buffer(r.values), buffer(r.weight), buffer(r.bias), p.n, p.columns);
      result_ = [this, out, mean, rstd, count, n] {
        return download_floats({{out, count}, {mean, n}, {rstd, n}});
      };
    } else if (workload == "softmax_forward") {
      const size_t count = (size_t)n * p.columns;
      std::vector<float> values = input(count, 31);
      for (float& v : values) v *= 8.0f;
      cl_mem in = buffer(values), out = floats(count);
      launch("softmax_forward_kernel1", (n + kRowBlock - 1) / kRowBlock, 1, kRowBlock, 1, out, in,
             p.n, p.columns);
      result_ = [this, out, count] { return download<float>(out, count); };
    } else if (workload == "nbody") {
      const Bodies b = bodies(n);
      cl_mem new_position = floats(4 * (size_t)n), new_velocity = floats(4 * (size_t)n);
      launch("integrateBodies", n / kBodyBlock, 1, kBodyBlock, 1, new_position, new_velocity,
             buffer(b.position), buffer(b.velocity), kBodyStep, kBodyDamping, (int)(n / kBodyBlock),
             kBodySoftening2, Local{kBodyBlock * 4 * sizeof(float)});
      result_ = [this, new_position, new_velocity, n] {
        return download_floats({{new_position, 4 * (size_t)n}, {new_velocity, 4 * (size_t)n}});
      };
    } else if (workload == "warp_reduction") {
      error = "no OpenCL twin yet (a sub-group reduction needs cl_khr_subgroups)";
    } else {
      error = "no workload " + workload;
    }
  }

  // As the anygpu variant: each level's block totals scanned by the next, then added back.
  void setup_scan(unsigned n) {
    const std::vector<unsigned> levels = scan_levels(n);
    std::vector<cl_mem> in = {buffer(whole_numbers(n, 1))}, out;
    for (unsigned count : levels) {
      const unsigned grid = (count + 2 * kScanBlock - 1) / (2 * kScanBlock);
      out.push_back(floats(count));
      in.push_back(floats(grid));
      launch("prescan", grid, 1, kScanBlock, 1, out.back(), in[in.size() - 2], in.back(),
             (int)count, Local{2 * kScanBlock * sizeof(float)});
    }
    for (size_t level = levels.size() - 1; level-- > 0;)
      launch("uniformAdd", (levels[level] + 2 * kScanBlock - 1) / (2 * kScanBlock), 1, kScanBlock,
             1, out[level], out[level + 1], (int)levels[level]);
    result_ = [this, result = out[0], n] { return download<float>(result, n); };
  }

  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
  std::vector<cl_mem> buffers_;
  std::vector<Launch> launches_;
  std::function<void()> finish_;
  std::function<std::vector<float>()> result_;
  float total_ = 0.0f;
};

}  // namespace

std::unique_ptr<Runner> make_pocl(const std::string& workload, const Problem& problem) {
  return std::make_unique<PoclPortRunner>(workload, problem);
}

}  // namespace cpu_pass_bench::ports

#else

namespace cpu_pass_bench::ports {
namespace {
struct Missing : Runner {
  Missing() { error = "built without the OpenCL ICD loader (install ocl-icd-opencl-dev)"; }
  void run() override {}
  std::vector<float> result() override { return {}; }
};
}  // namespace
std::unique_ptr<Runner> make_pocl(const std::string&, const Problem&) {
  return std::make_unique<Missing>();
}
}  // namespace cpu_pass_bench::ports

#endif
