/* math_gpu.h — CUDA's math library on GPU targets, with the accuracy CUDA documents.
 *   nvptx64: CUDA's own libdevice (__nv_*), linked into each PTX at build time;
 *   amdgcn:  ROCm's ocml (__ocml_*), linked into each code object at build time;
 *   spir64:  OpenCL's built-ins (the device's implementation, within OpenCL's bounds), and
 *            math_generic.h for CUDA's additions that OpenCL lacks.
 * Float and double forms are separate functions on every target: a double argument never goes
 * through float. A function a target cannot provide is an error naming it and the target.
 * Included by kernel_gpu.h; do not include directly. */
#ifndef ANYGPU_DETAIL_MATH_GPU_H
#define ANYGPU_DETAIL_MATH_GPU_H

#include "math_list.h"

#define AGK_MATH_UNAVAILABLE(what) __attribute__((unavailable(what)))

/* The intrinsics FAST_MATH maps float functions to (math_list.h), defined further down. */
AG_DEVICE float __expf(float x);
AG_DEVICE float __exp10f(float x);
AG_DEVICE float __logf(float x);
AG_DEVICE float __log2f(float x);
AG_DEVICE float __log10f(float x);
AG_DEVICE float __sinf(float x);
AG_DEVICE float __cosf(float x);
AG_DEVICE float __tanf(float x);
AG_DEVICE float __powf(float x, float y);
AG_DEVICE void __sincosf(float x, float* s, float* c);

#if defined(__CUDA_ARCH__) || (defined(__AMDGCN__) && !defined(AGK_SPIRV_HIP))
/* ---- nvptx64 and amdgcn: the vendor's library ---- */
#define AGK_VENDOR extern "C" __attribute__((device))
#if defined(__CUDA_ARCH__)
#define AGK_VENDOR_F32(c, o) __nv_##c##f
#define AGK_VENDOR_F64(c, o) __nv_##c
#else
#define AGK_VENDOR_F32(c, o) __ocml_##o##_f32
#define AGK_VENDOR_F64(c, o) __ocml_##o##_f64
/* ocml's controls, which ROCm's oclc_*.bc files would give (not every target has one): IEEE
 * behaviour (denormals kept, no finite-only or unsafe shortcuts, sqrt correctly rounded), as CUDA
 * without -use_fast_math; with FAST_MATH float denormals flushed and sqrt approximate, as with it.
 * ocml asks of the ISA version only whether it is gfx9 or later. */
#if defined(AGK_FAST_MATH) && AGK_FAST_MATH
#define AGK_OCLC_FAST true
#else
#define AGK_OCLC_FAST false
#endif
#if defined(__GFX8__) || defined(__GFX7__) || defined(__GFX6__)
#define AGK_OCLC_ISA_VERSION 8000
#else
#define AGK_OCLC_ISA_VERSION 9000
#endif
#define AGK_OCLC_CONSTANT __attribute__((address_space(4), used, visibility("hidden"))) inline const
extern "C" {
AGK_OCLC_CONSTANT bool __oclc_finite_only_opt = false;
AGK_OCLC_CONSTANT bool __oclc_unsafe_math_opt = false;
AGK_OCLC_CONSTANT bool __oclc_daz_opt = AGK_OCLC_FAST;
AGK_OCLC_CONSTANT bool __oclc_correctly_rounded_sqrt32 = !AGK_OCLC_FAST;
AGK_OCLC_CONSTANT bool __oclc_wavefrontsize64 = __AMDGCN_WAVEFRONT_SIZE__ == 64;
AGK_OCLC_CONSTANT int __oclc_ISA_version = AGK_OCLC_ISA_VERSION;
}
#endif
#define AGK_VENDOR_FUNCTION(c, o, float_params, double_params, args) \
  AGK_VENDOR float AGK_VENDOR_F32(c, o) float_params;                \
  AGK_VENDOR double AGK_VENDOR_F64(c, o) double_params;              \
  AG_DEVICE float c##f float_params {                                \
    return AGK_FLOAT_CALLEE(c, AGK_VENDOR_F32(c, o)) args;           \
  }                                                                  \
  AG_DEVICE float c float_params {                                   \
    return AGK_FLOAT_CALLEE(c, AGK_VENDOR_F32(c, o)) args;           \
  }                                                                  \
  AG_DEVICE double c double_params {                                 \
    return AGK_VENDOR_F64(c, o) args;                                \
  }
#define AGK_VENDOR_UNARY(c, o) AGK_VENDOR_FUNCTION(c, o, (float x), (double x), (x))
#define AGK_VENDOR_BINARY(c, o) \
  AGK_VENDOR_FUNCTION(c, o, (float x, float y), (double x, double y), (x, y))
#define AGK_VENDOR_TERNARY(c, o) \
  AGK_VENDOR_FUNCTION(c, o, (float x, float y, float z), (double x, double y, double z), (x, y, z))
#define AGK_VENDOR_QUATERNARY(c, o)                               \
  AGK_VENDOR_FUNCTION(c, o, (float x, float y, float z, float w), \
                      (double x, double y, double z, double w), (x, y, z, w))
AGK_MATH_UNARY_OPENCL(AGK_VENDOR_UNARY)
AGK_MATH_UNARY_CUDA(AGK_VENDOR_UNARY)
AGK_MATH_UNARY_BESSEL(AGK_VENDOR_UNARY)
AGK_MATH_BINARY_OPENCL(AGK_VENDOR_BINARY)
AGK_MATH_BINARY_CUDA(AGK_VENDOR_BINARY)
AGK_MATH_TERNARY_CUDA(AGK_VENDOR_TERNARY)
AGK_MATH_QUATERNARY_CUDA(AGK_VENDOR_QUATERNARY)
AGK_VENDOR_FUNCTION(ldexp, ldexp, (float x, int e), (double x, int e), (x, e))
AGK_VENDOR_FUNCTION(scalbn, scalbn, (float x, int e), (double x, int e), (x, e))

/* The functions with results through pointers: ocml takes private pointers, so the result goes
 * through a local first (the caller's pointer may be global or shared memory). */
#if defined(__CUDA_ARCH__)
#define AGK_VENDOR_OUT(type, name) type* name
#define AGK_VENDOR_OUT_ARG(local) (&local)
#else
#define AGK_VENDOR_OUT(type, name) __attribute__((address_space(5))) type* name
#define AGK_VENDOR_OUT_ARG(local) ((__attribute__((address_space(5))) __typeof__(local)*)&local)
#endif
#define AGK_VENDOR_WITH_OUT(c, o, T, S, Out)                        \
  AGK_VENDOR T AGK_VENDOR_##S(c, o)(T x, AGK_VENDOR_OUT(Out, out)); \
  AG_DEVICE T agk_##c(T x, Out* out) {                              \
    Out local;                                                      \
    T result = AGK_VENDOR_##S(c, o)(x, AGK_VENDOR_OUT_ARG(local));  \
    *out = local;                                                   \
    return result;                                                  \
  }
AGK_VENDOR_WITH_OUT(frexp, frexp, float, F32, int)
AGK_VENDOR_WITH_OUT(frexp, frexp, double, F64, int)
AGK_VENDOR_WITH_OUT(modf, modf, float, F32, float)
AGK_VENDOR_WITH_OUT(modf, modf, double, F64, double)
AG_DEVICE float frexpf(float x, int* e) {
  return agk_frexp(x, e);
}
AG_DEVICE float frexp(float x, int* e) {
  return agk_frexp(x, e);
}
AG_DEVICE double frexp(double x, int* e) {
  return agk_frexp(x, e);
}
AG_DEVICE float modff(float x, float* i) {
  return agk_modf(x, i);
}
AG_DEVICE float modf(float x, float* i) {
  return agk_modf(x, i);
}
AG_DEVICE double modf(double x, double* i) {
  return agk_modf(x, i);
}

#if defined(__CUDA_ARCH__)
AGK_VENDOR int __nv_ilogbf(float);
AGK_VENDOR int __nv_ilogb(double);
AGK_VENDOR void __nv_sincosf(float, float*, float*);
AGK_VENDOR void __nv_sincos(double, double*, double*);
AGK_VENDOR void __nv_sincospif(float, float*, float*);
AGK_VENDOR void __nv_sincospi(double, double*, double*);
AGK_VENDOR float __nv_remquof(float, float, int*);
AGK_VENDOR double __nv_remquo(double, double, int*);
AGK_VENDOR float __nv_jnf(int, float);
AGK_VENDOR double __nv_jn(int, double);
AGK_VENDOR float __nv_ynf(int, float);
AGK_VENDOR double __nv_yn(int, double);
#define AGK_SINCOS(c, T, S)           \
  AG_DEVICE void c(T x, T* s, T* k) { \
    __nv_##c(x, s, k);                \
  }
#define AGK_REMQUO(c, T, S)         \
  AG_DEVICE T c(T x, T y, int* q) { \
    return __nv_##c(x, y, q);       \
  }
AG_DEVICE int ilogbf(float x) {
  return __nv_ilogbf(x);
}
AG_DEVICE int ilogb(float x) {
  return __nv_ilogbf(x);
}
AG_DEVICE int ilogb(double x) {
  return __nv_ilogb(x);
}
AG_DEVICE float jnf(int n, float x) {
  return __nv_jnf(n, x);
}
AG_DEVICE double jn(int n, double x) {
  return __nv_jn(n, x);
}
AG_DEVICE float ynf(int n, float x) {
  return __nv_ynf(n, x);
}
AG_DEVICE double yn(int n, double x) {
  return __nv_yn(n, x);
}
#else
AGK_VENDOR int __ocml_ilogb_f32(float);
AGK_VENDOR int __ocml_ilogb_f64(double);
AGK_VENDOR float __ocml_sincos_f32(float, AGK_VENDOR_OUT(float, c));
AGK_VENDOR double __ocml_sincos_f64(double, AGK_VENDOR_OUT(double, c));
AGK_VENDOR float __ocml_sincospi_f32(float, AGK_VENDOR_OUT(float, c));
AGK_VENDOR double __ocml_sincospi_f64(double, AGK_VENDOR_OUT(double, c));
AGK_VENDOR float __ocml_remquo_f32(float, float, AGK_VENDOR_OUT(int, q));
AGK_VENDOR double __ocml_remquo_f64(double, double, AGK_VENDOR_OUT(int, q));
#define AGK_SINCOS(c, T, S)                         \
  AG_DEVICE void c(T x, T* s, T* k) {               \
    T cosine;                                       \
    *s = __ocml_##S(x, AGK_VENDOR_OUT_ARG(cosine)); \
    *k = cosine;                                    \
  }
#define AGK_REMQUO(c, T, S)                                    \
  AG_DEVICE T c(T x, T y, int* q) {                            \
    int quotient;                                              \
    T result = __ocml_##S(x, y, AGK_VENDOR_OUT_ARG(quotient)); \
    *q = quotient;                                             \
    return result;                                             \
  }
AG_DEVICE int ilogbf(float x) {
  return __ocml_ilogb_f32(x);
}
AG_DEVICE int ilogb(float x) {
  return __ocml_ilogb_f32(x);
}
AG_DEVICE int ilogb(double x) {
  return __ocml_ilogb_f64(x);
}
AGK_MATH_UNAVAILABLE("jnf: ROCm's ocml has no jn; write a recurrence on j0f and j1f")
AG_DEVICE float jnf(int n, float x);
AGK_MATH_UNAVAILABLE("jn: ROCm's ocml has no jn; write a recurrence on j0 and j1")
AG_DEVICE double jn(int n, double x);
AGK_MATH_UNAVAILABLE("ynf: ROCm's ocml has no yn; write a recurrence on y0f and y1f")
AG_DEVICE float ynf(int n, float x);
AGK_MATH_UNAVAILABLE("yn: ROCm's ocml has no yn; write a recurrence on y0 and y1")
AG_DEVICE double yn(int n, double x);
#endif
#if defined(AGK_FAST_MATH) && AGK_FAST_MATH
AG_DEVICE void sincosf(float x, float* s, float* c) {
  __sincosf(x, s, c);
}
#else
AGK_SINCOS(sincosf, float, sincos_f32)
#endif
AGK_SINCOS(sincos, double, sincos_f64)
AGK_SINCOS(sincospif, float, sincospi_f32)
AGK_SINCOS(sincospi, double, sincospi_f64)
AG_DEVICE void sincos(float x, float* s, float* c) {
  sincosf(x, s, c);
}
AG_DEVICE void sincospi(float x, float* s, float* c) {
  sincospif(x, s, c);
}
AGK_REMQUO(remquof, float, remquo_f32)
AGK_REMQUO(remquo, double, remquo_f64)
AG_DEVICE float remquo(float x, float y, int* q) {
  return remquof(x, y, q);
}

/* The intrinsics: CUDA's fast forms with their looser bounds, and the IEEE operations named by
 * their rounding (never contracted into an fma). */
#if defined(__CUDA_ARCH__)
#define AGK_FAST_1(intrinsic, vendor)    \
  AGK_VENDOR float __nv_##vendor(float); \
  AG_DEVICE float intrinsic(float x) {   \
    return __nv_##vendor(x);             \
  }
#define AGK_FAST_2(intrinsic, vendor)           \
  AGK_VENDOR float __nv_##vendor(float, float); \
  AG_DEVICE float intrinsic(float x, float y) { \
    return __nv_##vendor(x, y);                 \
  }
AGK_FAST_1(__expf, fast_expf)
AGK_FAST_1(__exp10f, fast_exp10f)
AGK_FAST_1(__logf, fast_logf)
AGK_FAST_1(__log2f, fast_log2f)
AGK_FAST_1(__log10f, fast_log10f)
AGK_FAST_1(__sinf, fast_sinf)
AGK_FAST_1(__cosf, fast_cosf)
AGK_FAST_1(__tanf, fast_tanf)
AGK_FAST_2(__powf, fast_powf)
AGK_FAST_2(__fdividef, fast_fdividef)
AGK_FAST_1(__saturatef, saturatef)
AGK_VENDOR void __nv_fast_sincosf(float, float*, float*);
AG_DEVICE void __sincosf(float x, float* s, float* c) {
  __nv_fast_sincosf(x, s, c);
}
#else
#define AGK_FAST_1(intrinsic, vendor)            \
  AGK_VENDOR float __ocml_##vendor##_f32(float); \
  AG_DEVICE float intrinsic(float x) {           \
    return __ocml_##vendor##_f32(x);             \
  }
AGK_FAST_1(__expf, native_exp)
AGK_FAST_1(__exp10f, native_exp10)
AGK_FAST_1(__logf, native_log)
AGK_FAST_1(__log2f, native_log2)
AGK_FAST_1(__log10f, native_log10)
AGK_FAST_1(__sinf, native_sin)
AGK_FAST_1(__cosf, native_cos)
AG_DEVICE float __tanf(float x) {
  return __sinf(x) / __cosf(x);
}
AG_DEVICE float __powf(float x, float y) {  // ocml has no fast pow; not powf, which FAST_MATH maps
  return __ocml_pow_f32(x, y);
}
AG_DEVICE float __fdividef(float x, float y) {
  return x / y;
}
AG_DEVICE float __saturatef(float x) {
  return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f);
}
AG_DEVICE void __sincosf(float x, float* s, float* c) {
  *s = __sinf(x);
  *c = __cosf(x);
}
#endif

#else
/* ---- spir64: OpenCL's built-ins ---- */
#if defined(AGK_SPIRV_HIP)
#define AGK_OPENCL_NATIVE(c) __spirv_ocl_native_##c
__attribute__((device)) float __spirv_ocl_native_exp(float);
__attribute__((device)) float __spirv_ocl_native_exp10(float);
__attribute__((device)) float __spirv_ocl_native_log(float);
__attribute__((device)) float __spirv_ocl_native_log2(float);
__attribute__((device)) float __spirv_ocl_native_log10(float);
__attribute__((device)) float __spirv_ocl_native_sin(float);
__attribute__((device)) float __spirv_ocl_native_cos(float);
__attribute__((device)) float __spirv_ocl_native_tan(float);
__attribute__((device)) float __spirv_ocl_native_powr(float, float);
__attribute__((device)) float __spirv_ocl_native_divide(float, float);
__attribute__((device)) int __spirv_ocl_ilogb(float);
__attribute__((device)) int __spirv_ocl_ilogb(double);
__attribute__((device)) float __spirv_ocl_frexp(float, int*);
__attribute__((device)) double __spirv_ocl_frexp(double, int*);
__attribute__((device)) float __spirv_ocl_modf(float, float*);
__attribute__((device)) double __spirv_ocl_modf(double, double*);
__attribute__((device)) float __spirv_ocl_sincos(float, float*);
__attribute__((device)) double __spirv_ocl_sincos(double, double*);
__attribute__((device)) float __spirv_ocl_remquo(float, float, int*);
__attribute__((device)) double __spirv_ocl_remquo(double, double, int*);
#define AGK_OPENCL_CALL(c) __spirv_ocl_##c
#else
/* C++ for OpenCL: the built-ins are overloads already (AGK_MATH adds the C names with f). */
#define AGK_OPENCL_NATIVE(c) native_##c
#define AGK_OPENCL_CALL(c) c
#endif
#define AGK_OPENCL_UNARY(c, o) AGK_MATH(c, (float x), (double x), (x))
#define AGK_OPENCL_BINARY(c, o) AGK_MATH(c, (float x, float y), (double x, double y), (x, y))
AGK_MATH_UNARY_OPENCL(AGK_OPENCL_UNARY)
AGK_MATH_BINARY_OPENCL(AGK_OPENCL_BINARY)
AGK_MATH(ldexp, (float x, int e), (double x, int e), (x, e))
AG_DEVICE int ilogbf(float x) {
  return AGK_OPENCL_CALL(ilogb)(x);
}
AG_DEVICE float frexpf(float x, int* e) {
  return AGK_OPENCL_CALL(frexp)(x, e);
}
AG_DEVICE float modff(float x, float* i) {
  return AGK_OPENCL_CALL(modf)(x, i);
}
AG_DEVICE float remquof(float x, float y, int* q) {
  return AGK_OPENCL_CALL(remquo)(x, y, q);
}
AG_DEVICE void sincosf(float x, float* s, float* c) {
#if defined(AGK_FAST_MATH) && AGK_FAST_MATH
  __sincosf(x, s, c);
#else
  *s = AGK_OPENCL_CALL(sincos)(x, c);
#endif
}
AG_DEVICE float scalbnf(float x, int e) {
  return ldexpf(x, e);
}
#if defined(AGK_SPIRV_HIP)
AG_DEVICE int ilogb(float x) {
  return __spirv_ocl_ilogb(x);
}
AG_DEVICE int ilogb(double x) {
  return __spirv_ocl_ilogb(x);
}
AG_DEVICE float frexp(float x, int* e) {
  return __spirv_ocl_frexp(x, e);
}
AG_DEVICE double frexp(double x, int* e) {
  return __spirv_ocl_frexp(x, e);
}
AG_DEVICE float modf(float x, float* i) {
  return __spirv_ocl_modf(x, i);
}
AG_DEVICE double modf(double x, double* i) {
  return __spirv_ocl_modf(x, i);
}
AG_DEVICE float remquo(float x, float y, int* q) {
  return __spirv_ocl_remquo(x, y, q);
}
AG_DEVICE double remquo(double x, double y, int* q) {
  return __spirv_ocl_remquo(x, y, q);
}
AG_DEVICE void sincos(float x, float* s, float* c) {
  *s = __spirv_ocl_sincos(x, c);
}
AG_DEVICE void sincos(double x, double* s, double* c) {
  *s = __spirv_ocl_sincos(x, c);
}
AG_DEVICE float scalbn(float x, int e) {
  return ldexp(x, e);
}
AG_DEVICE double scalbn(double x, int e) {
  return ldexp(x, e);
}
#endif
#define AGK_NATIVE_1(intrinsic, c)     \
  AG_DEVICE float intrinsic(float x) { \
    return AGK_OPENCL_NATIVE(c)(x);    \
  }
AGK_NATIVE_1(__expf, exp)
AGK_NATIVE_1(__exp10f, exp10)
AGK_NATIVE_1(__logf, log)
AGK_NATIVE_1(__log2f, log2)
AGK_NATIVE_1(__log10f, log10)
AGK_NATIVE_1(__sinf, sin)
AGK_NATIVE_1(__cosf, cos)
AGK_NATIVE_1(__tanf, tan)
AG_DEVICE float __powf(float x, float y) {  // not powf, which FAST_MATH maps to __powf
  return AGK_OPENCL_CALL(pow)(x, y);
}
AG_DEVICE float __fdividef(float x, float y) {
  return AGK_OPENCL_NATIVE(divide)(x, y);
}
AG_DEVICE float __saturatef(float x) {
  return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f);
}
AG_DEVICE void __sincosf(float x, float* s, float* c) {
  *s = __sinf(x);
  *c = __cosf(x);
}
#define AGK_BESSEL_UNAVAILABLE(c, o)                                                     \
  AGK_MATH_UNAVAILABLE(#c "f: not available on SPIR-V (OpenCL has no Bessel functions)") \
  AG_DEVICE float c##f(float x);
AGK_MATH_UNARY_BESSEL(AGK_BESSEL_UNAVAILABLE)
#include "math_generic.h"
#endif

/* Rounding to integers: the C functions, for results within the integer type's range. */
#define AGK_ROUND_TO_INTEGER(c, rounding, Integer) \
  AG_DEVICE Integer c##f(float x) {                \
    return (Integer)rounding(x);                   \
  }                                                \
  AG_DEVICE Integer c(float x) {                   \
    return (Integer)rounding(x);                   \
  }                                                \
  AG_DEVICE Integer c(double x) {                  \
    return (Integer)rounding(x);                   \
  }
AGK_ROUND_TO_INTEGER(lrint, rint, long)
AGK_ROUND_TO_INTEGER(llrint, rint, long long)
AGK_ROUND_TO_INTEGER(lround, round, long)
AGK_ROUND_TO_INTEGER(llround, round, long long)

#define AGK_ROUNDED_FUNCTION AG_DEVICE
#include "math_rounded.h"

/* nan(tagp) and nanf(tagp): a quiet NaN whose payload is the number tagp spells, read as glibc
 * reads it (decimal, 0x hexadecimal, 0 octal; anything else is payload 0; too large a number all
 * ones), so that the CPU device (glibc's own) and the GPUs agree. The payload keeps the low bits
 * the format holds. A template, so that a string literal's pointer in C++ for OpenCL (__constant)
 * is taken as well. */
template <typename Char>
AG_DEVICE agk_ull agk_nan_payload(const Char* tagp) {
  agk_ull base = 10, payload = 0;
  int i = 0;
  if (tagp[0] == '0') {
    base = (tagp[1] == 'x' || tagp[1] == 'X') ? 16 : 8;
    i = base == 16 ? 2 : 1;
  }
  bool overflow = false; /* glibc's strtoull saturates: the payload is then all ones */
  for (; tagp[i] != 0; ++i) {
    const int c = tagp[i];
    const agk_ull digit = c >= '0' && c <= '9'   ? (agk_ull)(c - '0')
                          : c >= 'a' && c <= 'f' ? (agk_ull)(c - 'a' + 10)
                          : c >= 'A' && c <= 'F' ? (agk_ull)(c - 'A' + 10)
                                                 : 99;
    if (digit >= base) return 0;
    overflow = overflow || payload > (~(agk_ull)0 - digit) / base;
    payload = payload * base + digit;
  }
  return overflow ? ~(agk_ull)0 : payload;
}
template <typename Char>
AG_DEVICE double nan(const Char* tagp) {
  return __longlong_as_double(
      (agk_ll)(0x7FF8000000000000ull | (agk_nan_payload(tagp) & 0x0007FFFFFFFFFFFFull)));
}
template <typename Char>
AG_DEVICE float nanf(const Char* tagp) {
  return __uint_as_float(0x7FC00000u | (unsigned int)(agk_nan_payload(tagp) & 0x3FFFFFu));
}

#endif /* ANYGPU_DETAIL_MATH_GPU_H */
