// What the last successful hipModuleLoadData loaded, for anygpu_hip_test_last_image.
#pragma once

#include <string>

namespace anygpu::hip_test_driver {

struct LoadedImage {
  std::string target;  // "" before any load
  size_t bytes = 0;
  bool from_bundle = false;
};
LoadedImage last_loaded_image();

}  // namespace anygpu::hip_test_driver
