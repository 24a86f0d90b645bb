// Every backend anygpu knows, in default device order.
#pragma once

#include <memory>

#include "../shim/backend.h"

namespace anygpu {

std::unique_ptr<Backend> make_cuda_backend();
std::unique_ptr<Backend> make_hip_backend();
std::unique_ptr<Backend> make_level_zero_backend();
std::unique_ptr<Backend> make_cpu_backend();

}  // namespace anygpu
