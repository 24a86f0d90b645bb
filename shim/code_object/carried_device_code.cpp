#include "shim/code_object/carried_device_code.h"

#include <vector>

#include "shim/code_object/code_object_entries.h"
#include "shim/code_object/elf_reader.h"
#include "shim/support/string_format.h"

namespace anygpu {
namespace {

constexpr size_t kMaxNamed = 4;  // the detail stays short: "and N more"

// The code objects a section holds, as selection details name them; "" when it holds none. A
// file inside it is described without looking into its own sections: nesting stays one deep.
thread_local bool reading_section = false;

std::string section_code(ByteReader bytes) {
  if (reading_section) return "";
  reading_section = true;
  struct Reset {
    ~Reset() { reading_section = false; }
  } reset;
  const CodeObject code = detect_code_object(bytes.data(), bytes.size());
  std::vector<CodeEntry> entries;
  std::string error;
  if (!is_container(code.format) || !list_code_entries(code, &entries, &error)) return "";
  std::string text;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i == kMaxNamed) {
      text += strprintf(", and %zu more", entries.size() - i);
      break;
    }
    text += (i ? ", " : "") + code_target_text(entries[i].target);
  }
  return text;
}

}  // namespace

std::string carried_device_code(ByteReader image) {
  std::vector<ElfSection> sections;
  std::string error;
  if (!is_elf(image) || !read_elf_section_headers(image, &sections, &error)) return "";
  for (const ElfSection& section : sections) {
    const bool nvidia = section.name == ".nv_fatbin" || section.name == "__nv_relfatbin";
    if (!nvidia && section.name != ".hip_fatbin") continue;
    const std::string inside = section_code(image.slice(section.offset, section.size));
    return strprintf(
        "it carries device code in its %.*s section%s%s%s; anygpu loads such code given on its "
        "own, not inside a program or object file (%s)",
        static_cast<int>(section.name.size()), section.name.data(), inside.empty() ? "" : " (",
        inside.c_str(), inside.empty() ? "" : ")",
        nvidia ? "nvcc -fatbin, -cubin or -ptx" : "hipcc --genco, or the offload bundle");
  }
  return "";
}

}  // namespace anygpu
