// Source of the NVIDIA and AMD test inputs (see make_data.sh): two small kernels.
#ifndef __NVCC__
#define __global__ __attribute__((global))
#endif
extern "C" __global__ void scale(float* data, float factor) { data[0] *= factor; }
extern "C" __global__ void fill(int* out, int value, char tag) { out[0] = value + tag; }
