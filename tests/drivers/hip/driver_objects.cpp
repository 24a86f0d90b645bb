#include "driver_objects.h"

#include "driver_cpu.h"
#include "driver_object_tables.h"
#include "driver_state.h"

namespace anygpu::hip_test_driver {
namespace {

// Each thread starts on device 0, as in HIP.
thread_local int thread_device = 0;

}  // namespace

DeviceBackend& cpu() {
  return test_driver::cpu(kDriverName);
}

hipError_t from_cpu(ag_result result) {
  switch (result) {
    case AG_SUCCESS:
      return hipSuccess;
    case AG_ERROR_OUT_OF_MEMORY:
      return hipErrorOutOfMemory;
    case AG_ERROR_NOT_READY:
      return hipErrorNotReady;
    case AG_ERROR_INVALID_VALUE:
    case AG_ERROR_INVALID_CONFIGURATION:
      return hipErrorInvalidValue;
    case AG_ERROR_NOT_FOUND:
      return hipErrorNotFound;
    case AG_ERROR_NOT_SUPPORTED:
      return hipErrorNotSupported;
    case AG_ERROR_LAUNCH_FAILED:
      return hipErrorLaunchFailure;
    default:
      return hipErrorUnknown;
  }
}

hipError_t require_device(int device) {
  return device >= 0 && device < config().device_count ? hipSuccess : hipErrorInvalidDevice;
}

hipError_t current_device(int* device) {
  if (config().device_count == 0) return hipErrorNoDevice;
  *device = thread_device;
  return hipSuccess;
}

void set_current_device(int device) {
  thread_device = device;
}

Stream::~Stream() {
  cpu().stream_destroy(native);
}

Event::~Event() {
  cpu().event_destroy(native);
}

Objects& objects() {
  static Objects* const instance = new Objects;  // outlives every thread that may use it
  return *instance;
}

std::shared_ptr<Stream> Objects::stream(hipStream_t handle) const {
  return test_driver::find_object(streams, handle);
}

std::shared_ptr<Event> Objects::event(hipEvent_t handle) const {
  return test_driver::find_object(events, handle);
}

Module* Objects::module(hipModule_t handle) const {
  const auto found = modules.find(handle);
  return found == modules.end() ? nullptr : found->second.get();
}

Function* Objects::function(hipFunction_t handle) const {
  return test_driver::find_object(functions, handle);
}

bool Objects::accessible(const void* pointer, size_t bytes) const {
  return test_driver::inside_allocation(allocations, pointer, bytes) ||
         test_driver::inside_allocation(variables, pointer, bytes);
}

int Objects::device_of(const void* pointer) const {
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  auto after = allocations.upper_bound(address);
  if (after == allocations.begin()) return -1;
  const auto& [start, allocation] = *--after;
  return address - start < allocation.bytes ? allocation.device : -1;
}

std::vector<std::shared_ptr<Stream>> Objects::streams_of(int device, bool blocking_only) const {
  std::vector<std::shared_ptr<Stream>> found;
  for (const auto& [handle, stream] : streams)
    if (stream->device == device && !(blocking_only && (stream->flags & hipStreamNonBlocking)))
      found.push_back(stream);
  return found;
}

void synchronize_blocking_streams(int device) {
  std::vector<std::shared_ptr<Stream>> streams;
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    streams = objects().streams_of(device, true);
  }
  for (const auto& stream : streams) cpu().stream_synchronize(stream->native);
}

hipError_t stream_for_work(hipStream_t stream, int* device, std::shared_ptr<Stream>* found) {
  found->reset();
  if (is_null_stream(stream)) {
    if (hipError_t r = current_device(device)) return r;
    synchronize_blocking_streams(*device);
    return hipSuccess;
  }
  std::lock_guard<std::mutex> lock(objects().mutex);
  *found = objects().stream(stream);
  if (!*found) return hipErrorInvalidHandle;
  *device = (*found)->device;
  return hipSuccess;
}

void synchronize_device(int device) {
  std::vector<std::shared_ptr<Stream>> streams;
  {
    Objects& o = objects();
    std::lock_guard<std::mutex> lock(o.mutex);
    streams = o.streams_of(device, false);
    if (o.null_streams[device]) streams.push_back(o.null_streams[device]);
  }
  for (const auto& stream : streams) cpu().stream_synchronize(stream->native);
}

std::shared_ptr<Stream> null_stream(int device) {
  Objects& o = objects();
  std::lock_guard<std::mutex> lock(o.mutex);
  std::shared_ptr<Stream>& stream = o.null_streams[device];
  if (!stream) {
    void* native = nullptr;
    cpu().stream_create(0, &native);
    stream.reset(new Stream{device, native, 0});
  }
  return stream;
}

long live_objects() {
  Objects& o = objects();
  std::lock_guard<std::mutex> lock(o.mutex);
  return static_cast<long>(o.allocations.size() + o.streams.size() + o.events.size() +
                           o.modules.size());
}

}  // namespace anygpu::hip_test_driver
