// anygpu.hpp — a header-only C++17 layer over the anygpu C ABI (anygpu.h). It needs nothing but
// anygpu.h and the standard library.
//
//  - Errors are exceptions: anygpu::error carries the ag_result (code()) and the detail
//    agGetLastErrorDetail gave (what() reads "agMemAlloc: ... (AG_ERROR_OUT_OF_MEMORY)").
//  - device is a thin value (a device handle is never destroyed). device_memory<T>,
//    pinned_memory<T>, stream, event and module own what they hold: move-only; a moved-from owner
//    is empty and destroys nothing; destructors never throw (reset() returns the result instead).
//  - function is a non-owning kernel handle that remembers its name and parameter layout; it is
//    valid as long as its module is loaded.
//  - launch(kernel, grid, block, args...) packs the arguments for agLaunchKernel and, where the
//    kernel's parameter layout is known, checks their count, sizes and kinds before anything
//    reaches the device.
//
// docs/cpp-api.md describes it, with a complete example.
#ifndef ANYGPU_ANYGPU_HPP
#define ANYGPU_ANYGPU_HPP

#include <anygpu/anygpu.h>

#include <array>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace anygpu {

// ------------------------------------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------------------------------------

// The enumerator's name of `result`, e.g. "AG_ERROR_INVALID_VALUE".
inline const char* result_name(ag_result result) noexcept {
  const char* name = nullptr;
  if (agGetErrorName(result, &name) != AG_SUCCESS || !name) return "AG_ERROR_UNKNOWN";
  return name;
}

// A one-line description of `result`.
inline const char* result_string(ag_result result) noexcept {
  const char* text = nullptr;
  if (agGetErrorString(result, &text) != AG_SUCCESS || !text) return "unknown error";
  return text;
}

// A failed anygpu call, or a mistake the C++ layer caught before making one.
class error : public std::runtime_error {
 public:
  // `detail` is "<call>: <reason>"; " (<AG_ERROR_...>)" is appended unless it ends with it.
  error(ag_result code, const std::string& detail)
      : std::runtime_error(with_code(code, detail)), code_(code), detail_(detail) {}

  ag_result code() const noexcept { return code_; }
  // The enumerator's name of code().
  const char* name() const noexcept { return result_name(code_); }
  // The runtime's detail exactly as agGetLastErrorDetail gave it, or the message of a mistake the
  // C++ layer found itself. what() is this with " (<code name>)" appended unless it ends with it.
  const std::string& detail() const noexcept { return detail_; }

 private:
  static std::string with_code(ag_result code, const std::string& detail) {
    const std::string suffix = std::string(" (") + result_name(code) + ")";
    if (detail.size() >= suffix.size() &&
        detail.compare(detail.size() - suffix.size(), suffix.size(), suffix) == 0)
      return detail;
    return detail + suffix;
  }

  ag_result code_;
  std::string detail_;
};

namespace detail {

// The error for `result` from `call`, with this thread's error detail when it is about this
// failure (it names the code), else "<call>: <description>".
[[noreturn]] inline void throw_error(ag_result result, const char* call) {
  const char* raw = nullptr;
  std::string detail;
  if (agGetLastErrorDetail(&raw) == AG_SUCCESS && raw) detail = raw;
  const std::string suffix = std::string(" (") + result_name(result) + ")";
  const bool about_this = detail.size() >= suffix.size() &&
                          detail.compare(detail.size() - suffix.size(), suffix.size(), suffix) == 0;
  if (!about_this) detail = std::string(call ? call : "anygpu") + ": " + result_string(result);
  throw error(result, detail);
}

}  // namespace detail

// Throws anygpu::error unless `result` is AG_SUCCESS. `call` names the C function for the message
// when the thread's error detail has nothing about this failure.
inline void check(ag_result result, const char* call = nullptr) {
  if (result != AG_SUCCESS) detail::throw_error(result, call);
}

// ------------------------------------------------------------------------------------------------
// Devices
// ------------------------------------------------------------------------------------------------

struct memory_info {
  std::size_t free_bytes;
  std::size_t total_bytes;
};

// A device: a plain handle, copied freely; devices live as long as the process.
class device {
 public:
  device() noexcept = default;
  explicit device(ag_device handle) noexcept : handle_(handle) {}

  // The number of devices; device 0 is the best one.
  static int count() {
    int n = 0;
    check(agDeviceGetCount(&n), "agDeviceGetCount");
    return n;
  }
  static device get(int ordinal) {
    ag_device handle = nullptr;
    check(agDeviceGet(ordinal, &handle), "agDeviceGet");
    return device(handle);
  }

  ag_device handle() const noexcept { return handle_; }
  explicit operator bool() const noexcept { return handle_ != nullptr; }

  ag_device_properties properties() const {
    ag_device_properties p{};
    p.struct_size = sizeof p;
    check(agDeviceGetProperties(handle_, &p), "agDeviceGetProperties");
    return p;
  }
  std::string name() const { return properties().name; }
  ag_backend_kind backend() const { return properties().backend; }
  memory_info memory() const {
    memory_info info{};
    check(agMemGetInfo(handle_, &info.free_bytes, &info.total_bytes), "agMemGetInfo");
    return info;
  }
  // Waits until all work on all of the device's streams has finished.
  void synchronize() const { check(agDeviceSynchronize(handle_), "agDeviceSynchronize"); }
  // The driver's objects behind the device (agDeviceGetNativeHandle); AG_ERROR_NOT_SUPPORTED on
  // the CPU device.
  ag_native_device native_handle() const {
    ag_native_device n{};
    n.struct_size = sizeof n;
    check(agDeviceGetNativeHandle(handle_, &n), "agDeviceGetNativeHandle");
    return n;
  }

  // Peers: whether this device's kernels can be given access to `peer`'s memory, and giving or
  // withdrawing it (agDeviceCanAccessPeer, agDeviceEnablePeerAccess, agDeviceDisablePeerAccess).
  bool can_access_peer(const device& peer) const {
    int can = 0;
    check(agDeviceCanAccessPeer(handle_, peer.handle_, &can), "agDeviceCanAccessPeer");
    return can != 0;
  }
  void enable_peer_access(const device& peer) const {
    check(agDeviceEnablePeerAccess(handle_, peer.handle_, 0), "agDeviceEnablePeerAccess");
  }
  void disable_peer_access(const device& peer) const {
    check(agDeviceDisablePeerAccess(handle_, peer.handle_), "agDeviceDisablePeerAccess");
  }

  friend bool operator==(const device& a, const device& b) noexcept {
    return a.handle_ == b.handle_;
  }
  friend bool operator!=(const device& a, const device& b) noexcept { return !(a == b); }

 private:
  ag_device handle_ = nullptr;
};

class event;

// ------------------------------------------------------------------------------------------------
// Streams and events
// ------------------------------------------------------------------------------------------------

// An in-order asynchronous queue of a device (agStreamCreate / agStreamDestroy).
class stream {
 public:
  stream() noexcept = default;
  explicit stream(const anygpu::device& dev, unsigned int flags = 0) : device_(dev.handle()) {
    check(agStreamCreate(device_, flags, &handle_), "agStreamCreate");
  }
  // A stream of `priority`, clamped to the device's range (agStreamCreateWithPriority).
  static stream with_priority(const anygpu::device& dev, int priority) {
    stream made;
    made.device_ = dev.handle();
    check(agStreamCreateWithPriority(made.device_, 0, priority, &made.handle_),
          "agStreamCreateWithPriority");
    return made;
  }
  // An owner of a stream over the application's `native` one (agStreamCreateFromNative): its
  // destructor waits for it and leaves the native stream to the application.
  static stream from_native(const anygpu::device& dev, void* native) {
    stream made;
    made.device_ = dev.handle();
    check(agStreamCreateFromNative(made.device_, native, 0, &made.handle_),
          "agStreamCreateFromNative");
    return made;
  }
  ~stream() { reset(); }
  stream(stream&& other) noexcept
      : device_(other.device_), handle_(std::exchange(other.handle_, nullptr)) {}
  stream& operator=(stream&& other) noexcept {
    if (this != &other) {
      reset();
      device_ = other.device_;
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;

  ag_stream get() const noexcept { return handle_; }
  anygpu::device device() const noexcept { return anygpu::device(device_); }
  explicit operator bool() const noexcept { return handle_ != nullptr; }

  void synchronize() const { check(agStreamSynchronize(handle_), "agStreamSynchronize"); }
  // The priority it was created with, clamped to the device's range (agStreamGetPriority).
  int priority() const {
    int value = 0;
    check(agStreamGetPriority(handle_, &value), "agStreamGetPriority");
    return value;
  }
  // True when all work queued so far has finished.
  bool query() const {
    const ag_result r = agStreamQuery(handle_);
    if (r == AG_ERROR_NOT_READY) return false;
    check(r, "agStreamQuery");
    return true;
  }
  // Work queued after this call waits until `e`'s latest record has completed.
  inline void wait(const event& e, unsigned int flags = 0) const;
  // Calls `fn(user_data)` on a thread of anygpu's once the work queued so far has completed;
  // later work waits for it to return (agLaunchHostFunc, whose rules it follows).
  void launch_host_func(ag_host_fn fn, void* user_data) const {
    check(agLaunchHostFunc(handle_, fn, user_data), "agLaunchHostFunc");
  }
  // The driver's stream (agStreamGetNativeHandle): a CUstream, hipStream_t or Level Zero command
  // list, to hand to a vendor library; AG_ERROR_NOT_SUPPORTED on the CPU device.
  void* native_handle() const {
    void* native = nullptr;
    check(agStreamGetNativeHandle(handle_, &native), "agStreamGetNativeHandle");
    return native;
  }

  // Waits for the queued work, destroys the stream and leaves this owner empty. Never throws:
  // returns agStreamDestroy's result (AG_SUCCESS when empty).
  ag_result reset() noexcept {
    if (!handle_) return AG_SUCCESS;
    return agStreamDestroy(std::exchange(handle_, nullptr));
  }
  // Gives up ownership: the caller destroys the returned handle.
  ag_stream release() noexcept { return std::exchange(handle_, nullptr); }

 private:
  ag_device device_ = nullptr;
  ag_stream handle_ = nullptr;
};

// A marker in a stream, with a timestamp (agEventCreate / agEventDestroy).
class event {
 public:
  event() noexcept = default;
  explicit event(const anygpu::device& dev, unsigned int flags = 0) {
    check(agEventCreate(dev.handle(), flags, &handle_), "agEventCreate");
  }
  ~event() { reset(); }
  event(event&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  event& operator=(event&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  event(const event&) = delete;
  event& operator=(const event&) = delete;

  ag_event get() const noexcept { return handle_; }
  explicit operator bool() const noexcept { return handle_ != nullptr; }

  // Records the event at the current end of `s` (a stream of the event's device).
  void record(const anygpu::stream& s) const {
    check(agEventRecord(handle_, s.get()), "agEventRecord");
  }
  void synchronize() const { check(agEventSynchronize(handle_), "agEventSynchronize"); }
  // True when the latest record has completed (or the event was never recorded).
  bool query() const {
    const ag_result r = agEventQuery(handle_);
    if (r == AG_ERROR_NOT_READY) return false;
    check(r, "agEventQuery");
    return true;
  }

  ag_result reset() noexcept {
    if (!handle_) return AG_SUCCESS;
    return agEventDestroy(std::exchange(handle_, nullptr));
  }
  ag_event release() noexcept { return std::exchange(handle_, nullptr); }

 private:
  ag_event handle_ = nullptr;
};

// Milliseconds between two completed records (agEventElapsedTime).
inline float elapsed_ms(const event& start, const event& end) {
  float ms = 0.0f;
  check(agEventElapsedTime(&ms, start.get(), end.get()), "agEventElapsedTime");
  return ms;
}

inline void stream::wait(const event& e, unsigned int flags) const {
  check(agStreamWaitEvent(handle_, e.get(), flags), "agStreamWaitEvent");
}

// ------------------------------------------------------------------------------------------------
// Memory
// ------------------------------------------------------------------------------------------------

namespace detail {

template <typename T>
std::size_t byte_size(std::size_t count, const char* call) {
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(T))
    throw error(AG_ERROR_INVALID_VALUE, std::string(call) + ": " + std::to_string(count) +
                                            " elements of " + std::to_string(sizeof(T)) +
                                            " bytes overflow size_t");
  return count * sizeof(T);
}

// Throws unless [offset, offset + count) lies inside `size` elements.
inline void check_range(std::size_t offset, std::size_t count, std::size_t size, const char* call) {
  if (offset > size || count > size - offset)
    throw error(AG_ERROR_INVALID_VALUE, std::string(call) + ": " + std::to_string(count) +
                                            " elements at offset " + std::to_string(offset) +
                                            " do not fit in " + std::to_string(size));
}

using alloc_fn = ag_result (*)(ag_device, std::size_t, void**);
using free_fn = ag_result (*)(ag_device, void*);

inline ag_result alloc_managed_global(ag_device device, std::size_t bytes, void** pointer) {
  return agMemAllocManaged(device, bytes, AG_MEM_ATTACH_GLOBAL, pointer);
}

// What device_memory and pinned_memory share: sole ownership of `count` elements of T that Alloc
// allocated on a device and Free gives back, moved but never copied. `Owner` names the class in
// messages.
template <typename T, alloc_fn Alloc, free_fn Free>
class owned_memory {
  static_assert(std::is_trivially_copyable<T>::value,
                "anygpu memory owners hold trivially copyable types only");

 public:
  using value_type = T;

  owned_memory() noexcept = default;
  owned_memory(ag_device device, std::size_t count, const char* owner, const char* call)
      : device_(device) {
    if (count == 0) return;
    void* p = nullptr;
    check(Alloc(device_, byte_size<T>(count, owner), &p), call);
    pointer_ = static_cast<T*>(p);
    count_ = count;
  }
  ~owned_memory() { reset(); }
  owned_memory(owned_memory&& other) noexcept
      : device_(other.device_),
        pointer_(std::exchange(other.pointer_, nullptr)),
        count_(std::exchange(other.count_, 0)) {}
  owned_memory& operator=(owned_memory&& other) noexcept {
    if (this != &other) {
      reset();
      device_ = other.device_;
      pointer_ = std::exchange(other.pointer_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  owned_memory(const owned_memory&) = delete;
  owned_memory& operator=(const owned_memory&) = delete;

  T* get() const noexcept { return pointer_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }
  bool empty() const noexcept { return pointer_ == nullptr; }
  explicit operator bool() const noexcept { return pointer_ != nullptr; }
  anygpu::device device() const noexcept { return anygpu::device(device_); }

  // Frees the memory and leaves this owner empty. Never throws: returns Free's result
  // (AG_SUCCESS when empty).
  ag_result reset() noexcept {
    if (!pointer_) return AG_SUCCESS;
    count_ = 0;
    return Free(device_, std::exchange(pointer_, nullptr));
  }
  // Gives up ownership: the caller frees the pointer.
  T* release() noexcept {
    count_ = 0;
    return std::exchange(pointer_, nullptr);
  }

 protected:
  ag_device device_ = nullptr;
  T* pointer_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace detail

// `count` elements of T in device memory (agMemAlloc / agMemFree). T must be trivially
// copyable. A count of 0 allocates nothing and gives an empty owner. get() is the device pointer
// (unified addressing: pass it to kernels, never dereference it on the host unless the device is
// the CPU); reset() frees it (agMemFree waits for the device's pending work); release() gives up
// ownership: the caller frees the pointer with agMemFree(device().handle(), p).
template <typename T>
class device_memory : public detail::owned_memory<T, agMemAlloc, agMemFree> {
  using base = detail::owned_memory<T, agMemAlloc, agMemFree>;
  using base::count_;
  using base::device_;
  using base::pointer_;

 public:
  device_memory() noexcept = default;
  device_memory(const anygpu::device& dev, std::size_t count)
      : base(dev.handle(), count, "device_memory", "agMemAlloc") {}
  // Allocates values.size() elements and copies `values` in.
  device_memory(const anygpu::device& dev, const std::vector<T>& values)
      : device_memory(dev, values.size()) {
    upload(values);
  }

  using base::bytes;
  using base::empty;
  using base::get;
  using base::size;

  // Synchronous copies (not ordered with streams: synchronize a stream that uses this memory).
  void upload(const T* source, std::size_t count, std::size_t offset = 0) {
    detail::check_range(offset, count, count_, "device_memory::upload");
    if (count == 0) return;
    check(agMemcpyHtoD(device_, pointer_ + offset, source, count * sizeof(T)), "agMemcpyHtoD");
  }
  void upload(const std::vector<T>& values) { upload(values.data(), values.size()); }
  void download(T* destination, std::size_t count, std::size_t offset = 0) const {
    detail::check_range(offset, count, count_, "device_memory::download");
    if (count == 0) return;
    check(agMemcpyDtoH(device_, destination, pointer_ + offset, count * sizeof(T)), "agMemcpyDtoH");
  }
  std::vector<T> download() const {
    std::vector<T> values(count_);
    download(values.data(), count_);
    return values;
  }
  // Copies source's elements to the start of this memory; source may be another device's
  // (agMemcpyPeer: through the host where the driver cannot copy directly).
  void copy_from(const device_memory& source) {
    detail::check_range(0, source.size(), count_, "device_memory::copy_from");
    if (source.empty()) return;
    const ag_device from = source.device().handle();
    if (from == device_)
      check(agMemcpyDtoD(device_, pointer_, source.get(), source.bytes()), "agMemcpyDtoD");
    else
      check(agMemcpyPeer(pointer_, device_, source.get(), from, source.bytes()), "agMemcpyPeer");
  }
  // The same, ordered on `s`, a stream of either device.
  void copy_from_async(const device_memory& source, const stream& s) {
    detail::check_range(0, source.size(), count_, "device_memory::copy_from_async");
    if (source.empty()) return;
    check(agMemcpyPeerAsync(pointer_, device_, source.get(), source.device().handle(),
                            source.bytes(), s.get()),
          "agMemcpyPeerAsync");
  }
  // Sets every byte to `value`.
  void fill_bytes(unsigned char value) {
    if (empty()) return;
    check(agMemsetD8(device_, pointer_, value, bytes()), "agMemsetD8");
  }

  // Asynchronous copies, ordered on `s`: the host memory must stay valid until `s` has passed
  // the copy (pinned_memory makes them truly asynchronous on GPUs).
  void upload_async(const T* source, std::size_t count, const stream& s, std::size_t offset = 0) {
    detail::check_range(offset, count, count_, "device_memory::upload_async");
    if (count == 0) return;
    check(agMemcpyHtoDAsync(pointer_ + offset, source, count * sizeof(T), s.get()),
          "agMemcpyHtoDAsync");
  }
  void download_async(T* destination, std::size_t count, const stream& s,
                      std::size_t offset = 0) const {
    detail::check_range(offset, count, count_, "device_memory::download_async");
    if (count == 0) return;
    check(agMemcpyDtoHAsync(destination, pointer_ + offset, count * sizeof(T), s.get()),
          "agMemcpyDtoHAsync");
  }
  void fill_bytes_async(unsigned char value, const stream& s) {
    if (empty()) return;
    check(agMemsetD8Async(pointer_, value, bytes(), s.get()), "agMemsetD8Async");
  }
};

// `count` elements of T in page-locked host memory the device can reach (agMemAllocHost /
// agMemFreeHost). The host reads and writes it directly. release() gives up ownership: the caller
// frees the pointer with agMemFreeHost(device().handle(), p).
template <typename T>
class pinned_memory : public detail::owned_memory<T, agMemAllocHost, agMemFreeHost> {
  using base = detail::owned_memory<T, agMemAllocHost, agMemFreeHost>;
  using base::count_;
  using base::pointer_;

 public:
  pinned_memory() noexcept = default;
  pinned_memory(const anygpu::device& dev, std::size_t count)
      : base(dev.handle(), count, "pinned_memory", "agMemAllocHost") {}

  T* data() const noexcept { return pointer_; }
  T& operator[](std::size_t i) const noexcept { return pointer_[i]; }
  T* begin() const noexcept { return pointer_; }
  T* end() const noexcept { return pointer_ + count_; }
};

// `count` elements of T in managed memory (agMemAllocManaged, AG_MEM_ATTACH_GLOBAL / agMemFree):
// one pointer that the host reads and writes directly and the device's kernels and copies use.
// Where the device's concurrent_managed_access is 0, synchronize before the host touches memory
// that queued work uses. release() gives up ownership: free with agMemFree(device().handle(), p).
template <typename T>
class managed_memory : public detail::owned_memory<T, detail::alloc_managed_global, agMemFree> {
  using base = detail::owned_memory<T, detail::alloc_managed_global, agMemFree>;
  using base::count_;
  using base::device_;
  using base::pointer_;

 public:
  managed_memory() noexcept = default;
  managed_memory(const anygpu::device& dev, std::size_t count)
      : base(dev.handle(), count, "managed_memory", "agMemAllocManaged") {}

  T* data() const noexcept { return pointer_; }
  T& operator[](std::size_t i) const noexcept { return pointer_[i]; }
  T* begin() const noexcept { return pointer_; }
  T* end() const noexcept { return pointer_ + count_; }

  // Hints (agMemPrefetchAsync, agMemAdvise) for all of it: towards the device or the host, in
  // order on `s`; advice for the device or the host.
  void prefetch(const stream& s, bool to_host = false) const {
    if (this->empty()) return;
    check(agMemPrefetchAsync(pointer_, this->bytes(), to_host ? nullptr : device_, s.get()),
          "agMemPrefetchAsync");
  }
  void advise(ag_mem_advice advice, bool for_host = false) const {
    if (this->empty()) return;
    check(agMemAdvise(pointer_, this->bytes(), advice, for_host ? nullptr : device_),
          "agMemAdvise");
  }
};

// ------------------------------------------------------------------------------------------------
// Modules and functions
// ------------------------------------------------------------------------------------------------

// A kernel: a non-owning handle, its name and its parameter layout, valid while its module is
// loaded. Copy it freely.
class function {
 public:
  function() noexcept = default;
  // Reads the layout with agFunctionGetParamCount / agFunctionGetParamInfo; where they fail the
  // layout is unknown (param_count() is -1) and launches are not checked.
  explicit function(ag_function handle, std::string name = {})
      : handle_(handle), name_(std::move(name)) {
    int count = 0;
    if (agFunctionGetParamCount(handle_, &count) != AG_SUCCESS || count < 0) {
      agClearLastErrorDetail();  // a probe, not a failure the caller made
      return;
    }
    std::vector<ag_param_info> params(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < params.size(); ++i) {
      params[i].struct_size = sizeof(ag_param_info);
      if (agFunctionGetParamInfo(handle_, static_cast<int>(i), &params[i]) != AG_SUCCESS) {
        agClearLastErrorDetail();
        return;
      }
    }
    params_ = std::move(params);
    param_count_ = count;
  }

  ag_function get() const noexcept { return handle_; }
  explicit operator bool() const noexcept { return handle_ != nullptr; }
  // The name it was looked up by ("" for a function made from a bare handle).
  const std::string& name() const noexcept { return name_; }
  // The number of parameters the code object records, -1 when unknown. The C ABI reports 0 both
  // for a kernel without parameters and for one whose code object records no layout.
  int param_count() const noexcept { return param_count_; }
  const std::vector<ag_param_info>& params() const noexcept { return params_; }

  ag_function_attributes attributes() const {
    ag_function_attributes a{};
    a.struct_size = sizeof a;
    check(agFunctionGetAttributes(handle_, &a), "agFunctionGetAttributes");
    return a;
  }
  // cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes).
  void set_max_dynamic_shared(std::size_t bytes) const {
    check(agFunctionSetMaxDynamicShared(handle_, bytes), "agFunctionSetMaxDynamicShared");
  }
  int max_active_blocks_per_multiprocessor(int block_size,
                                           std::size_t dynamic_shared_bytes = 0) const {
    int blocks = 0;
    check(agOccupancyMaxActiveBlocksPerMultiprocessor(handle_, block_size, dynamic_shared_bytes,
                                                      &blocks),
          "agOccupancyMaxActiveBlocksPerMultiprocessor");
    return blocks;
  }
  struct potential_block_size {
    int min_grid_size;
    int block_size;
  };
  // cudaOccupancyMaxPotentialBlockSize; block_size_limit 0 is none.
  potential_block_size max_potential_block_size(std::size_t dynamic_shared_bytes = 0,
                                                int block_size_limit = 0) const {
    potential_block_size result{0, 0};
    check(agOccupancyMaxPotentialBlockSize(handle_, dynamic_shared_bytes, block_size_limit,
                                           &result.min_grid_size, &result.block_size),
          "agOccupancyMaxPotentialBlockSize");
    return result;
  }

 private:
  ag_function handle_ = nullptr;
  std::string name_;
  int param_count_ = -1;
  std::vector<ag_param_info> params_;
};

// A loaded code object (agModuleLoadData / agModuleLoad, agModuleUnload). Unloading it invalidates
// its functions.
class module {
 public:
  module() noexcept = default;
  // Loads an image from memory (a bundle, or any code object format anygpu detects); the image is
  // copied and may be freed after the call.
  module(const anygpu::device& dev, const void* image, std::size_t bytes) {
    check(agModuleLoadData(dev.handle(), image, bytes, &handle_), "agModuleLoadData");
  }
  // Loads an image from a file.
  static module from_file(const anygpu::device& dev, const std::string& path) {
    module m;
    check(agModuleLoad(dev.handle(), path.c_str(), &m.handle_), "agModuleLoad");
    return m;
  }
  ~module() { reset(); }
  module(module&& other) noexcept :handle_(std::exchange(other.handle_, nullptr)) {}
  module& operator=(module&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  module(const module&) = delete;
  module& operator=(const module&) = delete;

  ag_module get() const noexcept { return handle_; }
  explicit operator bool() const noexcept { return handle_ != nullptr; }

  // The kernel `name` (AG_ERROR_NOT_FOUND when the module has none).
  anygpu::function function(const std::string& name) const {
    ag_function f = nullptr;
    check(agModuleGetFunction(handle_, name.c_str(), &f), "agModuleGetFunction");
    return anygpu::function(f, name);
  }

  // A module-scope variable (__device__, __constant__): its device address and size, valid while
  // the module is loaded.
  struct global_variable {
    void* address;
    std::size_t bytes;
  };
  // The variable `name` (agModuleGetGlobal; AG_ERROR_NOT_FOUND when the module has none).
  global_variable global(const std::string& name) const {
    global_variable g{nullptr, 0};
    check(agModuleGetGlobal(handle_, name.c_str(), &g.address, &g.bytes), "agModuleGetGlobal");
    return g;
  }

  // Waits for the device's pending work, unloads and leaves this owner empty. Never throws.
  ag_result reset() noexcept {
    if (!handle_) return AG_SUCCESS;
    return agModuleUnload(std::exchange(handle_, nullptr));
  }
  ag_module release() noexcept { return std::exchange(handle_, nullptr); }

 private:
  ag_module handle_ = nullptr;
};

// ------------------------------------------------------------------------------------------------
// Launch
// ------------------------------------------------------------------------------------------------

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1) noexcept
      : x(x_), y(y_), z(z_) {}
};

// Grid, block, dynamic shared memory and stream of a launch. Without a stream the launch runs on
// the function's device and launch() returns when it has finished.
struct launch_config {
  dim3 grid;
  dim3 block;
  unsigned int shared_bytes = 0;
  ag_stream stream = nullptr;

  launch_config(dim3 grid_, dim3 block_, unsigned int shared_bytes_ = 0,
                ag_stream stream_ = nullptr) noexcept
      : grid(grid_), block(block_), shared_bytes(shared_bytes_), stream(stream_) {}
  launch_config(dim3 grid_, dim3 block_, unsigned int shared_bytes_,
                const ::anygpu::stream& stream_) noexcept
      : grid(grid_), block(block_), shared_bytes(shared_bytes_), stream(stream_.get()) {}
  launch_config(dim3 grid_, dim3 block_, const ::anygpu::stream& stream_) noexcept
      : grid(grid_), block(block_), stream(stream_.get()) {}
};

namespace detail {

// How a C++ argument reaches the kernel: by value, except that device_memory and pinned_memory
// pass their pointer and nullptr passes a null void*.
template <typename T>
struct kernel_arg {
  using type = T;
  static type convert(const T& value) { return value; }
};
template <typename T>
struct kernel_arg<device_memory<T>> {
  using type = T*;
  static type convert(const device_memory<T>& memory) { return memory.get(); }
};
template <typename T>
struct kernel_arg<pinned_memory<T>> {
  using type = T*;
  static type convert(const pinned_memory<T>& memory) { return memory.get(); }
};
template <>
struct kernel_arg<std::nullptr_t> {
  using type = void*;
  static type convert(std::nullptr_t) { return nullptr; }
};

template <typename A>
using kernel_arg_t = typename kernel_arg<std::decay_t<A>>::type;

struct arg_desc {
  ag_param_kind kind;
  std::size_t size;
};

template <typename T>
constexpr arg_desc describe_arg() {
  static_assert(std::is_trivially_copyable<T>::value,
                "a kernel argument must be trivially copyable: pass device_memory, a pointer, a "
                "number or a plain struct");
  if constexpr (std::is_pointer<T>::value)
    return {AG_PARAM_POINTER, sizeof(T)};
  else if constexpr (std::is_integral<T>::value || std::is_enum<T>::value)
    return {AG_PARAM_INTEGER, sizeof(T)};
  else if constexpr (std::is_floating_point<T>::value)
    return {AG_PARAM_FLOAT, sizeof(T)};
  else
    return {AG_PARAM_STRUCT, sizeof(T)};
}

inline const char* kind_text(ag_param_kind kind, std::size_t size) {
  switch (kind) {
    case AG_PARAM_INTEGER:
      return "integer";
    case AG_PARAM_FLOAT:
      return size == 4 ? "float" : size == 8 ? "double" : size == 2 ? "half" : "floating point";
    case AG_PARAM_POINTER:
      return "pointer";
    case AG_PARAM_STRUCT:
      return "struct";
    default:  // AG_PARAM_KIND_FORCE32, or a kind newer than this header
      break;
  }
  return "value";
}

// Whether an argument of kind `arg` may be passed for a parameter of kind `param` of the same
// size. Loose where layouts are guessed: a layout read from the driver alone (no anygpu record)
// calls every scalar an INTEGER, and PTX without a record cannot tell a pointer from a 64-bit
// integer; STRUCT matches anything of its size. Where the kind is exact (FLOAT, POINTER), a value
// of another kind is a mistake: a double for a pointer, an int for a float.
inline bool kinds_match(ag_param_kind arg, ag_param_kind param, std::size_t size) {
  if (arg == AG_PARAM_STRUCT || param == AG_PARAM_STRUCT || param == AG_PARAM_INTEGER) return true;
  if (param == AG_PARAM_FLOAT)
    return arg == AG_PARAM_FLOAT || (arg == AG_PARAM_INTEGER && size == 2);  // half as raw bits
  if (param == AG_PARAM_POINTER) return arg == AG_PARAM_POINTER;
  return true;  // a kind this header does not know: sizes only
}

[[noreturn]] inline void throw_argument_error(const std::string& message) {
  throw error(AG_ERROR_INVALID_VALUE, "anygpu::launch: " + message);
}

// Checks `count` arguments against f's parameter layout where it is known; arguments and
// parameters are numbered from 1 in the messages.
inline void check_arguments(const function& f, const arg_desc* args, std::size_t count) {
  const int known = f.param_count();
  if (known < 0) return;  // layout unknown (agFunctionGetParamCount: AG_ERROR_NOT_SUPPORTED)
  // Strings are made only on failure: a launch that passes allocates nothing here.
  auto name = [&f] { return f.name().empty() ? std::string("kernel") : f.name(); };
  if (static_cast<std::size_t>(known) != count)
    throw_argument_error(name() + " takes " + std::to_string(known) +
                         (known == 1 ? " argument, " : " arguments, ") + std::to_string(count) +
                         " given");
  const std::vector<ag_param_info>& params = f.params();
  for (std::size_t i = 0; i < count; ++i) {
    const ag_param_info& p = params[i];
    if (args[i].size == p.size && kinds_match(args[i].kind, p.kind, p.size)) continue;
    const std::string n = std::to_string(i + 1);
    throw_argument_error(name() + ": argument " + n + " is " + std::to_string(args[i].size) +
                         " bytes (" + kind_text(args[i].kind, args[i].size) +
                         "), the kernel's parameter " + n + " is " + std::to_string(p.size) +
                         " bytes (" + kind_text(p.kind, p.size) + ")");
  }
}

}  // namespace detail

// Launches with a ready-made params array (no checks): params[i] points at parameter i's value.
inline void launch_raw(const function& f, const launch_config& config, void** params) {
  check(agLaunchKernel(f.get(), config.grid.x, config.grid.y, config.grid.z, config.block.x,
                       config.block.y, config.block.z, config.shared_bytes, config.stream, params,
                       nullptr),
        "agLaunchKernel");
}

// Launches `f` with `args` as its parameters, in order. Where f's parameter layout is known, the
// number of arguments, each one's size and (loosely) its kind must match it, else anygpu::error
// with AG_ERROR_INVALID_VALUE is thrown and nothing is launched. device_memory<T> and
// pinned_memory<T> pass their pointer.
template <typename... Args>
void launch(const function& f, const launch_config& config, Args&&... args) {
  constexpr std::size_t count = sizeof...(Args);
  std::tuple<detail::kernel_arg_t<Args>...> values{
      detail::kernel_arg<std::decay_t<Args>>::convert(args)...};
  constexpr std::array<detail::arg_desc, count> descs{
      {detail::describe_arg<detail::kernel_arg_t<Args>>()...}};
  detail::check_arguments(f, descs.data(), count);
  std::array<void*, count> params = std::apply(
      [](auto&... value) { return std::array<void*, count>{{static_cast<void*>(&value)...}}; },
      values);
  launch_raw(f, config, count ? params.data() : nullptr);
}

// Launches on the function's device without a stream: returns when the kernel has finished.
template <typename... Args>
void launch(const function& f, dim3 grid, dim3 block, Args&&... args) {
  launch(f, launch_config(grid, block), std::forward<Args>(args)...);
}

}  // namespace anygpu

#endif  // ANYGPU_ANYGPU_HPP
