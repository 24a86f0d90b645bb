#include "shim/code_object/spirv_reader.h"

#include <cinttypes>

#include "shim/code_object/spirv_module.h"
#include "shim/support/string_format.h"

namespace anygpu {
namespace {

using spirv::Module;
using namespace spirv;  // the opcodes

constexpr size_t kHeaderWords = 5;
constexpr uint32_t kDecorationCPacked = 10, kDecorationFuncParamAttr = 38;
constexpr uint32_t kDecorationLinkageAttributes = 41, kLinkageTypeExport = 0;
constexpr uint32_t kStorageClassUniformConstant = 0, kStorageClassCrossWorkgroup = 5;
constexpr uint32_t kFuncParamAttrByVal = 2;
constexpr uint32_t kAddressingPhysical32 = 1;
constexpr uint32_t kExecutionModeSubgroupSize = 35;

// Every OpType* whose first operand is its result id.
bool is_type(uint32_t opcode) {
  return opcode >= kOpTypeVoid && opcode <= kOpTypePipe;
}

// The module's words, byte-swapped when it was written big-endian.
class Words {
 public:
  Words(ByteReader image, bool swapped) : image_(image), swapped_(swapped) {}
  size_t size() const { return image_.size() / 4; }
  uint32_t operator[](size_t index) const {
    uint32_t word = 0;
    image_.read(index * 4, &word);
    return swapped_ ? __builtin_bswap32(word) : word;
  }

 private:
  ByteReader image_;
  bool swapped_;
};

// One instruction's operands (the words after its opcode word).
struct Instruction {
  uint32_t opcode;
  const Words* words;
  size_t first, count;
  uint32_t operand(size_t i) const { return i < count ? (*words)[first + i] : 0; }
};

// A literal string starting at operand `at`: NUL-terminated inside the instruction.
bool literal_string(const Instruction& in, size_t at, std::string* text) {
  text->clear();
  for (size_t i = at; i < in.count; ++i) {
    const uint32_t word = in.operand(i);
    for (int byte = 0; byte < 4; ++byte) {
      const char c = static_cast<char>((word >> (8 * byte)) & 0xff);
      if (c == 0) return true;
      text->push_back(c);
    }
  }
  return false;
}

class Collector {
 public:
  explicit Collector(Module* module) : module_(module) {}

  bool add(const Instruction& in, std::string* error) {
    switch (in.opcode) {
      case kOpMemoryModel:
        if (in.operand(0) == kAddressingPhysical32) module_->pointer_size = 4;
        return true;
      case kOpEntryPoint:
        return add_entry_point(in, error);
      case kOpExecutionMode:
        if (in.operand(1) == kExecutionModeSubgroupSize && in.count >= 3)
          module_->subgroup_sizes[in.operand(0)] = in.operand(2);
        return true;
      case kOpConstant:
        if (in.count >= 3)
          module_->constants[in.operand(1)] =
              in.operand(2) | (in.count >= 4 ? uint64_t{in.operand(3)} << 32 : 0);
        return true;
      case kOpDecorate:
        add_decoration(in);
        return true;
      case kOpVariable:
        if (function_ == 0 && (in.operand(2) == kStorageClassCrossWorkgroup ||
                               in.operand(2) == kStorageClassUniformConstant))
          module_->global_variables.push_back(in.operand(1));
        return true;
      case kOpFunction:
        function_ = in.operand(1);
        module_->functions[function_];
        return true;
      case kOpFunctionParameter:
        return add_parameter(in, error);
      case kOpFunctionEnd:
        function_ = 0;
        return true;
      default:
        if (is_type(in.opcode) && in.count >= 1) add_type(in);
        return true;
    }
  }

 private:
  bool add_entry_point(const Instruction& in, std::string* error) {
    spirv::EntryPoint entry;
    entry.execution_model = in.operand(0);
    entry.function = in.operand(1);
    if (in.count < 3 || !literal_string(in, 2, &entry.name)) {
      *error = "an OpEntryPoint's name is not terminated inside the instruction";
      return false;
    }
    module_->entry_points.push_back(std::move(entry));
    return true;
  }
  void add_decoration(const Instruction& in) {
    const uint32_t target = in.operand(0), decoration = in.operand(1);
    if (decoration == kDecorationCPacked) module_->packed_structs.insert(target);
    if (decoration == kDecorationFuncParamAttr && in.operand(2) == kFuncParamAttrByVal)
      module_->by_value_params.insert(target);
    // LinkageAttributes: the name (a NUL-terminated string padded to words), then the type.
    std::string name;
    if (decoration != kDecorationLinkageAttributes || !literal_string(in, 2, &name)) return;
    const size_t type_at = 2 + (name.size() + 4) / 4;
    if (type_at < in.count && in.operand(type_at) == kLinkageTypeExport)
      module_->exports[target] = std::move(name);
  }
  bool add_parameter(const Instruction& in, std::string* error) {
    if (function_ == 0) {
      *error = "an OpFunctionParameter lies outside a function";
      return false;
    }
    module_->functions[function_].push_back({in.operand(0), in.operand(1)});
    return true;
  }
  void add_type(const Instruction& in) {
    spirv::Type& type = module_->types[in.operand(0)];
    type.opcode = in.opcode;
    type.operands.clear();
    for (size_t i = 1; i < in.count; ++i) type.operands.push_back(in.operand(i));
  }

  Module* module_;
  uint32_t function_ = 0;
};

bool collect(const Words& words, Module* module, std::string* error) {
  Collector collector(module);
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t first = words[at];
    const size_t length = first >> 16;
    if (length == 0 || length > words.size() - at) {
      *error =
          strprintf("the instruction at word %zu has length %zu, outside the module", at, length);
      return false;
    }
    const Instruction in{first & 0xffff, &words, at + 1, length - 1};
    if (!collector.add(in, error)) return false;
    at += length;
  }
  return true;
}

bool lay_out_kernels(const Module& module, SpirvInfo* info, size_t word_count, std::string* error) {
  size_t total_params = 0;
  for (const spirv::EntryPoint& entry : module.entry_points) {
    SpirvEntryPoint out;
    out.name = entry.name;
    out.execution_model = entry.execution_model;
    const auto required = module.subgroup_sizes.find(entry.function);
    if (required != module.subgroup_sizes.end()) out.required_subgroup_size = required->second;
    if (entry.execution_model == kSpirvExecutionModelKernel &&
        !spirv::parameter_layout(module, entry.function, &out.params, error)) {
      *error = "kernel '" + entry.name + "': " + *error;
      return false;
    }
    // Entry points sharing one function would repeat its parameters: keep the output linear.
    total_params += out.params.size();
    if (total_params > word_count) {
      *error = "its entry points list more parameters than the module holds";
      return false;
    }
    info->entry_points.push_back(std::move(out));
  }
  return true;
}

}  // namespace

bool is_spirv(ByteReader image) {
  uint32_t magic = 0;
  return image.read(0, &magic) && (magic == kSpirvMagic || magic == __builtin_bswap32(kSpirvMagic));
}

namespace {

// The module's words and its instructions collected; false with `error` for a malformed module.
bool collect_module(ByteReader image, Module* module, size_t* word_count, unsigned* version,
                    std::string* error) {
  uint32_t magic = 0;
  if (!is_spirv(image) || !image.read(0, &magic)) {
    *error = "it does not start with the SPIR-V magic number";
    return false;
  }
  if (image.size() % 4 != 0 || image.size() < kHeaderWords * 4) {
    *error = strprintf("its %zu bytes are not a whole number of words after a 5-word header",
                       image.size());
    return false;
  }
  const Words words(image, magic != kSpirvMagic);
  *word_count = words.size();
  *version = words[1];
  return collect(words, module, error);
}

}  // namespace

bool read_spirv(ByteReader image, SpirvInfo* info, std::string* error) {
  *info = SpirvInfo();
  Module module;
  size_t word_count = 0;
  unsigned version = 0;
  if (!collect_module(image, &module, &word_count, &version, error)) return false;
  info->version_major = (version >> 16) & 0xff;
  info->version_minor = (version >> 8) & 0xff;
  if (!lay_out_kernels(module, info, word_count, error)) return false;
  for (uint32_t variable : module.global_variables) {
    const auto exported = module.exports.find(variable);
    if (exported != module.exports.end()) info->exported_variables.push_back(exported->second);
  }
  return true;
}

bool read_spirv_subgroup_sizes(ByteReader image,
                               std::vector<std::pair<std::string, uint32_t>>* sizes,
                               std::string* error) {
  sizes->clear();
  Module module;
  size_t word_count = 0;
  unsigned version = 0;
  if (!collect_module(image, &module, &word_count, &version, error)) return false;
  for (const spirv::EntryPoint& entry : module.entry_points) {
    const auto required = module.subgroup_sizes.find(entry.function);
    if (required != module.subgroup_sizes.end() && required->second != 0)
      sizes->emplace_back(entry.name, required->second);
  }
  return true;
}

}  // namespace anygpu
