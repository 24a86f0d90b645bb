#include "interpose/settings.h"

#include <cstdlib>
#include <sstream>

#include "interpose/report.h"

namespace anygpu::intercept {
namespace {

const char* variable(const char* name) {
  const char* value = secure_getenv(name);
  return value && *value ? value : nullptr;
}

void read_modes(const char* text, Settings* settings) {
  std::stringstream list(text);
  std::string mode;
  while (std::getline(list, mode, ',')) {
    if (mode == "trace") {
      settings->trace = true;
    } else if (mode == "stats") {
      settings->stats = true;
    } else if (mode == "fault") {
      settings->fault = true;
    } else if (mode == "dump") {
      settings->dump = true;
    } else if (!mode.empty()) {
      report("unknown mode '%s' in ANYGPU_INTERCEPT ignored (modes: trace, stats, fault, dump)",
             mode.c_str());
    }
  }
}

Settings read_settings() {
  Settings settings;
  if (const char* modes = variable("ANYGPU_INTERCEPT")) read_modes(modes, &settings);
  if (const char* file = variable("ANYGPU_INTERCEPT_TRACE_FILE")) settings.trace_file = file;
  if (const char* file = variable("ANYGPU_INTERCEPT_STATS_FILE")) settings.stats_file = file;
  if (const char* dir = variable("ANYGPU_INTERCEPT_DUMP_DIR")) settings.dump_dir = dir;
  const char* faults = variable("ANYGPU_INTERCEPT_FAULT");
  if (settings.fault && faults) {
    std::vector<std::string> errors;
    parse_fault_specs(faults, &settings.faults, &errors);
    for (const std::string& error : errors)
      report("bad ANYGPU_INTERCEPT_FAULT spec %s; ignored", error.c_str());
    if (settings.faults.size() > kMaxFaultSpecs) {
      report("ANYGPU_INTERCEPT_FAULT has %zu specs; only the first %zu are used",
             settings.faults.size(), kMaxFaultSpecs);
      settings.faults.resize(kMaxFaultSpecs);
    }
  } else if (settings.fault) {
    report("mode fault without ANYGPU_INTERCEPT_FAULT: no call will fail");
  }
  return settings;
}

}  // namespace

const Settings& settings() {
  static const Settings* const instance = new Settings(read_settings());  // never destroyed
  return *instance;
}

std::string expand_pid(const std::string& pattern, long pid) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == 'p') {
      out += std::to_string(pid);
      ++i;
    } else if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == '%') {
      out += '%';
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

}  // namespace anygpu::intercept
