// Writes back every parameter it was given, to check how each kind of value is passed.
#include <anygpu/kernel.h>

#include "mixed_params.h"

AG_KERNEL(mixed_params, (char c, short s, int i, int64_t l, float f, double d,
                         AG_GLOBAL double* out, ag_pair16 pair)) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    out[0] = c;
    out[1] = s;
    out[2] = i;
    out[3] = (double)l;
    out[4] = f;
    out[5] = d;
    out[6] = (double)pair.first;
    out[7] = pair.second;
  }
}
