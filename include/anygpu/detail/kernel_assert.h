/* kernel_assert.h — C's assert in kernels: a failed assertion stops the kernel, and the launch
 * fails (on the CPU device a fault the runtime reports as the launch's error, after the usual
 * message on stderr; on NVIDIA and AMD a trap). It is the assert of <assert.h>, which calls
 * __assert_fail; the kernel build gives that function its kernel form. NDEBUG turns assert off,
 * as in C. Included by cuda_syntax.h; do not include directly. */
#ifndef ANYGPU_DETAIL_KERNEL_ASSERT_H
#define ANYGPU_DETAIL_KERNEL_ASSERT_H

#if !defined(AGK_OPENCL)
#include <assert.h>
#endif

#if !defined(AGK_TARGET_GPU)
#include <stdio.h>
/* Defined in the host code object itself (hidden, as everything the build does not export), so
 * kernels reach this one, not the C library's, which would abort the whole program. */
extern "C" __attribute__((weak, noreturn, cold)) void __assert_fail(const char* assertion,
                                                                    const char* file,
                                                                    unsigned int line,
                                                                    const char* function) noexcept {
  fprintf(stderr, "%s:%u: %s: kernel assertion `%s' failed.\n", file, line, function, assertion);
  __builtin_trap();
}
#elif !defined(AGK_OPENCL)
/* A device overload next to the C library's host declaration, as CUDA's own headers have. */
extern "C" __attribute__((device, noreturn, cold)) inline void __assert_fail(const char*,
                                                                             const char*,
                                                                             unsigned int,
                                                                             const char*) {
  __builtin_trap();
}
#endif

#endif /* ANYGPU_DETAIL_KERNEL_ASSERT_H */
