/* cuda_runtime.h inside anygpu kernel builds: anygpu's CUDA kernel language (anygpu/cuda.h). The
 * host program of a port uses anygpu.h instead (docs/porting-from-cuda.md). */
#pragma once
#include <anygpu/cuda.h>
