/* cooperative_groups/reduce.h inside anygpu kernel builds: cg::reduce and its operators
 * (anygpu/detail/cooperative_groups_tile.h, through anygpu/cuda.h). */
#pragma once
#include <anygpu/cuda.h>
