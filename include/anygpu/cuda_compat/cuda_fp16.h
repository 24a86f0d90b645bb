/* cuda_fp16.h inside anygpu kernel builds: anygpu's CUDA kernel language (anygpu/cuda.h), which has
 * CUDA's 16-bit floating-point types (anygpu/half.h). Host programs include anygpu/half.h. */
#pragma once
#include <anygpu/cuda.h>
