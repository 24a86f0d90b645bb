// Mode stats: per function calls, errors (injected ones among them), time and bytes copied, and
// the entry points cuGetProcAddress / hipGetProcAddress gave that could not be wrapped. Written
// at exit as a table (settings().stats_file, stderr by default).
#pragma once

#include <cstdint>

namespace anygpu::intercept {

void record_call(int id, uint64_t nanoseconds, bool failed, bool injected, uint64_t bytes);
void record_entry_point(const char* symbol, bool wrapped);
// Calls recorded so far (a process that made none writes no statistics).
long recorded_calls();
// The table, to `fd`. `occasion` null: at exit; else said after the heading (a crash handler's
// "so far, at signal SIGSEGV"), and then it is async-signal-safe: write(2) only, no lock waited
// for.
void write_stats(int fd, long pid, const char* occasion);

void lock_stats();
void unlock_stats();
void reset_stats();  // a forked child counts its own calls

}  // namespace anygpu::intercept
