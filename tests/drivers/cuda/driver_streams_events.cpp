// Streams (asynchronous CPU streams) and events. The legacy default stream (NULL,
// CU_STREAM_LEGACY, CU_STREAM_PER_THREAD) runs its work to completion after the blocking streams'
// work; an event recorded on it is recorded on a stream of the driver's own and waited for.
#include <algorithm>

#include "driver_cpu.h"
#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::cuda_test_driver {
namespace {

constexpr unsigned kStreamFlags = CU_STREAM_NON_BLOCKING;
constexpr int kGreatestPriority = -5;  // an H100's range is [-5, 0]
constexpr unsigned kEventFlags =
    CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;

// A stream or event: the CPU backend's, made by `create` with `flags`, added to `table`.
template <typename T, typename Handle>
CUresult create_object(Table<std::shared_ptr<T>> Objects::* table, Context* context, unsigned flags,
                       ag_result (DeviceBackend::*create)(unsigned, void**), Handle* handle) {
  void* native = nullptr;
  if (CUresult r = from_cpu((cpu().*create)(flags, &native))) return r;
  add_object(table, std::shared_ptr<T>(new T{context, native, flags}), handle);
  return CUDA_SUCCESS;
}

// With a current context: `op` on the CPU event of `handle` (an event of any context).
CUresult on_event(CUevent handle, ag_result (DeviceBackend::*op)(void*)) {
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  std::shared_ptr<Event> found;
  if (CUresult r = find_event(handle, &found)) return r;
  return from_cpu((cpu().*op)(found->native));
}

}  // namespace

}  // namespace anygpu::cuda_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::cuda {

using namespace cuda_test_driver;

ANYGPU_CUDA_TEST_API CUresult cuStreamCreate(CUstream* stream, unsigned flags) {
  DRIVER_ENTRY(cuStreamCreate);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!stream || (flags & ~kStreamFlags)) return CUDA_ERROR_INVALID_VALUE;
  return create_object(&Objects::streams, context, flags, &DeviceBackend::stream_create, stream);
}

// The CPU streams have no priorities: one is kept, clamped to the range (an H100's), and has no
// effect.
ANYGPU_CUDA_TEST_API CUresult cuStreamCreateWithPriority(CUstream* stream, unsigned flags,
                                                         int priority) {
  DRIVER_ENTRY(cuStreamCreateWithPriority);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!stream || (flags & ~kStreamFlags)) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r =
          create_object(&Objects::streams, context, flags, &DeviceBackend::stream_create, stream))
    return r;
  std::shared_ptr<Stream> made;  // not yet seen by another thread: the handle is just returned
  if (CUresult r = find_stream(*stream, context, &made)) return r;
  made->priority = std::max(kGreatestPriority, std::min(0, priority));
  return CUDA_SUCCESS;
}

// The context a stream was made in (any context's stream; the default stream is the current's).
ANYGPU_CUDA_TEST_API CUresult cuStreamGetCtx(CUstream stream, CUcontext* owner) {
  DRIVER_ENTRY(cuStreamGetCtx);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!owner) return CUDA_ERROR_INVALID_VALUE;
  if (is_default_stream(stream)) {
    *owner = to_handle(context);
    return CUDA_SUCCESS;
  }
  std::shared_ptr<Stream> found;
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    found = objects().stream(stream);
  }
  if (!found) return CUDA_ERROR_INVALID_HANDLE;
  *owner = to_handle(found->context);
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuStreamGetPriority(CUstream stream, int* priority) {
  DRIVER_ENTRY(cuStreamGetPriority);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!priority) return CUDA_ERROR_INVALID_VALUE;
  if (is_default_stream(stream)) {
    *priority = 0;
    return CUDA_SUCCESS;
  }
  std::shared_ptr<Stream> found;
  if (CUresult r = find_stream(stream, context, &found)) return r;
  *priority = found->priority;
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuCtxGetStreamPriorityRange(int* least, int* greatest) {
  DRIVER_ENTRY(cuCtxGetStreamPriorityRange);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (least) *least = 0;
  if (greatest) *greatest = kGreatestPriority;
  return CUDA_SUCCESS;
}

// Pending work finishes first (the CPU stream's destructor waits for it).
ANYGPU_CUDA_TEST_API CUresult cuStreamDestroy_v2(CUstream stream) {
  DRIVER_ENTRY(cuStreamDestroy_v2);
  return destroy_object(&Objects::streams, stream);
}

ANYGPU_CUDA_TEST_API CUresult cuStreamSynchronize(CUstream stream) {
  DRIVER_ENTRY(cuStreamSynchronize);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (is_default_stream(stream)) {
    synchronize_blocking_streams(context);
    return CUDA_SUCCESS;
  }
  std::shared_ptr<Stream> found;
  if (CUresult r = find_stream(stream, context, &found)) return r;
  return from_cpu(cpu().stream_synchronize(found->native));
}

ANYGPU_CUDA_TEST_API CUresult cuStreamQuery(CUstream stream) {
  DRIVER_ENTRY(cuStreamQuery);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (is_default_stream(stream)) return CUDA_SUCCESS;  // its work has run to completion
  std::shared_ptr<Stream> found;
  if (CUresult r = find_stream(stream, context, &found)) return r;
  return from_cpu(cpu().stream_query(found->native));
}

// The default stream waits on the host, as its work runs there to completion anyway.
ANYGPU_CUDA_TEST_API CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned flags) {
  DRIVER_ENTRY(cuStreamWaitEvent);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Event> waited;
  if (CUresult r = find_event(event, &waited)) return r;
  if (is_default_stream(stream)) return from_cpu(cpu().event_synchronize(waited->native));
  std::shared_ptr<Stream> found;
  if (CUresult r = find_stream(stream, context, &found)) return r;
  return from_cpu(cpu().stream_wait_event(found->native, waited->native));
}

// On the legacy default stream the function runs at once, its stream's work having run to
// completion; on another stream, on that CPU stream's thread, in order.
ANYGPU_CUDA_TEST_API CUresult cuLaunchHostFunc(CUstream stream, void (*fn)(void* data),
                                               void* data) {
  DRIVER_ENTRY(cuLaunchHostFunc);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!fn) return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Stream> on;
  if (CUresult r = stream_for_work(context, stream, &on)) return r;
  if (!on) {
    fn(data);
    return CUDA_SUCCESS;
  }
  return from_cpu(cpu().launch_host_func(on->native, fn, data));
}

ANYGPU_CUDA_TEST_API CUresult cuEventCreate(CUevent* event, unsigned flags) {
  DRIVER_ENTRY(cuEventCreate);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!event || (flags & ~kEventFlags)) return CUDA_ERROR_INVALID_VALUE;
  if ((flags & CU_EVENT_INTERPROCESS) && !(flags & CU_EVENT_DISABLE_TIMING))
    return CUDA_ERROR_INVALID_VALUE;
  return create_object(&Objects::events, context, flags, &DeviceBackend::event_create, event);
}

// A record still queued keeps the CPU event alive (it is reference-counted).
ANYGPU_CUDA_TEST_API CUresult cuEventDestroy_v2(CUevent event) {
  DRIVER_ENTRY(cuEventDestroy_v2);
  return destroy_object(&Objects::events, event);
}

ANYGPU_CUDA_TEST_API CUresult cuEventRecord(CUevent event, CUstream stream) {
  DRIVER_ENTRY(cuEventRecord);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  std::shared_ptr<Event> recorded;
  if (CUresult r = find_event(event, &recorded)) return r;
  if (recorded->context != context) return CUDA_ERROR_INVALID_HANDLE;
  std::shared_ptr<Stream> on;
  if (CUresult r = stream_for_work(context, stream, &on)) return r;
  const bool on_default = !on;
  if (on_default) on = default_stream(context);
  if (CUresult r = from_cpu(cpu().event_record(recorded->native, on->native))) return r;
  recorded->recorded.store(true, std::memory_order_release);
  // The default stream's work has run to completion, so its record completes now too: later
  // default-stream work must not run before the timestamp is taken.
  if (on_default) cpu().stream_synchronize(on->native);
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuEventSynchronize(CUevent event) {
  DRIVER_ENTRY(cuEventSynchronize);
  return on_event(event, &DeviceBackend::event_synchronize);
}

ANYGPU_CUDA_TEST_API CUresult cuEventQuery(CUevent event) {
  DRIVER_ENTRY(cuEventQuery);
  return on_event(event, &DeviceBackend::event_query);
}

// Both events recorded and timing: else CUDA_ERROR_INVALID_HANDLE (the CUDA documentation's
// answer for either); not yet completed: CUDA_ERROR_NOT_READY.
ANYGPU_CUDA_TEST_API CUresult cuEventElapsedTime(float* milliseconds, CUevent start, CUevent end) {
  DRIVER_ENTRY(cuEventElapsedTime);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!milliseconds) return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Event> first, last;
  if (CUresult r = find_event(start, &first)) return r;
  if (CUresult r = find_event(end, &last)) return r;
  for (const auto& event : {first, last}) {
    if ((event->flags & CU_EVENT_DISABLE_TIMING) ||
        !event->recorded.load(std::memory_order_acquire))
      return CUDA_ERROR_INVALID_HANDLE;
  }
  return from_cpu(cpu().event_elapsed(milliseconds, first->native, last->native));
}

}  // namespace anygpu::cuda
