// Loading the Level Zero loader: the library (never dlclose'd), every entry point, and zeInit for
// GPUs only.
#pragma once

#include <string>

#include "loaders/level_zero/level_zero_api.h"

namespace anygpu::level_zero {

struct LevelZeroLoader {
  std::string path;  // the library opened, or the last name tried
  LevelZeroFunctions fn;
};

// Opens the loader, resolves its functions and initialises it. False with `reason` (naming the
// loader's own error, or the missing functions) when it cannot be used.
bool load_level_zero(LevelZeroLoader* loader, std::string* reason);

}  // namespace anygpu::level_zero
