// Error codes' names and texts, and the thread-local detail of the last failed call.
#pragma once

#include <anygpu/anygpu.h>

namespace anygpu {

// Every API entry point names itself first, so a detail says which call failed. A pointer store.
void set_current_call(const char* function_name);
#define AG_ENTRY() ::anygpu::set_current_call(__func__)

// Records "<current call>: <formatted reason>" as this thread's detail and returns `code`.
ag_result fail(ag_result code, const char* format, ...) __attribute__((format(printf, 2, 3)));

// The result for the exception being handled (call it in a catch block): no exception crosses the
// C ABI. std::bad_alloc is AG_ERROR_OUT_OF_MEMORY, std::system_error (a thread the system would
// not start) AG_ERROR_OUT_OF_RESOURCES, anything else AG_ERROR_UNKNOWN; the detail says which.
ag_result fail_from_exception() noexcept;

const char* result_name(ag_result code);  // nullptr for an unknown code
const char* result_description(ag_result code);
const char* last_error_detail();
// The last detail's reason alone, without the call before it and the code after it: for a
// detail that builds on another's.
const char* last_error_reason();
void clear_last_error_detail();

}  // namespace anygpu
