// Mode trace: Chrome trace-event JSON ({"traceEvents":[...]}, microseconds), which Perfetto and
// chrome://tracing open. Events are buffered and written when the buffer grows big and at exit,
// to settings().trace_file with %p replaced by the process id: a forked child writes its own.
#pragma once

#include <string>

namespace anygpu::intercept {

// One complete event's JSON object, without separators.
void add_trace_event(const std::string& event);
// Writes what is buffered and closes the file: a valid JSON document. A process that recorded
// no event writes no file. Events added later are dropped.
void finish_trace();

void lock_trace();
void unlock_trace();
void reset_trace_in_child();  // forget the parent's events and file

}  // namespace anygpu::intercept
