#include "system_info.h"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "shim/core/environment.h"
#include "shim/core/log.h"

namespace anygpu::cpu {
namespace {

// The value of the first "key : value" line of /proc/cpuinfo whose key is `key`.
std::string cpuinfo_field(const std::string& key) {
  std::ifstream file("/proc/cpuinfo");
  std::string line;
  while (std::getline(file, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    name.erase(name.find_last_not_of(" \t") + 1);
    if (name != key) continue;
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    return value;
  }
  return "";
}

}  // namespace

std::string processor_name() {
  std::string name = cpuinfo_field("model name");
  if (!name.empty()) return name;
  utsname system{};
  uname(&system);
  return std::string(system.machine) + " CPU";
}

std::string processor_vendor() {
  std::string vendor = cpuinfo_field("vendor_id");  // not const: returned, so moved
  if (vendor == "GenuineIntel") return "Intel";
  if (vendor == "AuthenticAMD") return "AMD";
  if (!vendor.empty()) return vendor;
  if (!cpuinfo_field("CPU implementer").empty()) return "Arm";
  return "unknown";
}

uint64_t physical_memory_bytes() {
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
         static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

int processor_max_clock_khz() {
  std::ifstream file("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  long khz = 0;
  return file >> khz && khz > 0 && khz <= INT32_MAX ? static_cast<int>(khz) : 0;
}

uint64_t l2_cache_bytes() {
  const long bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);  // 0 or -1 where glibc cannot tell
  return bytes > 0 ? static_cast<uint64_t>(bytes) : 0;
}

uint64_t available_memory_bytes() {
  std::ifstream file("/proc/meminfo");
  std::string key;
  uint64_t kib;
  std::string unit;
  while (file >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return static_cast<uint64_t>(sysconf(_SC_AVPHYS_PAGES)) *
         static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

unsigned worker_thread_count() {
  const std::string configured = environment("ANYGPU_CPU_THREADS");
  if (!configured.empty()) {
    char* end = nullptr;
    const long value = strtol(configured.c_str(), &end, 10);
    if (end && *end == '\0' && value > 0 && value <= 1024) return static_cast<unsigned>(value);
    log(LogLevel::warn, "ANYGPU_CPU_THREADS=%s is not a number in [1, 1024]; ignored",
        configured.c_str());
  }
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) return CPU_COUNT(&allowed);
  const unsigned cores = std::thread::hardware_concurrency();
  return cores ? cores : 1;
}

}  // namespace anygpu::cpu
