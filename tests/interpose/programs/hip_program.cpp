// A HIP runtime program, built with Debian's hipcc against the real libamdhip64, for the
// interposer's tests. It makes a known sequence of calls (no kernel: none is needed to trace the
// runtime's calls) and prints each one's result. With no AMD GPU the runtime reports no device:
// exit codes say how far it got.
//   0  every call succeeded and the copy came back right
//   2  no device (hipGetDeviceCount failed or found none)
//   3  a call after it failed (printed)
//   4  the copy came back wrong
#include <hip/hip_runtime.h>

#include <cstdio>

namespace {

bool report(hipError_t result, const char* call) {
  printf("%s: %d %s\n", call, static_cast<int>(result), hipGetErrorString(result));
  return result == hipSuccess;
}
#define CALL(call) report((call), #call)

}  // namespace

int main() {
  int count = 0;
  if (!CALL(hipGetDeviceCount(&count)) || count == 0) return 2;
  constexpr int kCount = 256;
  int host[kCount], back[kCount];
  for (int i = 0; i < kCount; ++i) host[i] = i;
  void *data = nullptr, *leaked = nullptr;
  if (!CALL(hipMalloc(&data, sizeof host))) return 3;
  if (!CALL(hipMalloc(&leaked, 64))) return 3;  // not freed: for the interposer's leak report
  if (!CALL(hipMemcpy(data, host, sizeof host, hipMemcpyHostToDevice))) return 3;
  if (!CALL(hipMemcpy(back, data, sizeof back, hipMemcpyDeviceToHost))) return 3;
  if (!CALL(hipDeviceSynchronize())) return 3;
  if (!CALL(hipFree(data))) return 3;
  for (int i = 0; i < kCount; ++i)
    if (back[i] != i) return 4;
  printf("OK\n");
  return 0;
}
