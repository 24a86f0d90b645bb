// Every reader given many corrupted variants of real inputs (bytes flipped, fields set to extreme
// values, cut short): selection and the kernel listing answer without crashing. A fixed-seed,
// in-suite companion of the fuzz targets in tests/fuzz/.
#include <gtest/gtest.h>

#include <random>

#include "bundle_test_support.h"
#include "shim/code_object/code_object_entries.h"
#include "shim/code_object/code_object_kernels.h"

using namespace anygpu;
using namespace bundle_test;

namespace {

const TestDevice kDevices[] = {
    device(AG_BACKEND_CUDA, "sm_86"), device(AG_BACKEND_HIP, "gfx90a:sramecc+:xnack-"),
    device(AG_BACKEND_LEVEL_ZERO, "any"), device(AG_BACKEND_CPU, "x86_64-linux-gnu")};

void exercise(const Bytes& image) {
  for (const TestDevice& target : kDevices) {
    const Selected s = select(target, image);
    if (s.result == AG_SUCCESS) {
      ASSERT_GE(s.code.data, image.data());
      ASSERT_LE(s.code.data + s.code.size, image.data() + image.size());
    } else {
      ASSERT_FALSE(s.detail.empty());
    }
  }
  std::vector<CodeEntry> entries;
  std::string error;
  if (!list_code_entries(detect_code_object(image.data(), image.size()), &entries, &error)) return;
  for (const CodeEntry& entry : entries) {
    std::vector<std::string> kernels;
    code_object_kernels(entry.code, &kernels, &error);
  }
}

Bytes mutate(Bytes image, std::mt19937& random) {
  static const uint64_t kExtremes[] = {0,      1,          0x7f,       0xff,
                                       0xffff, 0xffffffff, UINT64_MAX, UINT64_MAX / 2};
  const size_t at = random() % image.size();
  switch (random() % 4) {
    case 0:
      image[at] ^= static_cast<unsigned char>(1u << (random() % 8));
      break;
    case 1:
      image[at] = static_cast<unsigned char>(random());
      break;
    case 2: {
      const uint64_t value = kExtremes[random() % (sizeof kExtremes / sizeof kExtremes[0])];
      const size_t width = size_t{1} << (random() % 4);
      if (at + width <= image.size()) memcpy(image.data() + at, &value, width);
      break;
    }
    default:
      image.resize(at);
      break;
  }
  return image;
}

TEST(Mutation, NoReaderCrashesOnCorruptedRealInputs) {
  const Bytes spirv = data_file("kernels.spv"), ptx = data_file("kernels_sm80.ptx");
  const std::vector<Bytes> inputs = {data_file("hipcc_gfx90a.bundle"),
                                     data_file("kernels_sm80_compute90.fatbin"),
                                     data_file("kernels_compressed.fatbin"),
                                     data_file("kernels_sm90.cubin"),
                                     data_file("gfx90a_xnack_on.co"),
                                     spirv,
                                     ptx,
                                     make_bundle({{"hip-spirv64-unknown-unknown", spirv},
                                                  {"hip-nvptx64-nvidia-cuda--compute_80", ptx}})};
  std::mt19937 random(20240611);
  for (const Bytes& input : inputs) {
    exercise(input);
    for (int round = 0; round < 1500; ++round) {
      Bytes image = mutate(input, random);
      if (round % 3 == 0 && !image.empty()) image = mutate(image, random);
      exercise(image);
      if (HasFatalFailure()) return;
    }
  }
}

}  // namespace
