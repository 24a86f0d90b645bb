#include "interpose/call_record.h"

#include <dlfcn.h>

#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "interpose/allocation_ledger.h"
#include "interpose/call_stats.h"
#include "interpose/clock.h"
#include "interpose/error_names.h"
#include "interpose/json_text.h"
#include "interpose/kernel_names.h"
#include "interpose/module_dump.h"
#include "interpose/proc_address.h"
#include "interpose/process_ids.h"
#include "interpose/settings.h"
#include "interpose/trace_writer.h"

namespace anygpu::intercept {
namespace {

constexpr size_t kMaxTextBytes = 256;  // longer argument text (a kernel's name) is cut

void append_integer(std::string* out, unsigned long long value) {
  char digits[24];
  *out +=
      std::string_view(digits, std::to_chars(digits, digits + sizeof digits, value).ptr - digits);
}

// Nanoseconds as the microseconds trace events count in, with three decimals ("12.345").
void append_microseconds(std::string* out, uint64_t nanoseconds) {
  append_integer(out, nanoseconds / 1000);
  const unsigned fraction = static_cast<unsigned>(nanoseconds % 1000);
  const char decimals[5] = {'.', static_cast<char>('0' + fraction / 100),
                            static_cast<char>('0' + fraction / 10 % 10),
                            static_cast<char>('0' + fraction % 10), '\0'};
  *out += decimals;
}

}  // namespace

CallRecord::CallRecord(int id) : id_(id), tracing_(settings().trace), counting_(settings().stats) {}

void CallRecord::begin() {
  start_ = now_nanoseconds();
}

void CallRecord::end(int result, bool injected) {
  duration_ = now_nanoseconds() - start_;
  result_ = result;
  injected_ = injected;
}

void CallRecord::commit() {
  if (counting_) record_call(id_, duration_, result_ != 0, injected_, bytes_);
  if (!tracing_) return;
  Api api = function_api(id_);
  // One event per call: built without a float format or a system call, the hot path of tracing.
  std::string event;
  event.reserve(192 + arguments_.size());
  event += "{\"name\":\"";
  event += function_symbol(id_);
  event += api == Api::cuda ? "\",\"cat\":\"cuda\"" : "\",\"cat\":\"hip\"";
  event += ",\"ph\":\"X\",\"ts\":";
  append_microseconds(&event, start_);
  event += ",\"dur\":";
  append_microseconds(&event, duration_);
  event += ",\"pid\":";
  append_integer(&event, static_cast<unsigned long long>(current_pid()));
  event += ",\"tid\":";
  append_integer(&event, static_cast<unsigned long long>(current_tid()));
  const char* name = result_name(api, result_);
  text("result", name ? name : "unknown");
  add_signed("result_code", result_);
  if (injected_) {
    add_key("injected");
    arguments_ += "true";
  }
  event += ",\"args\":{";
  event += arguments_;
  event += "}}";
  add_trace_event(event);
}

void CallRecord::add_key(const char* key) {
  if (!arguments_.empty()) arguments_ += ',';
  append_json_string(&arguments_, key);
  arguments_ += ':';
}

void CallRecord::add_signed(const char* key, long long value) {
  add_key(key);
  arguments_ += std::to_string(value);
}

void CallRecord::add_unsigned(const char* key, unsigned long long value) {
  add_key(key);
  arguments_ += std::to_string(value);
}

void CallRecord::add_real(const char* key, double value) {
  char formatted[64];
  snprintf(formatted, sizeof formatted, "%.9g", value);
  add_key(key);
  // JSON has no NaN or infinity: those are written as text.
  if (strpbrk(formatted, "ni"))
    append_json_string(&arguments_, formatted);
  else
    arguments_ += formatted;
}

void CallRecord::pointer(const char* key, const void* value) {
  device_pointer(key, reinterpret_cast<uintptr_t>(value));
}

void CallRecord::device_pointer(const char* key, unsigned long long value) {
  if (!tracing_) return;
  char formatted[32];
  snprintf(formatted, sizeof formatted, "0x%llx", value);
  add_key(key);
  append_json_string(&arguments_, formatted);
}

void CallRecord::text(const char* key, const char* value) {
  if (!tracing_) return;
  add_key(key);
  if (value)
    append_json_string(&arguments_, std::string_view(value, strnlen(value, kMaxTextBytes)));
  else
    arguments_ += "null";
}

void CallRecord::dims(const char* key, unsigned x, unsigned y, unsigned z) {
  if (!tracing_) return;
  add_key(key);
  arguments_ += '[' + std::to_string(x) + ',' + std::to_string(y) + ',' + std::to_string(z) + ']';
}

void CallRecord::copied(uint64_t bytes) {
  number("bytes", bytes);
  if (succeeded()) bytes_ += bytes;
}

void CallRecord::device_allocated(const unsigned long long* pointer, uint64_t bytes) {
  if (!succeeded() || !pointer) return;
  device_pointer("pointer", *pointer);
  if (counting_) ledger_allocated(MemoryKind::device, *pointer, bytes);
}

void CallRecord::device_allocated(void* const* pointer, uint64_t bytes) {
  if (!succeeded() || !pointer) return;
  this->pointer("pointer", *pointer);
  if (counting_ && *pointer)
    ledger_allocated(MemoryKind::device, reinterpret_cast<uintptr_t>(*pointer), bytes);
}

void CallRecord::device_freed(unsigned long long pointer) {
  device_pointer("pointer", pointer);
  if (succeeded() && counting_) ledger_freed(MemoryKind::device, pointer);
}

void CallRecord::device_freed(const void* pointer) {
  device_freed(static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(pointer)));
}

void CallRecord::host_allocated(void* const* pointer, uint64_t bytes) {
  if (!succeeded() || !pointer) return;
  this->pointer("pointer", *pointer);
  if (counting_ && *pointer)
    ledger_allocated(MemoryKind::host, reinterpret_cast<uintptr_t>(*pointer), bytes);
}

void CallRecord::host_freed(const void* pointer) {
  this->pointer("pointer", pointer);
  if (succeeded() && counting_)
    ledger_freed(MemoryKind::host, reinterpret_cast<uintptr_t>(pointer));
}

void CallRecord::kernel(const void* handle) {
  pointer("function", handle);
  if (!tracing_) return;
  std::string name = kernel_name(handle);
  if (!name.empty()) text("kernel", name.c_str());
}

void CallRecord::host_kernel(const void* host_function) {
  pointer("function", host_function);
  if (!tracing_) return;
  Dl_info info;
  if (dladdr(host_function, &info) && info.dli_sname) text("kernel", info.dli_sname);
}

void CallRecord::remember(const void* handle, const char* name) {
  pointer("handle", handle);
  remember_kernel(handle, name);
}

void CallRecord::alias(const void* handle, const void* known) {
  pointer("handle", handle);
  remember_kernel_alias(handle, known);
}

void CallRecord::module_image(const void* image) {
  pointer("image", image);
  if (!settings().dump) return;
  std::string saved = dump_image(function_symbol(id_), image);
  if (!saved.empty()) text("saved", saved.c_str());
}

void CallRecord::module_file(const char* path) {
  if (!settings().dump) return;
  std::string saved = dump_file(function_symbol(id_), path);
  if (!saved.empty()) text("saved", saved.c_str());
}

void CallRecord::hand_out_entry_point(const char* symbol, void** pfn) {
  if (!succeeded()) return;
  bool wrapped = intercept::hand_out_entry_point(function_api(id_), symbol, pfn);
  text("entry_point", wrapped ? "wrapped" : "passed through");
}

}  // namespace anygpu::intercept
