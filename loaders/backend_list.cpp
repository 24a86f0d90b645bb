#include "loaders/backend_list.h"

#include <algorithm>

namespace anygpu {

#define ANYGPU_BACKEND(folder) extern const BackendDescriptor folder##_backend_descriptor;
#include "loaders/backend_list.inc"
#undef ANYGPU_BACKEND

const std::vector<const BackendDescriptor*>& backend_descriptors() {
  static const std::vector<const BackendDescriptor*> list = {
#define ANYGPU_BACKEND(folder) &folder##_backend_descriptor,
#include "loaders/backend_list.inc"
#undef ANYGPU_BACKEND
  };
  return list;
}

const BackendDescriptor* find_backend_descriptor(ag_backend_kind kind) {
  const auto& list = backend_descriptors();
  const auto found = std::find_if(list.begin(), list.end(),
                                  [&](const BackendDescriptor* d) { return d->kind == kind; });
  return found == list.end() ? nullptr : *found;
}

}  // namespace anygpu
