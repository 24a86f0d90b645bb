/*
 * cuda_test_driver_control.h: what a test can ask of anygpu's CUDA test driver (the libcuda.so.1
 * built in tests/drivers/cuda), beyond the CUDA Driver API it implements. Tests find these with
 * dlsym on the driver's handle, hence the pointer types.
 *
 * Environment, read when the driver is loaded:
 *   ANYGPU_CUDA_TEST_KERNELS         host code object whose kernels run what an image names
 *   ANYGPU_CUDA_TEST_SM              the devices' architecture, "sm_90" by default
 *   ANYGPU_CUDA_TEST_DEVICE_COUNT    0 to 64, 1 by default
 *   ANYGPU_CUDA_TEST_DRIVER_VERSION  cuDriverGetVersion, 12040 by default (11040: the old build)
 *   ANYGPU_CUDA_TEST_MISSING         base names cuGetProcAddress_v2 reports as not found:
 *                                    "cuMemAlloc,cuLaunchKernel"
 *   ANYGPU_CUDA_TEST_FAIL            name:code[:nth],...: the nth call (1st by default) of the
 *                                    function (versioned or base name) returns code (not 0)
 *   CUDA_MODULE_LOADING              LAZY (the default) or EAGER, as a real driver reads it:
 *                                    under LAZY a module's kernel loads at cuFuncLoad or its first
 *                                    launch, and that load first waits for the context's work
 */
#ifndef ANYGPU_CUDA_TEST_DRIVER_CONTROL_H
#define ANYGPU_CUDA_TEST_DRIVER_CONTROL_H

#ifdef __cplusplus
extern "C" {
#endif

/* The nth call of `function` (versioned or base name) from now, 1 being the next, returns
 * `result` without doing anything. 0, or -1 for an unknown name, nth < 1 or result 0. */
int anygpu_cuda_test_fail(const char* function, int result, int nth);
typedef int (*anygpu_cuda_test_fail_fn)(const char* function, int result, int nth);

/* Forgets every failure not yet returned, the environment's included. */
void anygpu_cuda_test_clear_failures(void);
typedef void (*anygpu_cuda_test_clear_failures_fn)(void);

/* Device and host allocations, streams and events, modules and libraries alive (primary-context
 * retains are not counted), so that a test shows that a failure leaked nothing. */
long anygpu_cuda_test_live_objects(void);
typedef long (*anygpu_cuda_test_live_objects_fn)(void);

/* How many times `function` (versioned or base name) was called, injected failures included;
 * -1 for an unknown name. */
long anygpu_cuda_test_calls(const char* function);
typedef long (*anygpu_cuda_test_calls_fn)(const char* function);

#ifdef __cplusplus
}
#endif

#endif /* ANYGPU_CUDA_TEST_DRIVER_CONTROL_H */
