#include "shim/code_object/code_object_selection.h"

#include "shim/code_object/code_object_entries.h"
#include "shim/support/string_format.h"

namespace anygpu {
namespace {

// The detail stays inside fail()'s 1024-byte buffer: a long list ends with "and N more".
constexpr size_t kMaxDetailText = 880, kMinListText = 160;

std::string entry_text(const CodeEntry& entry) {
  const std::string target = code_target_text(entry.target);
  return entry.label.empty() ? target : entry.label + " (" + target + ")";
}

std::string image_holds(const CodeObject& image, const std::vector<CodeEntry>& entries,
                        size_t room) {
  if (!is_container(image.format))
    return "the image is " + (entries.empty() ? std::string("empty") : entry_text(entries[0]));
  std::string text = strprintf("the image (%s) holds %zu code object%s", format_name(image.format),
                               entries.size(), entries.size() == 1 ? "" : "s");
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::string item = (i == 0 ? ": " : ", ") + entry_text(entries[i]);
    if (text.size() + item.size() > room) {
      text += strprintf(", and %zu more", entries.size() - i);
      break;
    }
    text += item;
  }
  return text;
}

std::string device_label(const CodeFitRules& device, const std::string& label) {
  return label.empty() ? "the device (" + device.target().architecture + ")" : label;
}

std::string device_needs(const CodeFitRules& device) {
  if (!device.understood())
    return strprintf("code for an architecture anygpu cannot read ('%s')",
                     device.target().architecture.c_str());
  return device.needs();
}

// The best entry that fits, preferring one that can be loaded.
struct Choice {
  const CodeEntry* usable = nullptr;
  const CodeEntry* unusable = nullptr;  // fits, but compressed or otherwise unreadable
  Fit usable_fit, unusable_fit;
};

Choice choose(const CodeFitRules& device, const std::vector<CodeEntry>& entries) {
  Choice choice;
  if (!device.understood()) return choice;
  for (const CodeEntry& entry : entries) {
    const Fit fit = device.fit(entry.target);
    if (!fit.fits()) continue;
    const bool usable = entry.target.problem.empty();
    const CodeEntry*& best = usable ? choice.usable : choice.unusable;
    Fit& best_fit = usable ? choice.usable_fit : choice.unusable_fit;
    if (!best || fit.better_than(best_fit)) {
      best = &entry;
      best_fit = fit;
    }
  }
  return choice;
}

}  // namespace

ag_result select_for_device(const CodeFitRules& device, const std::string& label, const void* image,
                            size_t bytes, CodeObject* selected, std::string* detail) {
  const CodeObject code = detect_code_object(image, bytes);
  if (code.format == CodeObjectFormat::unknown) {
    *detail = strprintf(
        "the %zu-byte image is of no known code-object format (host code object, "
        "PTX, cubin, fatbin, AMD code object, SPIR-V, clang offload bundle, anygpu portable "
        "source)",
        bytes);
    return AG_ERROR_INVALID_IMAGE;
  }
  if (code.format == CodeObjectFormat::compressed_offload_bundle) {
    *detail =
        "the image is a compressed clang offload bundle (CCOB, clang -offload-compress), "
        "which anygpu does not support; bundle it uncompressed";
    return AG_ERROR_NOT_SUPPORTED;
  }
  std::vector<CodeEntry> entries;
  std::string error;
  if (!list_code_entries(code, &entries, &error)) {
    *detail = strprintf("the image is a malformed %s: %s", format_name(code.format), error.c_str());
    return AG_ERROR_INVALID_IMAGE;
  }
  const Choice choice = choose(device, entries);
  if (choice.usable) {
    *selected = choice.usable->code;
    return AG_SUCCESS;
  }
  const std::string needs = device_label(device, label) + " needs " + device_needs(device);
  if (choice.unusable) {
    *detail =
        needs + "; the code object that fits cannot be loaded: " + entry_text(*choice.unusable);
    return AG_ERROR_NOT_SUPPORTED;
  }
  const size_t room =
      needs.size() + kMinListText < kMaxDetailText ? kMaxDetailText - needs.size() : kMinListText;
  *detail = needs + "; " + image_holds(code, entries, room);
  return AG_ERROR_NO_BINARY_FOR_DEVICE;
}

}  // namespace anygpu
