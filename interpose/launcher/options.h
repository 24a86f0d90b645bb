// anygpu-trace's command line:
//   anygpu-trace [--trace FILE] [--stats[=FILE]] [--fault SPEC]... [--dump DIR] [--library PATH]
//                [--] PROGRAM [ARGS...]
#pragma once

#include <string>
#include <vector>

namespace anygpu::intercept {

struct TraceOptions {
  bool trace = false;
  bool stats = false;
  bool dump = false;
  std::string trace_file;  // empty: the interposer's default
  std::string stats_file;  // empty: stderr
  std::vector<std::string> faults;
  std::string dump_dir;
  std::string library;  // empty: found next to anygpu-trace
  bool help = false;
  std::vector<std::string> command;  // PROGRAM ARGS...
};

// Parses and checks the options; returns an empty string or what is wrong.
std::string parse_options(int argc, char** argv, TraceOptions* options);

extern const char kUsage[];

}  // namespace anygpu::intercept
