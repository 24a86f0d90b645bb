// The process and thread ids every trace event carries, asked of the kernel once (per process,
// per thread) rather than by a system call on every wrapped call.
#pragma once

namespace anygpu::intercept {

long current_pid();
long current_tid();

// In a forked child, on the thread that forked (the only one the child has): both ids changed.
void forget_ids_in_child();

}  // namespace anygpu::intercept
