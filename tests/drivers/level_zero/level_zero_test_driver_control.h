/* Control functions of anygpu's Level Zero test driver (libze_anygpu_test.so), for tests that
 * reach it with dlsym. Functions are named as the Level Zero API names them ("zeMemAllocDevice");
 * results are ze_result_t values. */
#ifndef ANYGPU_LEVEL_ZERO_TEST_DRIVER_CONTROL_H
#define ANYGPU_LEVEL_ZERO_TEST_DRIVER_CONTROL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The `nth` call of `function` from now (1: the next) returns `result` and does nothing else.
 * 0 on success, -1 for an unknown function, nth < 1 or result 0. */
int anygpu_l0_test_fail(const char* function, uint32_t result, int nth);
/* Forgets the failures not yet returned. */
void anygpu_l0_test_clear_failures(void);
/* How many times `function` was called; -1 for an unknown function. */
long anygpu_l0_test_calls(const char* function);
/* Objects the driver holds now: allocations, command lists, event pools, events, modules, build
 * logs, kernels and contexts. */
long anygpu_l0_test_live_objects(void);

typedef int (*anygpu_l0_test_fail_fn)(const char*, uint32_t, int);
typedef void (*anygpu_l0_test_clear_failures_fn)(void);
typedef long (*anygpu_l0_test_calls_fn)(const char*);
typedef long (*anygpu_l0_test_live_objects_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
