#include "interpose/fault_spec.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>

#include "interpose/error_names.h"
#include "interpose/function_names.h"

namespace anygpu::intercept {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

std::string trim(const std::string& text) {
  size_t first = text.find_first_not_of(" \t\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
}

bool parse_integer(const std::string& text, long long low, long long high, long long* value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long long parsed = strtoll(text.c_str(), &end, 0);
  if (errno != 0 || *end != '\0' || parsed < low || parsed > high) return false;
  *value = parsed;
  return true;
}

// The API of the functions `name` selects, or false when it selects none.
bool api_of(const std::string& name, Api* api) {
  for (int id = 0; id < kFunctionCount; ++id) {
    if (name_selects(name, id)) {
      *api = function_api(id);
      return true;
    }
  }
  return false;
}

// One spec; returns an empty string or what is wrong with it.
std::string parse_one(const std::string& text, FaultSpec* spec) {
  std::vector<std::string> fields = split(text, ':');
  spec->function = trim(fields[0]);
  Api api;
  if (spec->function.empty()) return "no function name";
  if (!api_of(spec->function, &api))
    return "'" + spec->function + "' is not a function anygpu-intercept wraps";
  std::vector<std::string> keys;  // given so far: each key once, a second is a mistake
  for (size_t i = 1; i < fields.size(); ++i) {
    std::string field = trim(fields[i]);
    size_t equals = field.find('=');
    if (equals == std::string::npos) return "'" + field + "' is not key=value";
    std::string key = field.substr(0, equals), value = field.substr(equals + 1);
    for (const std::string& given : keys)
      if (given == key) return key + "= is given twice";
    keys.push_back(key);
    long long number = 0;
    if (key == "nth") {
      if (!parse_integer(value, 1, INT_MAX, &number)) return "nth must be a whole number >= 1";
      spec->nth = static_cast<int>(number);
    } else if (key == "p") {
      char* end = nullptr;
      double p = strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !(p >= 0.0 && p <= 1.0))
        return "p must be a probability from 0 to 1";
      spec->probability = p;
    } else if (key == "seed") {
      if (!parse_integer(value, 0, LLONG_MAX, &number)) return "seed must be a whole number >= 0";
      spec->seed = static_cast<uint64_t>(number);
    } else if (key == "error") {
      int result = 0;
      if (!result_value(api, value.c_str(), &result)) {
        if (!parse_integer(value, INT_MIN, INT_MAX, &number))
          return "error '" + value + "' is neither a number nor a " +
                 (api == Api::cuda ? "CUresult" : "hipError_t") + " name";
        // Every CUresult and hipError_t is positive; a negative one is a typing mistake.
        if (number < 0) return "error must be a positive number (or a name), not " + value;
        result = static_cast<int>(number);
      }
      if (result == 0) return "error must not be success (0)";
      spec->error = result;
    } else if (key == "when") {
      if (value != "before" && value != "after") return "when must be before or after";
      spec->after = value == "after";
    } else {
      return "unknown key '" + key + "' (nth, p, seed, error, when)";
    }
  }
  if (spec->nth > 0 && spec->probability >= 0.0) return "nth and p exclude each other";
  if (std::find(keys.begin(), keys.end(), "seed") != keys.end() && spec->probability < 0.0)
    return "seed without p (the seed chooses which calls p fails)";
  return "";
}

}  // namespace

void parse_fault_specs(const std::string& text, std::vector<FaultSpec>* specs,
                       std::vector<std::string>* errors) {
  for (const std::string& part : split(text, ';')) {
    if (trim(part).empty()) continue;
    FaultSpec spec;
    std::string problem = parse_one(part, &spec);
    if (problem.empty())
      specs->push_back(spec);
    else
      errors->push_back("'" + trim(part) + "': " + problem);
  }
}

}  // namespace anygpu::intercept
