// The block-size search where the driver has no occupancy call (Level Zero, the CPU): the
// largest block size, in steps of the warp, that keeps the most threads resident, by the
// backend's count of resident blocks per compute unit.
#pragma once

#include <cstddef>

#include "shim/core/backend.h"

namespace anygpu {

struct BlockSizeSearch {
  int max_threads;    // the function's limit
  int warp_size;      // the step
  int compute_units;  // for the grid that fills the device
  int limit;          // the caller's limit; 0: none
};

ag_result search_block_size(DeviceBackend& backend, void* function, const BlockSizeSearch& search,
                            size_t dynamic_shared, int* min_grid_size, int* block_size);

}  // namespace anygpu
