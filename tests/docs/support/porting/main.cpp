// Not shown in docs/porting-from-cuda.md: the program its CMakeLists.txt builds. Runs the
// document's reduce.cu (block_sums<256>, with dynamic shared memory) and checks every block's sum.
#include <anygpu/anygpu.hpp>

#include <cstdio>
#include <vector>

#include "anygpu_image_app_kernels.h"

int main() try {
  const anygpu::device dev = anygpu::device::get(0);
  const anygpu::module kernels(dev, anygpu_image_app_kernels, anygpu_image_app_kernels_size);
  const anygpu::function block_sums = kernels.function("block_sums<256>");
  kernels.function("saxpy");  // throws if it is missing

  const unsigned int n = 1000, blocks = (n + 255) / 256;
  std::vector<float> in(n);
  for (unsigned int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 7);
  anygpu::device_memory<float> din(dev, in), dout(dev, blocks);
  anygpu::launch(block_sums, anygpu::launch_config(blocks, 256, 256 * sizeof(float)), din, dout, n);
  const std::vector<float> sums = dout.download();
  for (unsigned int b = 0; b < blocks; ++b) {
    float expected = 0.0f;
    for (unsigned int i = b * 256; i < n && i < (b + 1) * 256; ++i) expected += in[i];
    if (sums[b] != expected) {
      std::fprintf(stderr, "block %u: %g, expected %g\n", b, sums[b], expected);
      return 1;
    }
  }
  std::printf("block_sums<256> over %u elements: ok\n", n);
  return 0;
} catch (const anygpu::error& e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
