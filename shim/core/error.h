// Error codes' names and texts, and the thread-local detail of the last failed call.
#pragma once

#include <anygpu/anygpu.h>

namespace anygpu {

// Every API entry point names itself first, so a detail says which call failed. A pointer store.
void set_current_call(const char* function_name);
#define AG_ENTRY() ::anygpu::set_current_call(__func__)

// Records "<current call>: <formatted reason>" as this thread's detail and returns `code`.
ag_result fail(ag_result code, const char* format, ...) __attribute__((format(printf, 2, 3)));

const char* result_name(ag_result code);  // nullptr for an unknown code
const char* result_description(ag_result code);
const char* last_error_detail();
void clear_last_error_detail();

}  // namespace anygpu
