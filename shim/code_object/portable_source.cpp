#include "shim/code_object/portable_source.h"

#include <cstring>

#include "shim/support/string_format.h"

namespace anygpu {
namespace {

// The layout: lines of "<field> <value>", then each source as a line "source <name> <size>"
// followed by its bytes.
//   ANYGPU PORTABLE SOURCE 1
//   for amdgcn
//   define SCALE=2          (any number)
//   fast-math               (optional)
//   source scale.cu 1234
//   <1234 bytes>
//   source shift.cpp 567    (any number more)
//   <567 bytes>
constexpr char kMagic[] = "ANYGPU PORTABLE SOURCE 1\n";
constexpr size_t kMagicSize = sizeof kMagic - 1;
// Far above any real kernel source; bounds what a corrupt size can make us allocate.
constexpr size_t kMaxTextBytes = size_t{64} << 20;

bool is_field_value(const std::string& value) {
  return !value.empty() && value.find('\n') == std::string::npos &&
         value.find('\0') == std::string::npos;
}

bool is_file_name(const std::string& name) {
  return is_field_value(name) && name.find(' ') == std::string::npos;
}

bool is_known_family(const std::string& family) {
  return family == kPortableFamilyAmdgcn;
}

// The line at `*position` (without its '\n'), or false where none ends before the image does.
bool next_line(ByteReader image, size_t* position, std::string* line) {
  const auto* begin = image.data() + *position;
  const auto* end =
      static_cast<const unsigned char*>(memchr(begin, '\n', image.size() - *position));
  if (!end) return false;
  line->assign(reinterpret_cast<const char*>(begin), static_cast<size_t>(end - begin));
  *position += line->size() + 1;
  return true;
}

bool parse_size(const std::string& text, size_t* value) {
  if (text.empty() || text.size() > 9) return false;
  size_t result = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    result = result * 10 + static_cast<size_t>(c - '0');
  }
  *value = result;
  return true;
}

// "source <name> <size>" and the bytes after it.
bool read_file(ByteReader image, const std::string& value, size_t* position, PortableFile* file,
               std::string* error) {
  const size_t space = value.rfind(' ');
  size_t size = 0;
  if (space == std::string::npos || space == 0 || !is_file_name(value.substr(0, space)) ||
      !parse_size(value.substr(space + 1), &size) || size > kMaxTextBytes) {
    *error = "its source line 'source " + value.substr(0, 80) +
             "' is not 'source <name> <size up to 64 MiB>'";
    return false;
  }
  if (size > image.size() - *position) {
    *error = strprintf("it is truncated: source %s should have %zu bytes and has %zu",
                       value.substr(0, space).c_str(), size, image.size() - *position);
    return false;
  }
  file->name = value.substr(0, space);
  file->text.assign(reinterpret_cast<const char*>(image.data() + *position), size);
  *position += size;
  return true;
}

}  // namespace

bool is_portable_source(ByteReader image) {
  return image.size() >= kMagicSize && memcmp(image.data(), kMagic, kMagicSize) == 0;
}

bool read_portable_source(ByteReader image, PortableSource* source, std::string* error) {
  if (!is_portable_source(image)) {
    *error = "it does not start with 'ANYGPU PORTABLE SOURCE 1'";
    return false;
  }
  *source = PortableSource{};
  size_t position = kMagicSize;
  for (std::string line; position < image.size();) {
    if (!next_line(image, &position, &line)) {
      *error = "it is truncated: its last line has no end";
      return false;
    }
    const size_t space = line.find(' ');
    const std::string field = line.substr(0, space);
    const std::string value = space == std::string::npos ? "" : line.substr(space + 1);
    const bool before_sources = source->sources.empty();
    if (field == "source") {
      source->sources.emplace_back();
      if (!read_file(image, value, &position, &source->sources.back(), error)) return false;
    } else if (before_sources && field == "for" && is_known_family(value)) {
      source->family = value;
    } else if (before_sources && field == "define" && is_field_value(value)) {
      source->defines.push_back(value);
    } else if (before_sources && field == "fast-math" && space == std::string::npos) {
      source->fast_math = true;
    } else {
      *error = "its line '" + line.substr(0, 80) + "' is not one anygpu knows here";
      return false;
    }
  }
  if (source->family.empty()) {
    *error = "it names no target family ('for amdgcn')";
    return false;
  }
  if (source->sources.empty()) {
    *error = "it holds no source ('source <name> <size>')";
    return false;
  }
  return true;
}

bool write_portable_source(const PortableSource& source, std::vector<unsigned char>* bytes,
                           std::string* error) {
  if (!is_known_family(source.family)) {
    *error = "'" + source.family + "' is not a target family of portable sources (amdgcn)";
    return false;
  }
  if (source.sources.empty()) {
    *error = "a portable source needs at least one source";
    return false;
  }
  std::string text = kMagic;
  text += "for " + source.family + "\n";
  for (const std::string& define : source.defines) {
    if (!is_field_value(define)) {
      *error = "a define is empty or holds a line break";
      return false;
    }
    text += "define " + define + "\n";
  }
  if (source.fast_math) text += "fast-math\n";
  for (const PortableFile& file : source.sources) {
    if (!is_file_name(file.name)) {
      *error = "the source name '" + file.name + "' is empty or holds a space or line break";
      return false;
    }
    if (file.text.size() > kMaxTextBytes) {
      *error = strprintf("the source %s has %zu bytes, more than the %zu a portable source takes",
                         file.name.c_str(), file.text.size(), kMaxTextBytes);
      return false;
    }
    text += strprintf("source %s %zu\n", file.name.c_str(), file.text.size());
    text += file.text;
  }
  bytes->assign(text.begin(), text.end());
  return true;
}

}  // namespace anygpu
