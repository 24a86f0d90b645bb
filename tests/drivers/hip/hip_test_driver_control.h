/*
 * hip_test_driver_control.h: what a test can ask of anygpu's HIP test driver (the libamdhip64
 * built in tests/drivers/hip), beyond the HIP runtime API it implements. Tests find these with
 * dlsym on the driver's handle, hence the pointer types.
 *
 * Environment, read when the driver is loaded:
 *   ANYGPU_HIP_TEST_KERNELS          host code object whose kernels run what an image names
 *   ANYGPU_HIP_TEST_ARCH             the devices' gcnArchName, "gfx90a:sramecc+:xnack-" by default
 *   ANYGPU_HIP_TEST_DEVICE_COUNT     0 to 64, 1 by default
 *   ANYGPU_HIP_TEST_RUNTIME_VERSION  hipRuntimeGetVersion (and hipDriverGetVersion), HIP_VERSION
 *                                    encoding: 60200000 by default (50322000: the HIP 5 builds)
 *   ANYGPU_HIP_TEST_MISSING          names hipGetProcAddress reports as not found:
 *                                    "hipMalloc,hipModuleLaunchKernel"
 *   ANYGPU_HIP_TEST_FAIL             name:code[:nth],...: the nth call (1st by default) of the
 *                                    function returns code (not 0)
 */
#ifndef ANYGPU_HIP_TEST_DRIVER_CONTROL_H
#define ANYGPU_HIP_TEST_DRIVER_CONTROL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The nth call of `function` from now, 1 being the next, returns `result` without doing anything
 * (hipGetErrorName and hipGetErrorString return NULL). 0, or -1 for an unknown name, nth < 1 or
 * result 0. */
int anygpu_hip_test_fail(const char* function, int result, int nth);
typedef int (*anygpu_hip_test_fail_fn)(const char* function, int result, int nth);

/* Forgets every failure not yet returned, the environment's included. */
void anygpu_hip_test_clear_failures(void);
typedef void (*anygpu_hip_test_clear_failures_fn)(void);

/* Device and host allocations, streams, events and modules alive, so that a test shows that a
 * failure leaked nothing. */
long anygpu_hip_test_live_objects(void);
typedef long (*anygpu_hip_test_live_objects_fn)(void);

/* How many times `function` was called, injected failures included; -1 for an unknown name. */
long anygpu_hip_test_calls(const char* function);
typedef long (*anygpu_hip_test_calls_fn)(const char* function);

/* The code object the last successful hipModuleLoadData loaded: its target id ("gfx90a:xnack+",
 * features as its ELF header states them) copied into `target_id` (cut to `capacity` bytes, NUL
 * included; target_id may be NULL), whether it was taken from an offload bundle (`from_bundle`,
 * may be NULL), and its size in bytes as the return value; -1 before any load. */
long anygpu_hip_test_last_image(char* target_id, size_t capacity, int* from_bundle);
typedef long (*anygpu_hip_test_last_image_fn)(char* target_id, size_t capacity, int* from_bundle);

/* The device whose allocation (hipMalloc or hipHostMalloc) holds `pointer`; -1 for none. */
int anygpu_hip_test_device_of(const void* pointer);
typedef int (*anygpu_hip_test_device_of_fn)(const void* pointer);

#ifdef __cplusplus
}
#endif

#endif /* ANYGPU_HIP_TEST_DRIVER_CONTROL_H */
