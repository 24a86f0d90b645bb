// For check_spirv_hip_atomics.sh's own test: clang's __atomic builtins in the HIP-mode SPIR-V
// build leave a library call (__atomic_load_4) that the check must reject.
#define AG_DEVICE static inline __attribute__((device))
#include <anygpu/detail/atomics_gpu.h>

extern "C" __attribute__((global)) void spirv_hip_libcall(int* p) {
  p[1] = __atomic_load_n(p, __ATOMIC_RELAXED) + atomicAdd(p, 1);
}
