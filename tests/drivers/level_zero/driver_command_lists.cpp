// Immediate command lists: each is a stream of the CPU backend, which runs what is appended in
// order. Barriers, copies, fills and event signals, resets and waits.
#include <cstring>
#include <memory>

#include "driver_api.h"
#include "driver_objects.h"

namespace anygpu::level_zero_test_driver {

ze_result_t zeCommandListCreateImmediate(ze_context_handle_t context, ze_device_handle_t device,
                                         const ze_command_queue_desc_t* desc,
                                         ze_command_list_handle_t* list) {
  DRIVER_ENTRY(zeCommandListCreateImmediate);
  const Device* d = as_device(device);
  if (!as<Context>(context, Kind::context) || !d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !list) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->ordinal != 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // The CPU backend's streams are in order: what anygpu asks for.
  if (!(desc->flags & ZE_COMMAND_QUEUE_FLAG_IN_ORDER)) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  auto created = std::make_unique<List>();
  created->device = d->index;  // its work runs on the host, as every device's does
  if (ag_result r = cpu().stream_create(0, &created->stream)) return from_ag(r);
  *list = reinterpret_cast<ze_command_list_handle_t>(static_cast<Object*>(created.release()));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListDestroy(ze_command_list_handle_t list) {
  DRIVER_ENTRY(zeCommandListDestroy);
  List* l = as<List>(list, Kind::list);
  if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  cpu().stream_destroy(l->stream);
  delete l;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListAppendMemoryCopy(ze_command_list_handle_t list, void* dst, const void* src,
                                          size_t size, ze_event_handle_t signal,
                                          uint32_t wait_count, ze_event_handle_t* waits) {
  DRIVER_ENTRY(zeCommandListAppendMemoryCopy);
  if (!dst || !src) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  List* l = as<List>(list, Kind::list);
  return append(l, signal, wait_count, waits, [&]() -> ze_result_t {
    return from_ag(cpu().copy(CopyKind::device_to_device, dst, src, size, l->stream));
  });
}

// Row (y, z) of the box is width bytes from
//   src + originX + (originY + y) * srcPitch + (originZ + z) * srcSlicePitch
// to the same place in dst. Depth 0 is a 2-D copy: one slice, and the specification says the
// slice pitches (so originZ too) are ignored. Pointers are not checked, as in AppendMemoryCopy.
ze_result_t zeCommandListAppendMemoryCopyRegion(ze_command_list_handle_t list, void* dst,
                                                const ze_copy_region_t* dst_region,
                                                uint32_t dst_pitch, uint32_t dst_slice_pitch,
                                                const void* src, const ze_copy_region_t* src_region,
                                                uint32_t src_pitch, uint32_t src_slice_pitch,
                                                ze_event_handle_t signal, uint32_t wait_count,
                                                ze_event_handle_t* waits) {
  DRIVER_ENTRY(zeCommandListAppendMemoryCopyRegion);
  if (!dst || !src || !dst_region || !src_region) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Only the origins may differ.
  if (dst_region->width != src_region->width || dst_region->height != src_region->height ||
      dst_region->depth != src_region->depth)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  List* l = as<List>(list, Kind::list);
  const ze_copy_region_t to = *dst_region, from = *src_region;
  return append(l, signal, wait_count, waits, [&]() -> ze_result_t {
    if (from.width == 0) return ZE_RESULT_SUCCESS;
    const uint32_t slices = from.depth ? from.depth : 1;
    // Offsets in size_t: origin + index may pass 2^32, and so may their products.
    auto at = [](const ze_copy_region_t& region, uint32_t pitch, uint32_t slice_pitch, size_t y,
                 size_t z) {
      const size_t slice = region.depth ? (size_t{region.originZ} + z) * slice_pitch : 0;
      return region.originX + (region.originY + y) * pitch + slice;
    };
    for (uint32_t z = 0; z < slices; ++z) {
      for (uint32_t y = 0; y < from.height; ++y) {
        char* row_dst = static_cast<char*>(dst) + at(to, dst_pitch, dst_slice_pitch, y, z);
        const char* row_src =
            static_cast<const char*>(src) + at(from, src_pitch, src_slice_pitch, y, z);
        if (ag_result r =
                cpu().copy(CopyKind::device_to_device, row_dst, row_src, from.width, l->stream))
          return from_ag(r);
      }
    }
    return ZE_RESULT_SUCCESS;
  });
}

ze_result_t zeCommandListAppendMemoryFill(ze_command_list_handle_t list, void* pointer,
                                          const void* pattern, size_t pattern_size, size_t size,
                                          ze_event_handle_t signal, uint32_t wait_count,
                                          ze_event_handle_t* waits) {
  DRIVER_ENTRY(zeCommandListAppendMemoryFill);
  if (!pointer || !pattern) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // anygpu fills 1-, 2- and 4-byte elements; the size is whole patterns, as the spec asks.
  if (pattern_size != 1 && pattern_size != 2 && pattern_size != 4)
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (size % pattern_size != 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  List* l = as<List>(list, Kind::list);
  uint32_t value = 0;
  memcpy(&value, pattern, pattern_size);
  const auto element_size = static_cast<unsigned>(pattern_size);
  return append(l, signal, wait_count, waits, [&] {
    return from_ag(cpu().fill(pointer, value, element_size, size / pattern_size, l->stream));
  });
}

// Memory stays where it is (host memory): prefetch and advice are ordered no-ops, checked.
ze_result_t zeCommandListAppendMemoryPrefetch(ze_command_list_handle_t list, const void* pointer,
                                              size_t size) {
  DRIVER_ENTRY(zeCommandListAppendMemoryPrefetch);
  if (!pointer) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (size == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  return append(as<List>(list, Kind::list), nullptr, 0, nullptr, [] { return ZE_RESULT_SUCCESS; });
}

ze_result_t zeCommandListAppendMemAdvise(ze_command_list_handle_t list, ze_device_handle_t device,
                                         const void* pointer, size_t size,
                                         ze_memory_advice_t advice) {
  DRIVER_ENTRY(zeCommandListAppendMemAdvise);
  if (!is_device(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pointer) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (size == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  if (advice > ZE_MEMORY_ADVICE_BIAS_UNCACHED) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return append(as<List>(list, Kind::list), nullptr, 0, nullptr, [] { return ZE_RESULT_SUCCESS; });
}

ze_result_t zeCommandListAppendBarrier(ze_command_list_handle_t list, ze_event_handle_t signal,
                                       uint32_t wait_count, ze_event_handle_t* waits) {
  DRIVER_ENTRY(zeCommandListAppendBarrier);
  return append(as<List>(list, Kind::list), signal, wait_count, waits,
                [] { return ZE_RESULT_SUCCESS; });  // an in-order list is a barrier already
}

ze_result_t zeCommandListAppendSignalEvent(ze_command_list_handle_t list, ze_event_handle_t event) {
  DRIVER_ENTRY(zeCommandListAppendSignalEvent);
  return append(as<List>(list, Kind::list), event, 0, nullptr, [] { return ZE_RESULT_SUCCESS; });
}

ze_result_t zeCommandListAppendWaitOnEvents(ze_command_list_handle_t list, uint32_t count,
                                            ze_event_handle_t* events) {
  DRIVER_ENTRY(zeCommandListAppendWaitOnEvents);
  return append(as<List>(list, Kind::list), nullptr, count, events,
                [] { return ZE_RESULT_SUCCESS; });
}

ze_result_t zeCommandListAppendEventReset(ze_command_list_handle_t list, ze_event_handle_t event) {
  DRIVER_ENTRY(zeCommandListAppendEventReset);
  List* l = as<List>(list, Kind::list);
  Event* e = as<Event>(event, Kind::event);
  if (!l || !e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!usable_on(*e, *l)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // The CPU backend's next record replaces the last one: the reset needs no work of its own.
  return ZE_RESULT_SUCCESS;
}

}  // namespace anygpu::level_zero_test_driver
