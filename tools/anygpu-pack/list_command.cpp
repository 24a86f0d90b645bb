// anygpu-pack list: one line per code object: its entry id (or place in a fatbin), what it is
// built for, its size and its kernels.
#include <cstdio>

#include "embedded_bundles.h"
#include "pack.h"
#include "shim/code_object/carried_device_code.h"
#include "shim/code_object/code_object_entries.h"
#include "shim/code_object/code_object_kernels.h"
#include "shim/code_object/host_image_check.h"

namespace anygpu_pack {
namespace {

using namespace anygpu;

std::string kernels_of(const CodeEntry& entry) {
  if (!entry.target.problem.empty()) return "-";
  std::vector<std::string> kernels;
  std::string error;
  if (!code_object_kernels(entry.code, &kernels, &error)) return "(unreadable: " + error + ")";
  std::string text;
  for (const std::string& name : kernels) text += (text.empty() ? "" : " ") + name;
  return text.empty() ? "-" : text;
}

// A bundle entry's id is shown without the quotes selection details put around it.
std::string shown_label(std::string label) {
  if (label.empty()) return "-";
  const size_t close = label.find('\'', 1);
  if (label.front() == '\'' && close != std::string::npos) {
    label.erase(close, 1);
    label.erase(0, 1);
  }
  return label;
}

// A host entry is checked as the CPU backend checks it before loading: a shared object that is
// not an anygpu host code object is listed with what is wrong.
void check_host_entries(std::vector<CodeEntry>* entries) {
  for (CodeEntry& entry : *entries) {
    std::string problem;
    if (entry.target.format == CodeObjectFormat::host_shared_object &&
        entry.target.problem.empty() &&
        !check_host_image(ByteReader(entry.code.data, entry.code.size), entry.target.elf_machine,
                          &problem))
      entry.target.problem = "not an anygpu host code object: " + problem;
  }
}

void print_entries(const std::string& heading, std::vector<CodeEntry> entries) {
  check_host_entries(&entries);
  printf("%s: %zu code object%s\n", heading.c_str(), entries.size(),
         entries.size() == 1 ? "" : "s");
  for (const CodeEntry& entry : entries)
    printf("  %-44s %-36s %9zu  kernels: %s\n", shown_label(entry.label).c_str(),
           code_target_text(entry.target).c_str(), entry.code.size, kernels_of(entry).c_str());
}

// The code objects of one entry of a bundle found in a file (a fatbin entry is opened).
void add_found_entry(const BundleEntry& found, std::vector<CodeEntry>* entries) {
  const CodeObject code = detect_code_object(found.data, found.size);
  std::vector<CodeEntry> inner;
  std::string error;
  if (!list_code_entries(code, &inner, &error)) {
    inner.assign(1, CodeEntry{"", code, describe_code_object(code)});
    inner[0].target.problem = error;
  }
  for (CodeEntry& entry : inner) {
    entry.label = entry.label.empty() ? found.id : found.id + " > " + entry.label;
    entries->push_back(entry);
  }
}

// Lists the bundles a program, library or object file carries; false when it carries none.
bool list_found_bundles(const std::string& path, ByteReader file) {
  const std::vector<FoundBundle> found = find_bundles(file);
  for (const FoundBundle& bundle : found) {
    std::vector<CodeEntry> entries;
    for (const BundleEntry& entry : bundle.entries) add_found_entry(entry, &entries);
    print_entries(path + ": " + bundle.where, entries);
  }
  return !found.empty();
}

}  // namespace

int list_command(const std::vector<std::string>& args) {
  if (args.size() != 1) return usage();
  const std::string& path = args[0];
  std::vector<unsigned char> bytes;
  std::string error;
  if (!read_file(path, &bytes, &error)) return report(error);
  const CodeObject image = detect_code_object(bytes.data(), bytes.size());
  const bool may_embed = image.format == CodeObjectFormat::unknown ||
                         image.format == CodeObjectFormat::foreign_elf ||
                         image.format == CodeObjectFormat::host_shared_object;
  if (may_embed && list_found_bundles(path, ByteReader(bytes.data(), bytes.size()))) return 0;
  if (image.format == CodeObjectFormat::unknown)
    return report(path + " is no code object and carries no offload bundle");
  if (image.format == CodeObjectFormat::host_shared_object &&
      !check_host_image(ByteReader(image.data, image.size), host_elf_machine(), &error)) {
    const std::string carried = carried_device_code(ByteReader(image.data, image.size));
    return report(path + " is not an anygpu host code object and carries no offload bundle: " +
                  error + (carried.empty() ? "" : "; " + carried));
  }
  std::vector<CodeEntry> entries;
  if (!list_code_entries(image, &entries, &error))
    return report(path + " is a malformed " + format_name(image.format) + ": " + error);
  print_entries(path + " (" + format_name(image.format) + ")", entries);
  return 0;
}

}  // namespace anygpu_pack
