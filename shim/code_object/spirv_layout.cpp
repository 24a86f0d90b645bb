// Parameter layout of SPIR-V kernels, by OpenCL C rules: scalars their width, 3-element vectors
// padded to 4, structs laid out in member order with natural alignment (none when CPacked),
// pointers and opaque handles the module's pointer size; a ByVal pointer parameter passes the
// object it points to.
#include <cinttypes>
#include <unordered_map>

#include "shim/code_object/spirv_module.h"
#include "shim/support/string_format.h"

namespace anygpu::spirv {
namespace {

// Image, sampler, sampled image, opaque, event, device event, reserve id, queue, pipe.
constexpr uint32_t kOpaqueTypes[] = {25, 26, 27, 31, 34, 35, 36, 37, 38};
constexpr uint32_t kStorageWorkgroup = 4;
// No kernel takes a by-value parameter this large; a bigger size is a corrupt module.
constexpr uint64_t kMaxParamBytes = uint64_t{1} << 32;
constexpr int kMaxDepth = 64;

struct Layout {
  ag_param_kind kind = AG_PARAM_STRUCT;
  uint64_t size = 0, alignment = 1;
};

bool is_opaque(uint32_t opcode) {
  for (uint32_t o : kOpaqueTypes)
    if (o == opcode) return true;
  return false;
}

bool valid_width(uint32_t bits) {
  return bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

bool valid_vector_length(uint64_t count) {
  return count == 2 || count == 3 || count == 4 || count == 8 || count == 16;
}

// Computes type layouts once each (a type used many times is laid out once), refusing cycles
// and nesting deeper than kMaxDepth.
class LayoutCalculator {
 public:
  LayoutCalculator(const Module& module, std::string* error) : module_(module), error_(error) {}

  bool layout(uint32_t id, Layout* out, int depth = 0) {
    auto known = done_.find(id);
    if (known != done_.end()) {
      *out = known->second;
      return true;
    }
    auto type = module_.types.find(id);
    if (type == module_.types.end()) return fail(strprintf("type %u is not defined", id));
    if (depth > kMaxDepth) return fail(strprintf("type %u nests too deep (a cycle?)", id));
    if (!compute(id, type->second, out, depth + 1)) return false;
    if (out->size > kMaxParamBytes || out->alignment == 0)
      return fail(strprintf("type %u has no valid size", id));
    done_[id] = *out;
    return true;
  }

  const Type* pointer_type(uint32_t id) const {
    auto type = module_.types.find(id);
    if (type == module_.types.end() || type->second.opcode != kOpTypePointer ||
        type->second.operands.size() < 2)
      return nullptr;
    return &type->second;
  }

  bool fail(std::string message) {
    *error_ = std::move(message);
    return false;
  }

 private:
  bool compute(uint32_t id, const Type& type, Layout* out, int depth) {
    const std::vector<uint32_t>& ops = type.operands;
    const uint32_t bits = ops.empty() ? 0 : ops[0];
    switch (type.opcode) {
      case kOpTypeBool:
        *out = {AG_PARAM_INTEGER, 1, 1};
        return true;
      case kOpTypeInt:
      case kOpTypeFloat:
        if (!valid_width(bits)) return fail(strprintf("a scalar type is %u bits wide", bits));
        *out = {type.opcode == kOpTypeInt ? AG_PARAM_INTEGER : AG_PARAM_FLOAT, bits / 8u,
                bits / 8u};
        return true;
      case kOpTypeVector:
        return vector(ops, out, depth);
      case kOpTypeArray:
        return array(ops, out, depth);
      case kOpTypeStruct:
        return structure(id, ops, out, depth);
      default:
        if (type.opcode != kOpTypePointer && !is_opaque(type.opcode))
          return fail(strprintf("a kernel cannot take a parameter of type opcode %u", type.opcode));
        *out = {AG_PARAM_POINTER, module_.pointer_size, module_.pointer_size};
        return true;
    }
  }

  bool vector(const std::vector<uint32_t>& ops, Layout* out, int depth) {
    Layout element;
    if (ops.size() < 2 || !layout(ops[0], &element, depth) || element.kind == AG_PARAM_STRUCT ||
        element.kind == AG_PARAM_POINTER)
      return fail("a vector's elements are not scalars");
    if (!valid_vector_length(ops[1])) return fail(strprintf("a vector has %u elements", ops[1]));
    const uint64_t size = element.size * (ops[1] == 3 ? 4 : ops[1]);
    *out = {AG_PARAM_STRUCT, size, size};
    return true;
  }

  bool array(const std::vector<uint32_t>& ops, Layout* out, int depth) {
    Layout element;
    if (ops.size() < 2 || !layout(ops[0], &element, depth)) return fail("an array is malformed");
    auto length = module_.constants.find(ops[1]);
    if (length == module_.constants.end()) return fail("an array's length is not a constant");
    uint64_t size;
    if (__builtin_mul_overflow(element.size, length->second, &size) || size > kMaxParamBytes)
      return fail("an array is too large");
    *out = {AG_PARAM_STRUCT, size, element.alignment};
    return true;
  }

  bool structure(uint32_t id, const std::vector<uint32_t>& members, Layout* out, int depth) {
    const bool packed = module_.packed_structs.count(id) != 0;
    Layout total{AG_PARAM_STRUCT, 0, 1};
    for (uint32_t member_type : members) {
      Layout member;
      if (!layout(member_type, &member, depth)) return false;
      const uint64_t alignment = packed ? 1 : member.alignment;
      total.size = (total.size + alignment - 1) / alignment * alignment + member.size;
      if (total.size > kMaxParamBytes) return fail("a struct is too large");
      if (alignment > total.alignment) total.alignment = alignment;
    }
    total.size = (total.size + total.alignment - 1) / total.alignment * total.alignment;
    *out = total;
    return true;
  }

  const Module& module_;
  std::string* error_;
  std::unordered_map<uint32_t, Layout> done_;
};

}  // namespace

bool parameter_layout(const Module& module, uint32_t function, std::vector<SpirvParam>* params,
                      std::string* error) {
  auto found = module.functions.find(function);
  if (found == module.functions.end()) {
    *error = strprintf("its entry point names function %u, which is not defined", function);
    return false;
  }
  LayoutCalculator calculator(module, error);
  params->clear();
  for (const Parameter& parameter : found->second) {
    const Type* pointer = calculator.pointer_type(parameter.type);
    const bool by_value = module.by_value_params.count(parameter.id) != 0;
    if (by_value && !pointer) return calculator.fail("a ByVal parameter is not a pointer");
    Layout layout;
    if (!calculator.layout(by_value ? pointer->operands[1] : parameter.type, &layout)) return false;
    SpirvParam param;
    param.kind = by_value ? AG_PARAM_STRUCT : layout.kind;
    param.size = static_cast<size_t>(layout.size);
    param.alignment = static_cast<size_t>(layout.alignment);
    param.workgroup_pointer = !by_value && pointer && pointer->operands[0] == kStorageWorkgroup;
    params->push_back(param);
  }
  return true;
}

}  // namespace anygpu::spirv
