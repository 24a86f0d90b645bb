/* kernel_assert.h — C's assert in kernels: a failed assertion stops the kernel, and the launch
 * fails (on the CPU device a fault the runtime reports as the launch's error, after the usual
 * message on stderr; on NVIDIA and AMD a trap). SPIR-V cannot stop a kernel: there the failure is
 * written where __anygpu_assert_report points (host memory the Level Zero backend gives each
 * module) and the work-item goes on; the backend reports the failed launch when it next waits.
 * It is the assert of <assert.h>, which calls __assert_fail; the kernel build gives that function
 * its kernel form. NDEBUG turns assert off, as in C. Included by cuda_syntax.h; do not include
 * directly. */
#ifndef ANYGPU_DETAIL_KERNEL_ASSERT_H
#define ANYGPU_DETAIL_KERNEL_ASSERT_H

#if !defined(AGK_OPENCL)
#include <assert.h>
#endif

/* Set by the Level Zero backend when it loads a module; defined on every target (and kept on the
 * host, where the test drivers look it up), used by SPIR-V only. */
#if defined(AGK_OPENCL)
inline global unsigned int* global __anygpu_assert_report = 0;
#elif defined(AGK_TARGET_GPU)
__device__ inline unsigned int* __anygpu_assert_report = nullptr;
#else
__device__ __attribute__((used)) inline unsigned int* __anygpu_assert_report = nullptr;
#endif

#if defined(AGK_OPENCL) || defined(AGK_SPIRV_HIP)
/* Keeps the first failure's line (0 never is one). Not noreturn, unlike the C library's
 * __assert_fail: the work-item continues after it. */
AG_DEVICE void __anygpu_spirv_assert_fail(unsigned int line) {
  if (__anygpu_assert_report) atomicCAS(__anygpu_assert_report, 0u, line ? line : 1u);
}
#if defined(AGK_OPENCL)
#define assert(e) ((e) ? (void)0 : __anygpu_spirv_assert_fail(__LINE__))
#else
/* <assert.h>'s assert calls __assert_fail by name; the name is replaced where the macro is used.
 * glibc declares __assert_fail once (_ASSERT_H_DECLS), which must not meet the macro. */
#define _ASSERT_H_DECLS
#define __assert_fail(assertion, file, line, function) __anygpu_spirv_assert_fail(line)
#endif
#elif !defined(AGK_TARGET_GPU)
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
#else
/* A device overload next to the C library's host declaration, as CUDA's own headers have. */
extern "C" __attribute__((device, noreturn, cold)) inline void __assert_fail(const char*,
                                                                             const char*,
                                                                             unsigned int,
                                                                             const char*) {
  __builtin_trap();
}
#endif

#endif /* ANYGPU_DETAIL_KERNEL_ASSERT_H */
