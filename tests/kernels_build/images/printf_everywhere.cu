// A kernel that calls printf with no guard, in an image built only for the host and PTX
// (anygpu_add_kernels TARGETS host ptx), where anygpu builds printf; FLAGS defines PROBE_TAG for
// every compile of the image.
#include <cuda_runtime.h>

#ifndef PROBE_TAG
#error "anygpu_add_kernels FLAGS did not reach this compile"
#endif

__global__ void say(int value) {
  printf("tag %d, value %d\n", PROBE_TAG, value);
}
