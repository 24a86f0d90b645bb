// What the CPU device reports about this machine.
#pragma once

#include <cstdint>
#include <string>

namespace anygpu::cpu {

std::string processor_name();    // "model name" from /proc/cpuinfo, else the machine name
std::string processor_vendor();  // "Intel", "AMD", "Arm", ...
uint64_t physical_memory_bytes();
int processor_max_clock_khz();      // cpufreq's cpuinfo_max_freq of CPU 0; 0 where unknown
uint64_t l2_cache_bytes();          // of one core, from the C library; 0 where unknown
uint64_t available_memory_bytes();  // MemAvailable
// ANYGPU_CPU_THREADS when set to a positive number, else the cores this process may use.
unsigned worker_thread_count();

}  // namespace anygpu::cpu
