/* math_list.h — CUDA's math functions by shape, for the per-target definitions (math_gpu.h,
 * math_host.h). Each entry is X(cuda_name, ocml_name): the float form is cuda_name##f, the double
 * form cuda_name; libdevice calls them __nv_<float or double name>, ROCm's ocml
 * __ocml_<ocml_name>_f32/_f64. Included by anygpu/kernel.h; do not include directly. */
#ifndef ANYGPU_DETAIL_MATH_LIST_H
#define ANYGPU_DETAIL_MATH_LIST_H

// clang-format off
/* One argument; OpenCL has a built-in of the same name. */
#define AGK_MATH_UNARY_OPENCL(X) \
  X(acos, acos) X(acosh, acosh) X(asin, asin) X(asinh, asinh) X(atan, atan) X(atanh, atanh) \
  X(cbrt, cbrt) X(cos, cos) X(cosh, cosh) X(cospi, cospi) X(erf, erf) X(erfc, erfc) \
  X(exp, exp) X(exp10, exp10) X(exp2, exp2) X(expm1, expm1) X(lgamma, lgamma) X(log, log) \
  X(log10, log10) X(log1p, log1p) X(log2, log2) X(logb, logb) X(rsqrt, rsqrt) X(sin, sin) \
  X(sinh, sinh) X(sinpi, sinpi) X(tan, tan) X(tanh, tanh) X(tgamma, tgamma)

/* One argument; CUDA's additions that OpenCL lacks (math_generic.h computes them there). */
#define AGK_MATH_UNARY_CUDA(X) \
  X(erfinv, erfinv) X(erfcinv, erfcinv) X(erfcx, erfcx) X(normcdf, ncdf) \
  X(normcdfinv, ncdfinv) X(rcbrt, rcbrt) X(nearbyint, nearbyint)

/* One argument; Bessel functions: libdevice and ocml have them, OpenCL does not. */
#define AGK_MATH_UNARY_BESSEL(X) \
  X(j0, j0) X(j1, j1) X(y0, y0) X(y1, y1) X(cyl_bessel_i0, i0) X(cyl_bessel_i1, i1)

/* Two arguments. */
#define AGK_MATH_BINARY_OPENCL(X) \
  X(atan2, atan2) X(fdim, fdim) X(fmod, fmod) X(hypot, hypot) X(nextafter, nextafter) \
  X(pow, pow) X(remainder, remainder)
#define AGK_MATH_BINARY_CUDA(X) X(rhypot, rhypot)

/* Three and four arguments: the lengths of vectors (CUDA's norm3d is ocml's len3). */
#define AGK_MATH_TERNARY_CUDA(X) X(norm3d, len3) X(rnorm3d, rlen3)
#define AGK_MATH_QUATERNARY_CUDA(X) X(norm4d, len4) X(rnorm4d, rlen4)
// clang-format on

/* An image built with FAST_MATH (anygpu_add_kernels; it defines AGK_FAST_MATH) computes the float
 * forms of these functions with CUDA's intrinsics, as nvcc's -use_fast_math does; double forms
 * never change. AGK_FLOAT_CALLEE(name, accurate) is the function a float form calls: the
 * intrinsic where FAST_MATH maps the name, else `accurate`. */
#if defined(AGK_FAST_MATH) && AGK_FAST_MATH
#define AGK_FAST_FORM_exp ~, __expf
#define AGK_FAST_FORM_exp10 ~, __exp10f
#define AGK_FAST_FORM_log ~, __logf
#define AGK_FAST_FORM_log2 ~, __log2f
#define AGK_FAST_FORM_log10 ~, __log10f
#define AGK_FAST_FORM_sin ~, __sinf
#define AGK_FAST_FORM_cos ~, __cosf
#define AGK_FAST_FORM_tan ~, __tanf
#define AGK_FAST_FORM_pow ~, __powf
#endif
/* A mapped name's AGK_FAST_FORM_ expands to two arguments, which shifts the intrinsic into the
 * picked place; an unmapped one stays a single token and `accurate` is picked. */
#define AGK_FLOAT_CALLEE(name, accurate) \
  AGK_FLOAT_CALLEE_EXPANDED(AGK_FAST_FORM_##name, accurate, ~)
#define AGK_FLOAT_CALLEE_EXPANDED(...) AGK_FLOAT_CALLEE_PICK(__VA_ARGS__)
#define AGK_FLOAT_CALLEE_PICK(probe, callee, ...) callee

#endif /* ANYGPU_DETAIL_MATH_LIST_H */
