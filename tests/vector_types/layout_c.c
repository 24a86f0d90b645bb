/* anygpu/vector_types.h from C: every type's size, alignment and member offsets are CUDA's
 * (cuda_layouts.h), checked at compile time; make_* round trips checked when called. */
#include <anygpu/vector_types.h>
#include <assert.h>
#include <stddef.h>

#include "cuda_layouts.h"
#include "layout_c.h"

#define CHECK_LAYOUT(type, T, width, bytes, size, alignment)         \
  static_assert(sizeof(type) == (size), #type ": size");             \
  static_assert(_Alignof(type) == (alignment), #type ": alignment"); \
  static_assert(sizeof(T) == (bytes), #type ": element size");       \
  static_assert(CUDA_OFFSETS_OK_##width(type, bytes), #type ": member offsets");
CUDA_VECTOR_LAYOUTS(CHECK_LAYOUT)

static_assert(sizeof(dim3) == CUDA_DIM3_SIZE, "dim3: size");
static_assert(_Alignof(dim3) == CUDA_DIM3_ALIGNMENT, "dim3: alignment");
static_assert(offsetof(dim3, z) == 8, "dim3: member offsets");

int anygpu_vector_types_c_failures(void) {
  int failures = 0;
#define CHECK_MAKE(type, T, width, bytes, size, alignment)    \
  {                                                           \
    const type made = make_##type(CUDA_MAKE_ARGS_##width(T)); \
    failures += !CUDA_MADE_OK_##width(made, T);               \
  }
  CUDA_VECTOR_LAYOUTS(CHECK_MAKE)
#undef CHECK_MAKE
  {
    const dim3 d = {4, 5, 6};
    failures += !(d.x == 4 && d.y == 5 && d.z == 6);
  }
  return failures;
}

int anygpu_vector_types_c_count(void) {
  int count = 0;
#define COUNT(type, T, width, bytes, size, alignment) ++count;
  CUDA_VECTOR_LAYOUTS(COUNT)
#undef COUNT
  return count;
}
