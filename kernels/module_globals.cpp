// Module-scope variables (CUDA's __constant__ and __device__ at file scope): the host reaches them
// with agModuleGetGlobal, writes the coefficients, offset and scale, and reads the counter back.
#include <anygpu/kernel.h>

// The variables' spelling on each target, until the dialect spells __device__ and __constant__
// itself. SPIR-V: program-scope __global variables (a __constant one would be read-only and need
// an initializer); the host build exports them (it hides everything else).
#if defined(AGK_OPENCL)
#define TEST_DEVICE_VAR __global
#define TEST_CONSTANT_VAR __global
#elif defined(AGK_TARGET_GPU)
#define TEST_DEVICE_VAR __attribute__((device))
#define TEST_CONSTANT_VAR __attribute__((constant))
#else
#define TEST_DEVICE_VAR __attribute__((visibility("default")))
#define TEST_CONSTANT_VAR __attribute__((visibility("default")))
#endif

TEST_CONSTANT_VAR float globals_coefficients[4];
TEST_DEVICE_VAR float globals_offset;
TEST_DEVICE_VAR unsigned int globals_counter;

// In a namespace: found by its mangled name, _ZN10globals_ns5scaleE.
namespace globals_ns {
TEST_DEVICE_VAR float scale;
}

// y[i] = scale * (c0 + c1 x + c2 x^2 + c3 x^3 + offset); counts the threads that wrote.
AG_KERNEL(globals_polynomial, (int n, AG_GLOBAL const float* x, AG_GLOBAL float* y)) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = x[i];
    const float* c = globals_coefficients;
    y[i] = globals_ns::scale * (c[0] + v * (c[1] + v * (c[2] + v * c[3])) + globals_offset);
    atomicAdd(&globals_counter, 1u);
  }
}
