// What the SPIR-V reader collects from a module's instructions, and the parameter layout computed
// from it (spirv_layout.cpp). Internal to spirv_reader.cpp and spirv_layout.cpp.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "shim/code_object/spirv_reader.h"

namespace anygpu::spirv {

// The opcodes the reader and the layout look at (SPIR-V specification, section 3.52).
enum Opcode : uint32_t {
  kOpMemoryModel = 14,
  kOpEntryPoint = 15,
  kOpExecutionMode = 16,
  kOpTypeVoid = 19,
  kOpTypeBool = 20,
  kOpTypeInt = 21,
  kOpTypeFloat = 22,
  kOpTypeVector = 23,
  kOpTypeImage = 25,
  kOpTypeSampler = 26,
  kOpTypeSampledImage = 27,
  kOpTypeArray = 28,
  kOpTypeStruct = 30,
  kOpTypeOpaque = 31,
  kOpTypePointer = 32,
  kOpTypeEvent = 34,
  kOpTypeDeviceEvent = 35,
  kOpTypeReserveId = 36,
  kOpTypeQueue = 37,
  kOpTypePipe = 38,
  kOpConstant = 43,
  kOpFunction = 54,
  kOpFunctionParameter = 55,
  kOpFunctionEnd = 56,
  kOpVariable = 59,
  kOpDecorate = 71,
};

struct Type {
  uint32_t opcode = 0;
  std::vector<uint32_t> operands;  // the words after the result id
};

struct Parameter {
  uint32_t type = 0;
  uint32_t id = 0;
};

struct EntryPoint {
  uint32_t execution_model = 0;
  uint32_t function = 0;
  std::string name;
};

struct Module {
  size_t pointer_size = 8;
  std::unordered_map<uint32_t, Type> types;
  std::unordered_map<uint32_t, uint64_t> constants;                // integer OpConstant values
  std::unordered_set<uint32_t> by_value_params;                    // FuncParamAttr ByVal
  std::unordered_set<uint32_t> packed_structs;                     // CPacked
  std::unordered_map<uint32_t, std::vector<Parameter>> functions;  // by function id
  std::vector<EntryPoint> entry_points;
  std::unordered_map<uint32_t, std::string> exports;  // LinkageAttributes Export, by target id
  std::vector<uint32_t> global_variables;  // module-scope OpVariables of the host-visible classes
  std::unordered_map<uint32_t, uint32_t> subgroup_sizes;  // ExecutionMode SubgroupSize, by function
};

// The layout of each parameter of `function`. False with `error` for a type it cannot lay out.
bool parameter_layout(const Module& module, uint32_t function, std::vector<SpirvParam>* params,
                      std::string* error);

}  // namespace anygpu::spirv
