// A forked child of a process that initialised anygpu must not use the parent's devices (CUDA's
// rule): the worker and stream threads that would run its work were not copied into the child, so
// its calls would wait forever. A pthread_atfork child handler only sets a flag
// (async-signal-safe); a child that never calls anygpu is unaffected.
#pragma once

#include <anygpu/anygpu.h>

namespace anygpu {

// Registers the fork handler (once); called when the runtime initialises.
void watch_for_fork();

// True in a process forked from one that had initialised anygpu.
bool in_forked_child();

// AG_SUCCESS, or, in a forked child, AG_ERROR_NOT_INITIALIZED with a detail saying why.
ag_result refuse_in_forked_child();

}  // namespace anygpu
