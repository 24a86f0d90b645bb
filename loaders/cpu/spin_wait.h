// A short spin before a thread blocks: work on a CPU device often arrives (or finishes) within
// microseconds, and catching it spinning saves a futex sleep and wake-up on both sides.
#pragma once

namespace anygpu::cpu {

// Spins until `ready()` or about 20 microseconds have passed; returns ready().
template <typename Ready>
bool spin_briefly_until(Ready ready) {
  for (int i = 0; i < 4000; ++i) {
    if (ready()) return true;
#if defined(__x86_64__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
  }
  return ready();
}

}  // namespace anygpu::cpu
