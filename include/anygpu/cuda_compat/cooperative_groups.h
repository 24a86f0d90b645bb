/* cooperative_groups.h inside anygpu kernel builds: anygpu's cooperative groups, block, grid and
 * warp level (anygpu/detail/cooperative_groups_*.h, through anygpu/cuda.h). */
#pragma once
#include <anygpu/cuda.h>
