#include "shim/core/occupancy_model.h"

#include <algorithm>

namespace anygpu {

ag_result search_block_size(DeviceBackend& backend, void* function, const BlockSizeSearch& search,
                            size_t dynamic_shared, int* min_grid_size, int* block_size) {
  const int step = std::max(search.warp_size, 1);
  int top = search.max_threads;
  if (search.limit > 0) top = std::min(top, search.limit);
  // From the top down, so that of equal occupancies the largest block wins (as CUDA's search).
  int best_size = 0, best_blocks = 0;
  long long best_threads = 0;
  for (int size = top; size > 0; size = (size - 1) / step * step) {
    int blocks = 0;
    if (ag_result r = backend.occupancy_max_active_blocks(function, size, dynamic_shared, &blocks))
      return r;
    const long long threads = static_cast<long long>(blocks) * size;
    if (threads > best_threads) {
      best_threads = threads;
      best_size = size;
      best_blocks = blocks;
    }
  }
  *block_size = best_size;
  *min_grid_size = best_blocks * search.compute_units;
  return AG_SUCCESS;
}

}  // namespace anygpu
