#include "shim/core/run_time_build.h"

#include <chrono>
#include <string>

#include "shim/code_object/code_object_entries.h"
#include "shim/code_object/code_object_selection.h"
#include "shim/code_object/portable_source.h"
#include "shim/core/error.h"
#include "shim/core/log.h"
#include "shim/core/program_compile.h"
#include "shim/support/string_format.h"

namespace anygpu {
namespace {

constexpr const char* kCaller = "loading a module";

// The family of portable sources the device's code can be built from; "" for none.
std::string portable_family(const Device& device) {
  const std::string& architecture = device.code_rules->target().architecture;
  return architecture.compare(0, 3, "gfx") == 0 ? kPortableFamilyAmdgcn : "";
}

// The image's portable source for `family` (the image itself, or an entry of a container).
bool find_portable_source(const void* image, size_t bytes, const std::string& family,
                          PortableSource* source) {
  std::vector<CodeEntry> entries;
  std::string error;
  if (!list_code_entries(detect_code_object(image, bytes), &entries, &error)) return false;
  for (const CodeEntry& entry : entries) {
    if (entry.target.format != CodeObjectFormat::portable_source ||
        entry.target.portable_family != family)
      continue;
    if (read_portable_source(ByteReader(entry.code.data, entry.code.size), source, &error))
      return true;
  }
  return false;
}

ag_result build(Device& device, const PortableSource& source, const std::string& missing,
                std::vector<unsigned char>* built) {
  CompileRequest request;
  request.source = {source.sources[0].name, source.sources[0].text};
  for (size_t i = 1; i < source.sources.size(); ++i)
    request.more_sources.push_back({source.sources[i].name, source.sources[i].text});
  const std::string name =
      source.sources.size() == 1
          ? source.sources[0].name
          : strprintf("%s and %zu more", source.sources[0].name.c_str(), source.sources.size() - 1);
  request.options.defines = source.defines;
  request.options.fast_math = source.fast_math;
  request.from_portable_source = true;
  CompileOutput output;
  const auto start = std::chrono::steady_clock::now();
  bool from_cache = false;
  const ag_result result = compile_for_device(device, request, true, kCaller, output, &from_cache);
  if (result == AG_ERROR_OUT_OF_MEMORY) return result;
  if (result != AG_SUCCESS) {
    const std::string why = last_error_reason();
    if (!output.log.empty())
      log(LogLevel::warn, "%s: the compiler's log of %s:\n%s", kCaller, name.c_str(),
          output.log.c_str());
    // The build's reason first: the list of what the image holds may fill the detail.
    return fail(AG_ERROR_NO_BINARY_FOR_DEVICE,
                "building the missing code object at load time from the image's portable source "
                "%s failed: %s; %s",
                name.c_str(), why.c_str(), missing.c_str());
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // A build is worth a warning (it takes a second or more); the cache's copy is not.
  log(from_cache ? LogLevel::info : LogLevel::warn,
      "%s: device %d (%s) has no code object in the image; %s one from its portable source "
      "%s for %s in %.0f ms (%zu bytes)",
      kCaller, device.ordinal, device.properties.name, from_cache ? "took the cache's" : "built",
      name.c_str(), request.target.architecture.c_str(), ms, output.image.size());
  *built = std::move(output.image);
  return AG_SUCCESS;
}

}  // namespace

ag_result code_object_for_device(Device& device, const void* image, size_t bytes, CodeObject* code,
                                 std::vector<unsigned char>* built) {
  const std::string label = strprintf("device %d (%s, %s)", device.ordinal, device.properties.name,
                                      device.properties.architecture);
  std::string detail;
  const ag_result result =
      select_for_device(*device.code_rules, label, image, bytes, code, &detail);
  if (result == AG_SUCCESS) return AG_SUCCESS;
  PortableSource source;
  const std::string family = portable_family(device);
  if (result != AG_ERROR_NO_BINARY_FOR_DEVICE || family.empty() ||
      !find_portable_source(image, bytes, family, &source))
    return fail(result, "%s", detail.c_str());
  if (ag_result r = build(device, source, detail, built)) return r;
  *code = detect_code_object(built->data(), built->size());
  return AG_SUCCESS;
}

}  // namespace anygpu
