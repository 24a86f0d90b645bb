// The functions the math accuracy suite measures (tests/conformance/math_accuracy_test.cpp), one
// entry per CUDA function, by argument count: X1(name) is namef(float) and name(double), and so
// on; XB(name) are the Bessel functions, one argument, which OpenCL lacks (a build error on
// SPIR-V). The kernels (math_functions.cu) and the test share this list, so both agree on each
// index.
#pragma once

// clang-format off
#define MATH_FUNCTION_LIST(X1, X2, X3, X4, XB) \
  X1(acos) X1(acosh) X1(asin) X1(asinh) X1(atan) X1(atanh) X1(cbrt) X1(cos) X1(cosh) X1(cospi) \
  X1(erf) X1(erfc) X1(erfcinv) X1(erfcx) X1(erfinv) X1(exp) X1(exp10) X1(exp2) X1(expm1) \
  X1(lgamma) X1(log) X1(log10) X1(log1p) X1(log2) X1(logb) X1(normcdf) X1(normcdfinv) X1(rcbrt) \
  X1(rsqrt) X1(sin) X1(sinh) X1(sinpi) X1(sqrt) X1(tan) X1(tanh) X1(tgamma) X1(nearbyint) \
  X1(rint) X1(round) X1(trunc) X1(floor) X1(ceil) X1(fabs) X2(atan2) X2(copysign) X2(fdim) \
  X2(fmax) X2(fmin) X2(fmod) X2(hypot) X2(nextafter) X2(pow) X2(remainder) X2(rhypot) X3(fma) \
  X3(norm3d) X3(rnorm3d) X4(norm4d) X4(rnorm4d) XB(j0) XB(j1) XB(y0) XB(y1) XB(cyl_bessel_i0) \
  XB(cyl_bessel_i1)
// clang-format on

#define MATH_FUNCTION_ENUM_ENTRY(name) math_##name,
enum MathFunction {
  MATH_FUNCTION_LIST(MATH_FUNCTION_ENUM_ENTRY, MATH_FUNCTION_ENUM_ENTRY, MATH_FUNCTION_ENUM_ENTRY,
                     MATH_FUNCTION_ENUM_ENTRY, MATH_FUNCTION_ENUM_ENTRY) math_function_count
};
#undef MATH_FUNCTION_ENUM_ENTRY
