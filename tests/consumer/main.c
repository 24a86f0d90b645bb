/* The consumer: runs its own kernels (scale.cpp in the AG_KERNEL dialect, then shift.cu in CUDA
 * source, embedded by anygpu_add_kernels) on device 0 through the installed anygpu's C ABI and
 * checks every element. Prints the device and OK; exits
 * non-zero on any error or wrong element. ANYGPU_BACKENDS=cpu picks the CPU device. */
#include <anygpu/anygpu.h>
#include <stdio.h>
#include <stdlib.h>

#include "anygpu_image_consumer_kernels.h"

#define CHECK(call)                                                 \
  do {                                                              \
    ag_result result_ = (call);                                     \
    if (result_ != AG_SUCCESS) {                                    \
      const char* detail_ = "";                                     \
      agGetLastErrorDetail(&detail_);                               \
      fprintf(stderr, "consumer: %s failed: %s\n", #call, detail_); \
      return 1;                                                     \
    }                                                               \
  } while (0)

int main(void) {
  int n = 100003; /* not a multiple of the block size */
  float a = 1.5f, offset = -3.0f, by = 0.5f;
  const size_t bytes = (size_t)n * sizeof(float);
  float* x = malloc(bytes);
  float* y = malloc(bytes);
  if (!x || !y) return 1;
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 1024) * 0.25f;
    y[i] = -1.0f;
  }

  int version = 0;
  ag_device device;
  ag_device_properties props = {.struct_size = sizeof props};
  CHECK(agGetVersion(&version));
  CHECK(agDeviceGet(0, &device));
  CHECK(agDeviceGetProperties(device, &props));
  printf("anygpu %d, device 0: %s (%s)\n", version, props.name, props.architecture);

  ag_module module;
  ag_function scale, shift;
  CHECK(agModuleLoadData(device, anygpu_image_consumer_kernels, anygpu_image_consumer_kernels_size,
                         &module));
  CHECK(agModuleGetFunction(module, "scale", &scale));
  CHECK(agModuleGetFunction(module, "shift<float>", &shift)); /* a template instance */
  void *dx, *dy;
  CHECK(agMemAlloc(device, bytes, &dx));
  CHECK(agMemAlloc(device, bytes, &dy));
  CHECK(agMemcpyHtoD(device, dx, x, bytes));
  CHECK(agMemcpyHtoD(device, dy, y, bytes));
  const unsigned block = 128, grid = (unsigned)((n + block - 1) / block);
  void* params[] = {&n, &a, &offset, &dx, &dy};
  CHECK(agLaunchKernel(scale, grid, 1, 1, block, 1, 1, 0, NULL, params, NULL));
  void* shift_params[] = {&n, &by, &dy};
  CHECK(agLaunchKernel(shift, grid, 1, 1, block, 1, 1, 0, NULL, shift_params, NULL));
  CHECK(agMemcpyDtoH(device, y, dy, bytes));
  CHECK(agMemFree(device, dx));
  CHECK(agMemFree(device, dy));
  CHECK(agModuleUnload(module));

  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const float expected = a * ((float)(i % 1024) * 0.25f) + offset + by;
    if (y[i] != expected) {
      if (wrong < 5) fprintf(stderr, "consumer: y[%d] = %g, expected %g\n", i, y[i], expected);
      ++wrong;
    }
  }
  free(x);
  free(y);
  if (wrong) {
    printf("FAILED: %d of %d elements wrong\n", wrong, n);
    return 1;
  }
  printf("scale and shift of %d elements: OK\n", n);
  return 0;
}
