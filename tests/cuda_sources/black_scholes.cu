// European option prices by the Black-Scholes formula, in the style of NVIDIA cuda-samples'
// BlackScholes: the cumulative normal distribution by the Abramowitz-Stegun polynomial, one option
// per thread in a grid-stride loop. In float as the sample has it, and overloaded in double as
// code that needs the digits writes it (exp, log and sqrt of double).
#include <cuda_runtime.h>

// Cumulative normal distribution, polynomial approximation.
__device__ inline float cndGPU(float d) {
  const float A1 = 0.31938153f;
  const float A2 = -0.356563782f;
  const float A3 = 1.781477937f;
  const float A4 = -1.821255978f;
  const float A5 = 1.330274429f;
  const float RSQRT2PI = 0.39894228040143267793994605993438f;

  float K = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float cnd = RSQRT2PI * expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  if (d > 0) cnd = 1.0f - cnd;
  return cnd;
}

// Call and put for stock price S, strike X, years T, riskless rate R and volatility V.
__device__ inline void BlackScholesBodyGPU(float& CallResult, float& PutResult, float S, float X,
                                           float T, float R, float V) {
  float sqrtT = sqrtf(T);
  float d1 = (logf(S / X) + (R + 0.5f * V * V) * T) / (V * sqrtT);
  float d2 = d1 - V * sqrtT;
  float CNDD1 = cndGPU(d1);
  float CNDD2 = cndGPU(d2);

  float expRT = expf(-R * T);
  CallResult = S * CNDD1 - X * expRT * CNDD2;
  PutResult = X * expRT * (1.0f - CNDD2) - S * (1.0f - CNDD1);
}

__global__ void BlackScholesGPU(float* d_CallResult, float* d_PutResult, const float* d_StockPrice,
                                const float* d_OptionStrike, const float* d_OptionYears,
                                float Riskfree, float Volatility, int optN) {
  const int tid = blockDim.x * blockIdx.x + threadIdx.x;
  const int THREAD_N = blockDim.x * gridDim.x;
  for (int opt = tid; opt < optN; opt += THREAD_N)
    BlackScholesBodyGPU(d_CallResult[opt], d_PutResult[opt], d_StockPrice[opt], d_OptionStrike[opt],
                        d_OptionYears[opt], Riskfree, Volatility);
}

// The same in double.
__device__ inline double cndGPU(double d) {
  const double A1 = 0.31938153;
  const double A2 = -0.356563782;
  const double A3 = 1.781477937;
  const double A4 = -1.821255978;
  const double A5 = 1.330274429;
  const double RSQRT2PI = 0.39894228040143267793994605993438;

  double K = 1.0 / (1.0 + 0.2316419 * fabs(d));
  double cnd = RSQRT2PI * exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  if (d > 0) cnd = 1.0 - cnd;
  return cnd;
}

__device__ inline void BlackScholesBodyGPU(double& CallResult, double& PutResult, double S,
                                           double X, double T, double R, double V) {
  double sqrtT = sqrt(T);
  double d1 = (log(S / X) + (R + 0.5 * V * V) * T) / (V * sqrtT);
  double d2 = d1 - V * sqrtT;
  double CNDD1 = cndGPU(d1);
  double CNDD2 = cndGPU(d2);

  double expRT = exp(-R * T);
  CallResult = S * CNDD1 - X * expRT * CNDD2;
  PutResult = X * expRT * (1.0 - CNDD2) - S * (1.0 - CNDD1);
}

__global__ void BlackScholesGPU(double* d_CallResult, double* d_PutResult,
                                const double* d_StockPrice, const double* d_OptionStrike,
                                const double* d_OptionYears, double Riskfree, double Volatility,
                                int optN) {
  const int tid = blockDim.x * blockIdx.x + threadIdx.x;
  const int THREAD_N = blockDim.x * gridDim.x;
  for (int opt = tid; opt < optN; opt += THREAD_N)
    BlackScholesBodyGPU(d_CallResult[opt], d_PutResult[opt], d_StockPrice[opt], d_OptionStrike[opt],
                        d_OptionYears[opt], Riskfree, Volatility);
}
