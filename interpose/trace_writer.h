// Mode trace: Chrome trace-event JSON ({"traceEvents":[...]}, microseconds), which Perfetto and
// chrome://tracing open. The file (settings().trace_file, %p replaced by the process id: a forked
// child writes its own) is opened at the first event; events collect in a buffer allocated once,
// written when it is full and at exit, or from a signal handler when the program crashes.
#pragma once

#include <string>

namespace anygpu::intercept {

// One complete event's JSON object, without separators.
void add_trace_event(const std::string& event);
// Writes what is buffered and closes the file: a valid JSON document. A process that recorded
// no event writes no file. Events added later are dropped.
void finish_trace();

// Async-signal-safe (write(2) only): writes what is buffered and the closing bytes, so that the
// file is a valid document now, after an instant event named `event_name` (if not null) at this
// moment. Should the program go on (its own handler recovers), later events overwrite the closing
// bytes; `final` (the process is ending) drops them instead. Returns false, having written
// nothing, where it could not do so safely (the interrupted thread is inside the writer, or
// another thread held it for seconds).
bool checkpoint_trace_from_signal(const char* event_name, bool final);

void lock_trace();
void unlock_trace();
void reset_trace_in_child();  // forget the parent's events and file

}  // namespace anygpu::intercept
