// One intercepted call as the function lists describe it (cuda_functions.h, hip_functions.h): the
// description of a wrapper calls these with its arguments after the real call, and the record
// becomes a trace event and a line of the statistics. Outputs are read only when the call
// succeeded; argument text is built only when tracing.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "interpose/function_names.h"

namespace anygpu::intercept {

class CallRecord {
 public:
  explicit CallRecord(int id);

  void begin();
  void end(int result, bool injected);
  // Writes the trace event and the statistics.
  void commit();

  bool succeeded() const { return result_ == 0; }

  void none() {}
  template <typename T>
  void number(const char* key, T value) {
    if (!tracing_) return;
    if constexpr (std::is_floating_point_v<T>)
      add_real(key, static_cast<double>(value));
    else if constexpr (std::is_signed_v<T>)
      add_signed(key, static_cast<long long>(value));
    else
      add_unsigned(key, static_cast<unsigned long long>(value));
  }
  template <typename T>
  void out_number(const char* key, const T* value) {
    if (succeeded() && value) number(key, *value);
  }
  void pointer(const char* key, const void* value);
  template <typename T>
  void out_pointer(const char* key, T* const* value) {
    if (succeeded() && value) pointer(key, *value);
  }
  void device_pointer(const char* key, unsigned long long value);
  void text(const char* key, const char* value);
  void out_text(const char* key, const char* value) {
    if (succeeded()) text(key, value);
  }
  void dims(const char* key, unsigned x, unsigned y, unsigned z);

  // Memory: bytes moved, and allocations for the ledger (only successful calls count).
  void copied(uint64_t bytes);
  void device_allocated(const unsigned long long* pointer, uint64_t bytes);
  void device_allocated(void* const* pointer, uint64_t bytes);
  void device_freed(unsigned long long pointer);
  void device_freed(const void* pointer);
  void host_allocated(void* const* pointer, uint64_t bytes);
  void host_freed(const void* pointer);

  // Kernels: a handle's name in the trace, and where names come from.
  void kernel(const void* handle);
  void host_kernel(const void* host_function);
  template <typename Handle>
  void kernel_found(Handle* const* handle, const char* name) {
    if (succeeded() && handle) remember(*handle, name);
  }
  template <typename Handle, typename Known>
  void kernel_alias(Handle* const* handle, Known* known) {
    if (succeeded() && handle) alias(*handle, known);
  }

  // Mode dump: the image a load function was given.
  void module_image(const void* image);
  void module_file(const char* path);

  // cuGetProcAddress, hipGetProcAddress: the wrapper instead of the real entry point.
  void hand_out_entry_point(const char* symbol, void** pfn);

 private:
  void add_key(const char* key);
  void add_signed(const char* key, long long value);
  void add_unsigned(const char* key, unsigned long long value);
  void add_real(const char* key, double value);
  void remember(const void* handle, const char* name);
  void alias(const void* handle, const void* known);

  int id_;
  bool tracing_;
  bool counting_;
  bool injected_ = false;
  int result_ = 0;
  uint64_t bytes_ = 0;
  uint64_t start_ = 0;     // nanoseconds (clock.h)
  uint64_t duration_ = 0;  // nanoseconds
  std::string arguments_;
};

}  // namespace anygpu::intercept
