/* Not shown in docs/installing.md: the main.c its CMakeLists.txt names; finds the kernel. */
#include <anygpu/anygpu.h>
#include <stdio.h>

#include "anygpu_image_app_kernels.h"

int main(void) {
  ag_device device;
  ag_module module;
  ag_function scale;
  ag_result r = agDeviceGet(0, &device);
  if (!r)
    r = agModuleLoadData(device, anygpu_image_app_kernels, anygpu_image_app_kernels_size, &module);
  if (!r) r = agModuleGetFunction(module, "scale", &scale);
  if (!r) r = agModuleUnload(module);
  if (r) {
    const char* detail = "";
    agGetLastErrorDetail(&detail);
    fprintf(stderr, "%s\n", detail);
    return 1;
  }
  printf("scale found\n");
  return 0;
}
