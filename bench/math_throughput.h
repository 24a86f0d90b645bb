// anygpu_math_bench: the reference loops (math_throughput_libmvec.cpp), on OpenMP's threads.
#pragma once

namespace anygpu_math_bench {

void libmvec_expf(const float* in, float* out, int n);
void libmvec_logf(const float* in, float* out, int n);
void libmvec_erff(const float* in, float* out, int n);
void libmvec_exp(const double* in, double* out, int n);
void libmvec_log(const double* in, double* out, int n);
void libmvec_erf(const double* in, double* out, int n);

}  // namespace anygpu_math_bench
