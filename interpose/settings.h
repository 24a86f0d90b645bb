// What the interposer does, read once from the environment (docs/interposition.md):
// ANYGPU_INTERCEPT (trace, stats, fault, dump), ANYGPU_INTERCEPT_TRACE_FILE,
// ANYGPU_INTERCEPT_STATS_FILE, ANYGPU_INTERCEPT_FAULT, ANYGPU_INTERCEPT_DUMP_DIR.
#pragma once

#include <string>
#include <vector>

#include "interpose/fault_spec.h"

namespace anygpu::intercept {

constexpr size_t kMaxFaultSpecs = 64;

struct Settings {
  bool trace = false;
  bool stats = false;
  bool fault = false;
  bool dump = false;
  std::string trace_file = "anygpu-trace.%p.json";  // %p: the process id
  std::string stats_file;                           // empty: stderr; %p: the process id
  std::string dump_dir = ".";
  std::vector<FaultSpec> faults;

  bool any() const { return trace || stats || fault || dump; }
};

// Read on first use; a bad value is reported on stderr and ignored, never fatal.
const Settings& settings();

// `pattern` with each %p replaced by `pid` (and %% by %).
std::string expand_pid(const std::string& pattern, long pid);

}  // namespace anygpu::intercept
