#include "shim/code_object/code_object_entries.h"

#include <elf.h>

#include "shim/code_object/fatbin_reader.h"
#include "shim/code_object/offload_bundle.h"
#include "shim/code_object/ptx_reader.h"
#include "shim/support/string_format.h"

namespace anygpu {
namespace {

// A bundle may hold a fatbin (hipcc for NVIDIA does); deeper nesting is not opened.
constexpr int kMaxNesting = 2;

// Entries are read while their bytes add up to no more than their container's: entries that
// point at the same bytes many times over cannot multiply the work. Real containers never overlap.
struct Walk {
  int depth = 1;
  size_t bytes_left = 0;

  bool charge(size_t bytes) {
    if (bytes > bytes_left) return false;
    bytes_left -= bytes;
    return true;
  }
};

constexpr char kOverlapProblem[] = "it overlaps other entries, so it was not read";

bool add_entries(const CodeObject& code, const std::string& label, Walk walk,
                 std::vector<CodeEntry>* entries, std::string* error);

std::string nested_label(const std::string& outer, const std::string& inner) {
  return outer.empty() ? inner : outer + " > " + inner;
}

void add_leaf(const CodeObject& code, const std::string& label, Walk* walk,
              std::vector<CodeEntry>* entries) {
  CodeTarget target;
  if (walk->charge(code.size)) {
    target = describe_code_object(code);
  } else {
    target.format = code.format;
    target.problem = kOverlapProblem;
  }
  entries->push_back(CodeEntry{label, code, target});
}

CodeObjectFormat fatbin_entry_format(FatbinEntryKind kind) {
  switch (kind) {
    case FatbinEntryKind::ptx:
      return CodeObjectFormat::ptx;
    case FatbinEntryKind::elf:
      return CodeObjectFormat::cuda_cubin;
    case FatbinEntryKind::other:
      break;
  }
  return CodeObjectFormat::unknown;
}

// A fatbin entry's header says what it is built for; an uncompressed payload is read as well.
void add_fatbin_entry(const FatbinEntry& entry, const std::string& label, Walk* walk,
                      std::vector<CodeEntry>* entries) {
  const CodeObjectFormat format = fatbin_entry_format(entry.kind);
  const CodeObject code{format, entry.data, entry.size};
  if (!entry.compression) {
    add_leaf(code, label, walk, entries);
    CodeTarget& target = entries->back().target;
    if (format == CodeObjectFormat::unknown)
      target.problem = strprintf("fatbin entry kind %u is neither PTX nor ELF", entry.kind_code);
    else if (target.format != format && target.problem.empty())
      target.problem = strprintf("its payload is not a %s", format_name(format));
    return;
  }
  CodeTarget target;
  target.format = format;
  target.cuda.sm = entry.sm;
  target.ptx_version = ptx_version_number(entry.ptx_major, entry.ptx_minor);
  target.problem =
      strprintf("compressed with %s, which anygpu does not support (nvcc -Xfatbin=-compress=false)",
                entry.compression);
  entries->push_back(CodeEntry{label, code, target});
}

bool add_fatbin(const CodeObject& code, const std::string& label, Walk* walk,
                std::vector<CodeEntry>* entries, std::string* error) {
  std::vector<FatbinEntry> fatbin;
  if (!read_fatbin(ByteReader(code.data, code.size), &fatbin, error)) return false;
  for (size_t i = 0; i < fatbin.size(); ++i)
    add_fatbin_entry(fatbin[i], nested_label(label, strprintf("fatbin entry %zu", i)), walk,
                     entries);
  return true;
}

// Opens a container inside a bundle; false (and nothing added) when it is not one or is malformed.
bool add_nested(const CodeObject& inner, const std::string& label, Walk* walk,
                std::vector<CodeEntry>* entries, std::string* error) {
  if (!is_container(inner.format) || walk->depth >= kMaxNesting) return false;
  if (!walk->charge(inner.size)) {
    *error = kOverlapProblem;
    return false;
  }
  std::vector<CodeEntry> nested;
  if (!add_entries(inner, label, Walk{walk->depth + 1, inner.size}, &nested, error)) return false;
  entries->insert(entries->end(), nested.begin(), nested.end());
  return true;
}

// The host entry of an object-file bundle is the file that carries the bundle: it is read as the
// ELF file it was before bundling, not opened again (it would be this bundle), and not charged
// (it is every byte). A relocatable object, what clang-offload-bundler is given, loads nowhere.
void add_carrier(const BundleEntry& entry, const std::string& label,
                 std::vector<CodeEntry>* entries) {
  const CodeObject code{detect_elf_format(entry.data, entry.size), entry.data, entry.size};
  CodeTarget target = describe_code_object(code);
  if (target.problem.empty() && target.elf_type == ET_REL)
    target.problem =
        "it is the object file that carries the bundle, which no backend loads; the CPU backend "
        "needs it linked into a shared object";
  entries->push_back(CodeEntry{label, code, target});
}

bool read_bundle(const CodeObject& code, OffloadBundle* bundle, std::string* error) {
  const ByteReader image(code.data, code.size);
  if (code.format == CodeObjectFormat::clang_offload_bundle_object)
    return read_offload_bundle_sections(image, bundle, error);
  return read_offload_bundle(image, bundle, error);
}

bool add_bundle(const CodeObject& code, const std::string& label, Walk* walk,
                std::vector<CodeEntry>* entries, std::string* error) {
  OffloadBundle bundle;
  if (!read_bundle(code, &bundle, error)) return false;
  for (const BundleEntry& entry : bundle.entries) {
    const std::string inner_label = nested_label(label, "'" + entry.id + "'");
    if (entry.whole_file) {
      add_carrier(entry, inner_label, entries);
      continue;
    }
    const CodeObject inner = detect_code_object(entry.data, entry.size);
    std::string inner_error;
    if (add_nested(inner, inner_label, walk, entries, &inner_error)) continue;
    if (!inner_error.empty()) {
      CodeTarget target;
      target.format = inner.format;
      target.problem = inner_error;
      entries->push_back(CodeEntry{inner_label, inner, target});
      continue;
    }
    add_leaf(inner, inner_label, walk, entries);
  }
  return true;
}

bool add_entries(const CodeObject& code, const std::string& label, Walk walk,
                 std::vector<CodeEntry>* entries, std::string* error) {
  if (code.format == CodeObjectFormat::clang_offload_bundle ||
      code.format == CodeObjectFormat::clang_offload_bundle_object)
    return add_bundle(code, label, &walk, entries, error);
  if (code.format == CodeObjectFormat::nvidia_fatbin)
    return add_fatbin(code, label, &walk, entries, error);
  add_leaf(code, label, &walk, entries);
  return true;
}

}  // namespace

bool list_code_entries(const CodeObject& image, std::vector<CodeEntry>* entries,
                       std::string* error) {
  entries->clear();
  return add_entries(image, "", Walk{1, image.size}, entries, error);
}

}  // namespace anygpu
