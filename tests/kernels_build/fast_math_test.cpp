// The FAST_MATH image (images/fast_math.cu, fast_math_dialect.cpp) on every device: each float
// function within the bound CUDA documents for the intrinsic FAST_MATH maps it to (CUDA C++
// Programming Guide, intrinsic functions), each double function as accurate as without FAST_MATH (2
// ulp, libdevice's largest). On the CPU device the float forms are libm's, well within those
// bounds; on a GPU the bounds are the intrinsics' own. check_math_instructions.sh fast-ptx reads
// the PTX.
#include <math.h>

#include <cstring>
#include <functional>

#include "anygpu_image_fast_math.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

// The distance of `result` from `reference` in units of the float spacing at `reference`.
double float_ulps(float result, double reference) {
  const float rounded = static_cast<float>(fabs(reference));
  const double spacing = static_cast<double>(nextafterf(rounded, INFINITY)) - rounded;
  return fabs(static_cast<double>(result) - reference) / spacing;
}

double double_ulps(double result, double reference) {
  const double spacing = nextafter(fabs(reference), INFINITY) - fabs(reference);
  return fabs(result - reference) / spacing;
}

// Whether a float result meets the intrinsic's bound at x.
using Bound = std::function<bool(float x, float result, double reference)>;

struct Case {
  const char* kernel;
  double (*reference)(double);
  float low, high;
  Bound bound;
};

Bound ulps_within(double (*allowed)(float x)) {
  return [allowed](float x, float result, double reference) {
    return float_ulps(result, reference) <= allowed(x);
  };
}

// Absolute error `absolute` where x lies in [low, high], else `ulps`.
Bound absolute_inside(float low, float high, double absolute, double ulps) {
  return [=](float x, float result, double reference) {
    if (x >= low && x <= high) return fabs(result - reference) <= absolute;
    return float_ulps(result, reference) <= ulps;
  };
}

Bound relative_within(double relative) {
  return [relative](float, float result, double reference) {
    return fabs(result - reference) <= relative * fabs(reference);
  };
}

double pow_one_and_half(double x) {
  return pow(x, 1.5);
}
double sin_plus_cos(double x) {
  return sin(x) + cos(x);
}
double divide_plus_sqrt(double x) {
  return x / (x + 3.0) + sqrt(x);
}
double rn_sum(double x) {
  return x / (x + 3.0) + sqrt(x) + 1 / x;
}

const Case kCases[] = {
    {"fast_exp_kernel", exp, -10.0f, 10.0f,
     ulps_within([](float x) { return 2.0 + floor(fabs(1.173 * x)); })},
    {"fast_exp_dialect_kernel", exp, -10.0f, 10.0f,
     ulps_within([](float x) { return 2.0 + floor(fabs(1.173 * x)); })},
    {"fast_exp10_kernel", exp10, -4.0f, 4.0f,
     ulps_within([](float x) { return 2.0 + floor(fabs(2.97 * x)); })},
    {"fast_log_kernel", log, 0.01f, 1000.0f, absolute_inside(0.5f, 2.0f, ldexp(1.0, -21), 3)},
    {"fast_log2_kernel", log2, 0.01f, 1000.0f, absolute_inside(0.5f, 2.0f, ldexp(1.0, -22), 2)},
    {"fast_log10_kernel", log10, 0.01f, 1000.0f, absolute_inside(0.5f, 2.0f, ldexp(1.0, -24), 3)},
    {"fast_sin_kernel", sin, -3.14159f, 3.14159f, absolute_inside(-4, 4, ldexp(1.0, -21), 0)},
    {"fast_cos_kernel", cos, -3.14159f, 3.14159f, absolute_inside(-4, 4, ldexp(1.0, -21), 0)},
    // CUDA derives these bounds from the implementation (__sinf * (1 / __cosf), exp2(y log2 x)).
    {"fast_tan_kernel", tan, -1.2f, 1.2f, relative_within(1e-5)},
    {"fast_pow_kernel", pow_one_and_half, 0.5f, 100.0f, relative_within(1e-5)},
    {"fast_sincos_kernel", sin_plus_cos, -3.14159f, 3.14159f,
     absolute_inside(-4, 4, 2 * ldexp(1.0, -21), 0)},
    // div.full.f32 (2 ulp) and sqrt.approx.f32 (2^-23 relative), summed.
    {"fast_divide_sqrt_kernel", divide_plus_sqrt, 0.01f, 1000.0f, relative_within(1e-6)},
    // Three correctly rounded results summed in float: a few float ulps at most.
    {"fast_rn_kernel", rn_sum, 0.01f, 1000.0f, relative_within(4e-7)},
};

class FastMathTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    ASSERT_EQ(AG_SUCCESS, agModuleLoadData(device, anygpu_image_fast_math,
                                           anygpu_image_fast_math_size, &module))
        << last_detail();
  }
  void TearDown() override {
    if (module) {
      EXPECT_EQ(AG_SUCCESS, agModuleUnload(module)) << last_detail();
    }
  }
  ag_device device = device_at(GetParam());
  ag_module module = nullptr;
};

TEST_P(FastMathTest, FunctionsWithinTheIntrinsicsBounds) {
  constexpr int n = 4096;
  for (const Case& c : kCases) {
    std::vector<float> inputs(n);
    for (int i = 0; i < n; ++i) inputs[i] = c.low + (c.high - c.low) * i / (n - 1);
    DeviceBuffer<float> in(device, inputs), out(device, n);
    DeviceBuffer<double> out_double(device, n);
    int count = n;
    void* params[] = {in.param(), out.param(), out_double.param(), &count};
    ag_function function = nullptr;
    ASSERT_EQ(AG_SUCCESS, agModuleGetFunction(module, c.kernel, &function))
        << c.kernel << ": " << last_detail();
    ASSERT_EQ(AG_SUCCESS,
              agLaunchKernel(function, n / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr))
        << last_detail();
    const std::vector<float> floats = out.download();
    const std::vector<double> doubles = out_double.download();
    int float_failures = 0, double_failures = 0;
    for (int i = 0; i < n; ++i) {
      const double reference = c.reference(inputs[i]);
      if (!c.bound(inputs[i], floats[i], reference) && float_failures++ < 3)
        ADD_FAILURE() << c.kernel << "(" << inputs[i] << ") = " << floats[i] << ", reference "
                      << reference << " (" << float_ulps(floats[i], reference) << " ulp)";
      if (double_ulps(doubles[i], reference) > 2 && double_failures++ < 3)
        ADD_FAILURE() << c.kernel << " double form (" << inputs[i] << ") = " << doubles[i]
                      << ", reference " << reference;
    }
    EXPECT_EQ(0, float_failures) << c.kernel << ": float results outside the intrinsic's bound";
    EXPECT_EQ(0, double_failures) << c.kernel << ": double results changed by FAST_MATH";
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, FastMathTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
