#include "interpose/launcher/options.h"

#include <cstring>

#include "interpose/fault_spec.h"

namespace anygpu::intercept {

const char kUsage[] =
    "usage: anygpu-trace [OPTIONS] [--] PROGRAM [ARGS...]\n"
    "Runs PROGRAM with libanygpu_intercept.so preloaded: its CUDA Driver API, CUDA Runtime and\n"
    "HIP calls are traced, counted, failed on demand or their modules saved.\n"
    "\n"
    "  --trace FILE       write a Chrome trace-event JSON timeline (%p: the process id)\n"
    "  --stats[=FILE]     write per-function statistics at exit (default: stderr)\n"
    "  --fault SPEC       fail calls: "
    "FUNCTION[:nth=N|:p=P[:seed=S]][:error=E][:when=before|after]\n"
    "                     (repeatable)\n"
    "  --dump DIR         save every module image loaded into DIR\n"
    "  --library PATH     the interposer to preload (default: found next to anygpu-trace)\n"
    "  --help             this text\n"
    "\n"
    "Without --trace, --stats, --fault or --dump it traces to anygpu-trace.%p.json and writes\n"
    "statistics to stderr. docs/interposition.md describes the environment variables it sets.\n";

namespace {

// --name VALUE or --name=VALUE; `i` moves past what was used.
bool take_value(int argc, char** argv, int* i, const char* name, std::string* value,
                std::string* error) {
  const char* argument = argv[*i];
  size_t length = strlen(name);
  if (strncmp(argument, name, length) != 0) return false;
  if (argument[length] == '=') {
    *value = argument + length + 1;
  } else if (argument[length] == '\0') {
    if (*i + 1 >= argc) {
      *error = std::string(name) + " needs a value";
      return true;
    }
    *value = argv[++*i];
  } else {
    return false;
  }
  if (value->empty() || *value == "--") *error = std::string(name) + " needs a value";
  return true;
}

}  // namespace

std::string parse_options(int argc, char** argv, TraceOptions* options) {
  int i = 1;
  for (; i < argc; ++i) {
    std::string argument = argv[i], value, error;
    if (argument == "--") {
      ++i;
      break;
    }
    if (argument == "--help" || argument == "-h") {
      options->help = true;
      return "";
    }
    if (argument == "--stats") {
      options->stats = true;
    } else if (argument.rfind("--stats=", 0) == 0) {
      options->stats = true;
      options->stats_file = argument.substr(8);
      if (options->stats_file.empty()) return "--stats= needs a file name";
    } else if (take_value(argc, argv, &i, "--trace", &value, &error)) {
      options->trace = true;
      options->trace_file = value;
    } else if (take_value(argc, argv, &i, "--fault", &value, &error)) {
      options->faults.push_back(value);
    } else if (take_value(argc, argv, &i, "--dump", &value, &error)) {
      options->dump = true;
      options->dump_dir = value;
    } else if (take_value(argc, argv, &i, "--library", &value, &error)) {
      options->library = value;
    } else if (argument.size() > 1 && argument[0] == '-') {
      return "unknown option " + argument;
    } else {
      break;  // PROGRAM
    }
    if (!error.empty()) return error;
  }
  for (; i < argc; ++i) options->command.push_back(argv[i]);
  if (options->command.empty()) return "no program to run";
  for (const std::string& text : options->faults) {
    std::vector<FaultSpec> specs;
    std::vector<std::string> errors;
    parse_fault_specs(text, &specs, &errors);
    if (!errors.empty()) return "bad --fault spec " + errors.front();
    if (specs.empty()) return "--fault '" + text + "' holds no spec";
  }
  if (!options->trace && !options->stats && options->faults.empty() && !options->dump)
    options->trace = options->stats = true;
  return "";
}

}  // namespace anygpu::intercept
