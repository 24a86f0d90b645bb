/* cooperative_groups.h inside anygpu kernel builds: anygpu's cooperative groups, block and grid
 * level (anygpu/detail/cooperative_groups_block.h, through anygpu/cuda.h). */
#pragma once
#include <anygpu/cuda.h>
