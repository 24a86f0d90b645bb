// anygpu/vector_types.h from C++: CUDA's size, alignment and member offsets for every type
// (cuda_layouts.h), types a kernel can take by value, constexpr make_* round trips, dim3 as CUDA's,
// and the dialect's index type converting to uint3 and dim3 but to nothing else. layout_c.c checks
// the same layouts from C.
#include <anygpu/kernel_host_abi.h>
#include <anygpu/vector_types.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <type_traits>

#include "cuda_layouts.h"
#include "layout_c.h"

namespace {

#define CHECK_LAYOUT(type, T, width, bytes, size, alignment)                            \
  static_assert(sizeof(type) == (size), #type ": size");                                \
  static_assert(alignof(type) == (alignment), #type ": alignment");                     \
  static_assert(sizeof(T) == (bytes), #type ": element size");                          \
  static_assert(CUDA_OFFSETS_OK_##width(type, bytes), #type ": member offsets");        \
  static_assert(std::is_trivially_copyable<type>::value, #type ": trivially copyable"); \
  static_assert(std::is_standard_layout<type>::value, #type ": standard layout");       \
  static_assert(std::is_aggregate<type>::value, #type ": an aggregate, as in CUDA");    \
  static_assert(CUDA_MADE_OK_##width(make_##type(CUDA_MAKE_ARGS_##width(T)), T),        \
                "make_" #type ": members at compile time");
CUDA_VECTOR_LAYOUTS(CHECK_LAYOUT)
#undef CHECK_LAYOUT

static_assert(sizeof(dim3) == CUDA_DIM3_SIZE && alignof(dim3) == CUDA_DIM3_ALIGNMENT, "dim3");
static_assert(offsetof(dim3, x) == 0 && offsetof(dim3, y) == 4 && offsetof(dim3, z) == 8, "dim3");
static_assert(std::is_trivially_copyable<dim3>::value, "dim3 is a kernel argument");

// The dialect's threadIdx (agk_dim3): `uint3 t = threadIdx;` and `dim3 b = blockDim;` as in CUDA,
// and no conversion CUDA would refuse.
static_assert(std::is_convertible<agk_dim3, uint3>::value, "agk_dim3 to uint3");
static_assert(std::is_convertible<agk_dim3, dim3>::value, "agk_dim3 to dim3");
static_assert(!std::is_convertible<agk_dim3, int3>::value, "agk_dim3 to int3");
static_assert(!std::is_convertible<agk_dim3, float3>::value, "agk_dim3 to float3");
static_assert(!std::is_convertible<agk_dim3, uint4>::value, "agk_dim3 to uint4");
static_assert(!std::is_convertible<agk_dim3, ulonglong3>::value, "agk_dim3 to ulonglong3");
static_assert(!std::is_convertible<agk_dim3, unsigned>::value, "agk_dim3 to unsigned");
static_assert(!std::is_convertible<agk_dim3, bool>::value, "agk_dim3 to bool");
static_assert(std::is_aggregate<agk_dim3>::value && std::is_trivially_copyable<agk_dim3>::value,
              "agk_dim3 stays a plain C struct");

TEST(VectorTypes, MakeRoundTripsAtRunTime) {
  int checked = 0;
#define CHECK_MAKE(type, T, width, bytes, size, alignment)        \
  {                                                               \
    volatile T first = (T)11;                                     \
    type made = make_##type(CUDA_MAKE_ARGS_##width(T));           \
    made.x = first; /* not folded: the stored value reads back */ \
    EXPECT_TRUE(CUDA_MADE_OK_##width(made, T)) << "make_" #type;  \
    ++checked;                                                    \
  }
  CUDA_VECTOR_LAYOUTS(CHECK_MAKE)
#undef CHECK_MAKE
  EXPECT_EQ(58, checked);
}

TEST(VectorTypes, TheSameFromC) {
  EXPECT_EQ(0, anygpu_vector_types_c_failures());
  EXPECT_EQ(58, anygpu_vector_types_c_count());
}

TEST(VectorTypes, Dim3AsCuda) {
  const dim3 whole;
  EXPECT_EQ(1u, whole.x);
  EXPECT_EQ(1u, whole.y);
  EXPECT_EQ(1u, whole.z);
  const dim3 row(256);
  EXPECT_EQ(256u, row.x);
  EXPECT_EQ(1u, row.y);
  EXPECT_EQ(1u, row.z);
  const dim3 plane(8, 4);
  EXPECT_EQ(4u, plane.y);
  EXPECT_EQ(1u, plane.z);
  const dim3 from_uint3 = make_uint3(5, 6, 7);
  const uint3 back = from_uint3;
  EXPECT_EQ(5u, back.x);
  EXPECT_EQ(6u, back.y);
  EXPECT_EQ(7u, back.z);
}

TEST(VectorTypes, DialectIndicesConvertToUint3AndDim3) {
  const agk_dim3 index = {3, 4, 5};
  const uint3 thread = index;
  const dim3 block = index;
  const dim3 direct(index);
  EXPECT_EQ(3u, thread.x);
  EXPECT_EQ(4u, thread.y);
  EXPECT_EQ(5u, thread.z);
  EXPECT_EQ(5u, block.z);
  EXPECT_EQ(4u, direct.y);
}

}  // namespace
