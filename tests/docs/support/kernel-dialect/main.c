/* Not shown in docs/kernel-dialect.md: the program its CMakeLists.txt builds. The image holds the
 * CUDA-source kernel and the AG_KERNEL one; both are found by name, with their parameters. */
#include <anygpu/anygpu.h>
#include <stdio.h>

#include "anygpu_image_app_kernels.h"

int main(void) {
  const char* names[] = {"saxpy", "block_sum"};
  const int params[] = {4, 3};
  ag_device device;
  ag_module module;
  ag_result r = agDeviceGet(0, &device);
  if (!r)
    r = agModuleLoadData(device, anygpu_image_app_kernels, anygpu_image_app_kernels_size, &module);
  for (int k = 0; k < 2 && !r; ++k) {
    ag_function function;
    int count = -1;
    r = agModuleGetFunction(module, names[k], &function);
    if (!r) r = agFunctionGetParamCount(function, &count);
    if (!r && count != params[k]) {
      fprintf(stderr, "%s: %d parameters, expected %d\n", names[k], count, params[k]);
      return 1;
    }
  }
  if (r) {
    const char* detail = "";
    agGetLastErrorDetail(&detail);
    fprintf(stderr, "%s\n", detail);
    return 1;
  }
  printf("saxpy and block_sum found\n");
  return agModuleUnload(module) ? 1 : 0;
}
