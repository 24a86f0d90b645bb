// PoCL through the OpenCL ICD loader (libOpenCL, linked by this program only): the OpenCL C
// versions of the kernels, with the same work-group (block) shapes, on PoCL's CPU device.
#include "cpu_pass_bench.h"

#include "cpu_pass_pocl.h"

#ifdef ANYGPU_BENCH_OPENCL
#include <cstring>

#include "cpu_pass_pocl_kernels.h"
#include "cpu_pass_pocl_port_kernels.h"

namespace cpu_pass_bench {

const Pocl& pocl() {
  static Pocl p = [] {
    Pocl made;
    cl_uint count = 0;
    cl_platform_id platforms[8];
    if (clGetPlatformIDs(8, platforms, &count) != CL_SUCCESS || count == 0) {
      made.error = "no OpenCL platform (install pocl-opencl-icd)";
      return made;
    }
    cl_device_id device = nullptr;
    for (cl_uint i = 0; i < count && !device; ++i) {
      char name[256] = {};
      clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, nullptr);
      if (strstr(name, "Portable Computing Language"))
        clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_CPU, 1, &device, nullptr);
    }
    if (!device) {
      made.error = "no PoCL CPU device among the OpenCL platforms";
      return made;
    }
    cl_int status = CL_SUCCESS;
    made.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    made.queue = clCreateCommandQueue(made.context, device, 0, &status);
    const char* sources[] = {kOpenclSource, ports::kOpenclPortSource};
    made.program = clCreateProgramWithSource(made.context, 2, sources, nullptr, &status);
    if (clBuildProgram(made.program, 1, &device, "-cl-std=CL1.2", nullptr, nullptr) != CL_SUCCESS) {
      char log[4096] = {};
      clGetProgramBuildInfo(made.program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, nullptr);
      made.error = std::string("PoCL cannot build the kernels: ") + log;
    }
    return made;
  }();
  return p;
}

namespace {

class PoclRunner : public Runner {
 public:
  PoclRunner(const std::string& workload, const Problem& problem) : p_(problem) {
    const Pocl& cl = pocl();
    if (!cl.error.empty()) {
      error = cl.error;
      return;
    }
    queue_ = cl.queue;
    cl_int status = CL_SUCCESS;
    kernel_ = clCreateKernel(cl.program,
                             workload.rfind("empty", 0) == 0 ? "empty" : workload.c_str(), &status);
    if (status != CL_SUCCESS) {
      error = "no kernel " + workload;
      return;
    }
    setup(workload, cl.context);
  }
  ~PoclRunner() override {
    for (cl_mem b : buffers_) clReleaseMemObject(b);
    if (kernel_) clReleaseKernel(kernel_);
  }

  void run() override {
    for (int i = 0; i < repeat_; ++i) {
      clEnqueueNDRangeKernel(queue_, kernel_, 2, nullptr, global_, local_, 0, nullptr, nullptr);
      if (repeat_ > 1) clFinish(queue_);  // launch latency: each launch waited for
    }
    clFinish(queue_);
  }
  std::vector<float> result() override {
    std::vector<float> out(out_count_);
    if (out_count_)
      clEnqueueReadBuffer(queue_, out_, CL_TRUE, 0, out_count_ * sizeof(float), out.data(), 0,
                          nullptr, nullptr);
    return out;
  }

 private:
  cl_mem buffer(cl_context context, const void* data, size_t bytes) {
    cl_int status = CL_SUCCESS;
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                              const_cast<void*>(data), &status);
    buffers_.push_back(b);
    return b;
  }
  cl_mem floats(cl_context context, const std::vector<float>& values) {
    return buffer(context, values.data(), values.size() * sizeof(float));
  }
  template <typename T>
  void arg(cl_uint index, const T& value) {
    clSetKernelArg(kernel_, index, sizeof(T), &value);
  }
  void shape(size_t out_count, size_t bx, size_t gx, size_t by, size_t gy) {
    out_count_ = out_count;
    local_[0] = bx;
    local_[1] = by;
    global_[0] = bx * gx;
    global_[1] = by * gy;
  }

  void setup(const std::string& workload, cl_context context) {
    const int n = p_.n;
    if (workload == "saxpy") {
      cl_mem x = floats(context, input(n, 1));
      out_ = floats(context, input(n, 2));
      arg(0, n), arg(1, 2.0f), arg(2, x), arg(3, out_);
      shape(n, 256, (n + 255) / 256, 1, 1);
    } else if (workload == "block_reduce") {
      cl_mem x = floats(context, input(n, 1));
      out_ = floats(context, std::vector<float>((n + 255) / 256));
      arg(0, n), arg(1, x), arg(2, out_);
      shape((n + 255) / 256, 256, (n + 255) / 256, 1, 1);
    } else if (workload == "sgemm_tiled") {
      cl_mem a = floats(context, input((size_t)n * n, 1));
      cl_mem b = floats(context, input((size_t)n * n, 2));
      out_ = floats(context, std::vector<float>((size_t)n * n));
      arg(0, n), arg(1, n), arg(2, n), arg(3, a), arg(4, b), arg(5, out_);
      shape((size_t)n * n, 16, (n + 15) / 16, 16, (n + 15) / 16);
    } else if (workload == "transpose_shared") {
      cl_mem x = floats(context, input((size_t)n * n, 1));
      out_ = floats(context, std::vector<float>((size_t)n * n));
      arg(0, n), arg(1, n), arg(2, x), arg(3, out_);
      shape((size_t)n * n, 32, (n + 31) / 32, 8, (n + 31) / 32);
    } else if (workload == "smooth_steps") {
      const int blocks = (n + 255) / 256;
      std::vector<int> steps(blocks, p_.steps);
      cl_mem s = buffer(context, steps.data(), steps.size() * sizeof(int));
      out_ = floats(context, input(n, 3));
      arg(0, n), arg(1, s), arg(2, out_);
      shape(n, 256, blocks, 1, 1);
    } else {
      shape(0, 1, 1, 1, 1);
      repeat_ = p_.launches;
    }
  }

  Problem p_;
  cl_command_queue queue_ = nullptr;
  cl_kernel kernel_ = nullptr;
  std::vector<cl_mem> buffers_;
  cl_mem out_ = nullptr;
  size_t out_count_ = 0;
  size_t global_[2] = {1, 1}, local_[2] = {1, 1};
  int repeat_ = 1;
};

}  // namespace

std::unique_ptr<Runner> make_pocl(const std::string& workload, const Problem& problem, int) {
  if (workload == "copy") return nullptr;  // the machine's bandwidth: OpenMP alone
  return std::make_unique<PoclRunner>(workload, problem);
}

}  // namespace cpu_pass_bench

#else

namespace cpu_pass_bench {
namespace {
struct Missing : Runner {
  Missing() { error = "built without the OpenCL ICD loader (install ocl-icd-opencl-dev)"; }
  void run() override {}
  std::vector<float> result() override { return {}; }
};
}  // namespace
std::unique_ptr<Runner> make_pocl(const std::string& workload, const Problem&, int) {
  if (workload == "copy") return nullptr;  // the machine's bandwidth: OpenMP alone
  return std::make_unique<Missing>();
}
}  // namespace cpu_pass_bench

#endif
