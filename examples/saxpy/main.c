/* saxpy with the anygpu C API: y = a * x + y on device 0 (the best device present), every element
 * checked on the host. Prints the device, the size, the time and OK; exits non-zero otherwise.
 *   saxpy [elements]            (default 16 Mi) */
#include <anygpu/anygpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "anygpu_image_saxpy.h"

#define CHECK(call)                                              \
  do {                                                           \
    ag_result result_ = (call);                                  \
    if (result_ != AG_SUCCESS) {                                 \
      const char* detail_ = "";                                  \
      agGetLastErrorDetail(&detail_);                            \
      fprintf(stderr, "saxpy: %s failed: %s\n", #call, detail_); \
      return 1;                                                  \
    }                                                            \
  } while (0)

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 16 << 20;
  if (n <= 0) {
    fprintf(stderr, "usage: saxpy [elements > 0]\n");
    return 2;
  }
  const float a = 2.5f;
  const size_t bytes = (size_t)n * sizeof(float);
  float* x = malloc(bytes);
  float* y = malloc(bytes);
  if (!x || !y) return 1;
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 1000);
    y[i] = (float)(i % 7);
  }

  ag_device device;
  ag_device_properties props = {.struct_size = sizeof props};
  CHECK(agInit(0));
  CHECK(agDeviceGet(0, &device));
  CHECK(agDeviceGetProperties(device, &props));

  ag_module module;
  ag_function saxpy;
  CHECK(agModuleLoadData(device, anygpu_image_saxpy, anygpu_image_saxpy_size, &module));
  CHECK(agModuleGetFunction(module, "saxpy", &saxpy));

  void *dx, *dy;
  CHECK(agMemAlloc(device, bytes, &dx));
  CHECK(agMemAlloc(device, bytes, &dy));
  CHECK(agMemcpyHtoD(device, dx, x, bytes));
  CHECK(agMemcpyHtoD(device, dy, y, bytes));

  const unsigned block = 256, grid = (unsigned)((n + block - 1) / block);
  void* params[] = {&n, (void*)&a, &dx, &dy};
  const double start = now_ms();
  CHECK(agLaunchKernel(saxpy, grid, 1, 1, block, 1, 1, 0, NULL, params, NULL));
  const double elapsed = now_ms() - start;
  CHECK(agMemcpyDtoH(device, y, dy, bytes));

  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const float expected = a * (float)(i % 1000) + (float)(i % 7);
    if (y[i] != expected) {
      if (wrong < 5) fprintf(stderr, "saxpy: y[%d] = %g, expected %g\n", i, y[i], expected);
      ++wrong;
    }
  }
  printf("device %d: %s (%s)\nsaxpy of %d elements: %.3f ms, %.1f GB/s\n", 0, props.name,
         props.architecture, n, elapsed, 3.0 * bytes / (elapsed * 1e6));
  CHECK(agMemFree(device, dx));
  CHECK(agMemFree(device, dy));
  CHECK(agModuleUnload(module));
  free(x);
  free(y);
  if (wrong) {
    printf("FAILED: %d of %d elements wrong\n", wrong, n);
    return 1;
  }
  printf("OK\n");
  return 0;
}
