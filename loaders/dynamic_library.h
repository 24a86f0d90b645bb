// Opening vendor driver libraries: an environment override first, then candidates newest first,
// each reused if the process has already loaded it (RTLD_NOLOAD). Never dlclose'd.
#pragma once

#include <string>
#include <vector>

namespace anygpu {

struct OpenedLibrary {
  void* handle = nullptr;
  std::string path;   // what was opened, or the last name tried
  std::string error;  // why nothing could be opened
};

OpenedLibrary open_library(const std::vector<std::string>& candidates, const char* override_env);

}  // namespace anygpu
