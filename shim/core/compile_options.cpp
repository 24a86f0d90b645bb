#include "shim/core/compile_options.h"

#include <cstring>
#include <string>

#include "loaders/backend_list.h"
#include "shim/core/error.h"

namespace anygpu {

namespace {

bool starts_with(const char* text, const char* prefix) {
  return std::strncmp(text, prefix, std::strlen(prefix)) == 0;
}

// A macro name as -D takes it: an identifier, then optionally =value.
bool valid_define(const std::string& define) {
  const std::string name = define.substr(0, define.find('='));
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}

bool known_backend(const std::string& name) {
  for (const BackendDescriptor* descriptor : backend_descriptors())
    if (name == descriptor->name) return true;
  return false;
}

// Whether a compiler's own option makes the result depend on files on disk or on this machine,
// neither of which is in the cache key.
bool outside_the_key(const std::string& option) {
  for (const char* prefix : {"-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros",
                             "--include-path", "--pre-include", "@"})
    if (option.compare(0, std::strlen(prefix), prefix) == 0) return true;
  return option.find("native") != std::string::npos;  // -march=native, -mcpu=native
}

std::string backend_names() {
  std::string names;
  for (const BackendDescriptor* descriptor : backend_descriptors())
    names += std::string(names.empty() ? "" : ", ") + descriptor->name;
  return names;
}

}  // namespace

ag_result parse_compile_options(int count, const char* const* given, const char* backend_name,
                                CompileOptions& options, bool& cacheable) {
  options = CompileOptions{};
  cacheable = true;
  for (int i = 0; i < count; ++i) {
    const char* option = given[i];
    if (!option)
      return fail(AG_ERROR_INVALID_VALUE, "options[%d] is NULL (pass num_options strings)", i);
    if (starts_with(option, "-D")) {
      std::string define = option + 2;
      if (define.empty()) {  // -D NAME
        if (i + 1 >= count || !given[i + 1])
          return fail(AG_ERROR_INVALID_VALUE, "options[%d] \"-D\" needs a macro after it", i);
        define = given[++i];
      }
      if (!valid_define(define))
        return fail(AG_ERROR_INVALID_VALUE,
                    "options[%d] \"%s\": -D takes NAME or NAME=VALUE, NAME an identifier", i,
                    option);
      options.defines.push_back(define);
    } else if (starts_with(option, "-I")) {
      std::string directory = option + 2;
      if (directory.empty()) {  // -I DIR
        if (i + 1 >= count || !given[i + 1] || !*given[i + 1])
          return fail(AG_ERROR_INVALID_VALUE, "options[%d] \"-I\" needs a directory after it", i);
        directory = given[++i];
      }
      options.vendor.push_back("-I" + directory);
      cacheable = false;
    } else if (option[0] == '-' && option[1] == 'O' && option[2] >= '0' && option[2] <= '3' &&
               option[3] == '\0') {
      options.optimization = option[2] - '0';
    } else if (std::strcmp(option, "--use_fast_math") == 0 ||
               std::strcmp(option, "-use_fast_math") == 0) {
      options.fast_math = true;
    } else if (starts_with(option, "-X")) {
      const char* equals = std::strchr(option, '=');
      if (!equals || equals == option + 2 || equals[1] == '\0')
        return fail(AG_ERROR_INVALID_VALUE,
                    "options[%d] \"%s\": write -X<backend>=<option>, e.g. -Xcuda=--maxrregcount=32",
                    i, option);
      const std::string backend(option + 2, equals);
      if (!known_backend(backend))
        return fail(AG_ERROR_INVALID_VALUE,
                    "options[%d] \"%s\": no backend is named \"%s\" (the names: %s)", i, option,
                    backend.c_str(), backend_names().c_str());
      if (backend != backend_name) continue;
      options.vendor.push_back(equals + 1);
      if (outside_the_key(options.vendor.back())) cacheable = false;
    } else {
      return fail(AG_ERROR_INVALID_VALUE,
                  "options[%d] \"%s\" is not an option every backend takes (-D, -I, -O0..-O3, "
                  "--use_fast_math); pass a compiler's own option as -X<backend>=<option>",
                  i, option);
    }
  }
  return AG_SUCCESS;
}

}  // namespace anygpu
