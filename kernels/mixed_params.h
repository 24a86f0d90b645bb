// The 16-byte struct passed by value to mixed_params.
#ifndef ANYGPU_KERNELS_MIXED_PARAMS_H
#define ANYGPU_KERNELS_MIXED_PARAMS_H
#include <stdint.h>

typedef struct ag_pair16 {
  int64_t first;
  double second;
} ag_pair16;

#endif
