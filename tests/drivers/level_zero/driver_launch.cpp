// Kernel launches: the arguments set on the kernel, run on the list's stream by the CPU backend.
#include <mutex>
#include <vector>

#include "driver_api.h"
#include "driver_objects.h"

namespace anygpu::level_zero_test_driver {

ze_result_t zeCommandListAppendLaunchKernel(ze_command_list_handle_t list,
                                            ze_kernel_handle_t kernel,
                                            const ze_group_count_t* groups,
                                            ze_event_handle_t signal, uint32_t wait_count,
                                            ze_event_handle_t* waits) {
  DRIVER_ENTRY(zeCommandListAppendLaunchKernel);
  Kernel* k = as<Kernel>(kernel, Kind::kernel);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!groups) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const uint32_t count[3] = {groups->groupCountX, groups->groupCountY, groups->groupCountZ};
  for (int i = 0; i < 3; ++i)
    if (count[i] == 0 || count[i] > kMaxGroupCount[i]) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  List* l = as<List>(list, Kind::list);
  return append(l, signal, wait_count, waits, [&]() -> ze_result_t {
    std::lock_guard<std::mutex> lock(k->mutex);
    std::vector<void*> params;
    for (size_t i = 0; i < k->set.size(); ++i) {
      if (!k->set[i]) return ZE_RESULT_ERROR_INVALID_ARGUMENT;  // an argument never set
      if (i < k->layout.size()) params.push_back(k->values[i].data());
    }
    LaunchConfig config{{count[0], count[1], count[2]},
                        {k->group[0], k->group[1], k->group[2]},
                        static_cast<unsigned>(k->local_bytes)};
    // The CPU backend copies the arguments before it returns.
    return from_ag(cpu().launch(k->native, config, params.data(), l->stream));
  });
}

}  // namespace anygpu::level_zero_test_driver
