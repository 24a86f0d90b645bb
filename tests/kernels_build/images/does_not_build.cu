// A kernel source with an error, in an image no default target builds: the build of that image
// reports the error for every target at once (kernels.errors_reported_for_every_target).
#include <cuda_runtime.h>

__global__ void broken(float* y) {
  y[threadIdx.x] = not_declared_anywhere;
}
