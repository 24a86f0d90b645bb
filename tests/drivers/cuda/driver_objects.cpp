#include "driver_objects.h"

#include "driver_cpu.h"
#include "driver_object_tables.h"

namespace anygpu::cuda_test_driver {
namespace {

Context* context_of(const Allocation& allocation) {
  return allocation.context;
}
template <typename Owner>
Context* context_of(const Owner& object) {
  return object->context;
}

// Erases each entry of `table` made in `context`, after `take(entry)`.
template <typename Map, typename Take>
void take_all(Map& table, Context* context, Take take) {
  for (auto it = table.begin(); it != table.end();) {
    if (context_of(it->second) != context) {
      ++it;
      continue;
    }
    take(*it);
    it = table.erase(it);
  }
}

}  // namespace

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

std::shared_ptr<Stream> Objects::stream(CUstream handle) const {
  return test_driver::find_object(streams, handle);
}

std::shared_ptr<Event> Objects::event(CUevent handle) const {
  return test_driver::find_object(events, handle);
}

Module* Objects::module(CUmodule handle) const {
  const auto found = modules.find(handle);
  return found == modules.end() ? nullptr : found->second.get();
}

Function* Objects::function(CUfunction handle) const {
  return test_driver::find_object(functions, handle);
}

bool Objects::accessible(const void* pointer, size_t bytes) const {
  return test_driver::inside_allocation(allocations, pointer, bytes) ||
         test_driver::inside_allocation(variables, pointer, bytes);
}

std::vector<std::shared_ptr<Stream>> Objects::streams_of(Context* context,
                                                         bool blocking_only) const {
  std::vector<std::shared_ptr<Stream>> found;
  for (const auto& [handle, stream] : streams)
    if (stream->context == context && !(blocking_only && (stream->flags & CU_STREAM_NON_BLOCKING)))
      found.push_back(stream);
  return found;
}

void Objects::forget_functions(const Module& module) {
  for (const auto& [name, function] : module.functions) functions.erase(function.get());
}

CUresult find_stream(CUstream handle, Context* context, std::shared_ptr<Stream>* stream) {
  std::lock_guard<std::mutex> lock(objects().mutex);
  *stream = objects().stream(handle);
  return *stream && (*stream)->context == context ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult find_event(CUevent handle, std::shared_ptr<Event>* event) {
  std::lock_guard<std::mutex> lock(objects().mutex);
  *event = objects().event(handle);
  return *event ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

void synchronize_blocking_streams(Context* context) {
  std::vector<std::shared_ptr<Stream>> streams;
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    streams = objects().streams_of(context, true);
  }
  for (const auto& stream : streams) cpu().stream_synchronize(stream->native);
}

CUresult stream_for_work(Context* context, CUstream stream, std::shared_ptr<Stream>* found) {
  found->reset();
  if (is_default_stream(stream)) {
    synchronize_blocking_streams(context);
    return CUDA_SUCCESS;
  }
  return find_stream(stream, context, found);
}

void synchronize_context(Context* context) {
  std::vector<std::shared_ptr<Stream>> streams;
  {
    Objects& o = objects();
    std::lock_guard<std::mutex> lock(o.mutex);
    streams = o.streams_of(context, false);
    if (auto found = o.default_streams.find(context); found != o.default_streams.end())
      streams.push_back(found->second);
  }
  for (const auto& stream : streams) cpu().stream_synchronize(stream->native);
}

std::shared_ptr<Stream> default_stream(Context* context) {
  Objects& o = objects();
  std::lock_guard<std::mutex> lock(o.mutex);
  std::shared_ptr<Stream>& stream = o.default_streams[context];
  if (!stream) {
    void* native = nullptr;
    cpu().stream_create(0, &native);
    stream.reset(new Stream{context, native, 0});
  }
  return stream;
}

void destroy_objects(Context* context) {
  // Taken out under the lock, destroyed after it: streams first (their destructors wait for
  // pending work, which may use the memory), then the rest.
  std::vector<std::shared_ptr<Stream>> streams;
  std::vector<std::shared_ptr<Event>> events;
  std::vector<std::unique_ptr<Module>> modules;
  std::vector<std::pair<void*, Allocation>> allocations, pooled;
  {
    Objects& o = objects();
    std::lock_guard<std::mutex> lock(o.mutex);
    take_all(o.streams, context, [&](auto& entry) { streams.push_back(std::move(entry.second)); });
    if (auto found = o.default_streams.find(context); found != o.default_streams.end()) {
      streams.push_back(std::move(found->second));
      o.default_streams.erase(found);
    }
    take_all(o.events, context, [&](auto& entry) { events.push_back(std::move(entry.second)); });
    take_all(o.modules, context, [&](auto& entry) {
      o.forget_functions(*entry.second);
      modules.push_back(std::move(entry.second));
    });
    take_all(o.allocations, context, [&](auto& entry) {
      auto& taken = entry.second.pool ? pooled : allocations;
      if (!entry.second.host && !entry.second.pool) o.device_bytes -= entry.second.bytes;
      taken.emplace_back(reinterpret_cast<void*>(entry.first), entry.second);
    });
  }
  streams.clear();
  events.clear();
  modules.clear();
  // The streams' work is done: a pool's allocation is freed at once, back to its pool.
  for (const auto& [pointer, allocation] : pooled)
    pools().free(allocation.pool, pointer, allocation.bytes, nullptr);
  for (const auto& [pointer, allocation] : allocations) {
    if (allocation.host)
      cpu().host_free(pointer);
    else
      cpu().mem_free(pointer);
  }
}

long live_objects() {
  Objects& o = objects();
  std::lock_guard<std::mutex> lock(o.mutex);
  return static_cast<long>(o.allocations.size() + o.streams.size() + o.events.size() +
                           o.modules.size());
}

}  // namespace anygpu::cuda_test_driver
