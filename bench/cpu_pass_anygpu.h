// The anygpu CPU device the bench's anygpu variants run on (null where there is none).
#pragma once

#include <anygpu/anygpu.h>

namespace cpu_pass_bench {

ag_device cpu_device();

}  // namespace cpu_pass_bench
