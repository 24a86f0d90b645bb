#include "shim/code_object/amdgpu_target.h"

#include <initializer_list>

#include <cctype>

#include "shim/support/string_format.h"

namespace anygpu {
namespace {

// EF_AMDGPU_MACH values (LLVM AMDGPUUsage, "AMDGPU EF_AMDGPU_MACH Values"), checked against the
// e_flags clang-19 writes for each processor; gfx950 from LLVM 20.
struct Processor {
  uint8_t mach;
  const char* name;
};
constexpr Processor kProcessors[] = {
    {0x20, "gfx600"},        {0x21, "gfx601"},          {0x22, "gfx700"},
    {0x23, "gfx701"},        {0x24, "gfx702"},          {0x25, "gfx703"},
    {0x26, "gfx704"},        {0x28, "gfx801"},          {0x29, "gfx802"},
    {0x2a, "gfx803"},        {0x2b, "gfx810"},          {0x2c, "gfx900"},
    {0x2d, "gfx902"},        {0x2e, "gfx904"},          {0x2f, "gfx906"},
    {0x30, "gfx908"},        {0x31, "gfx909"},          {0x32, "gfx90c"},
    {0x33, "gfx1010"},       {0x34, "gfx1011"},         {0x35, "gfx1012"},
    {0x36, "gfx1030"},       {0x37, "gfx1031"},         {0x38, "gfx1032"},
    {0x39, "gfx1033"},       {0x3a, "gfx602"},          {0x3b, "gfx705"},
    {0x3c, "gfx805"},        {0x3d, "gfx1035"},         {0x3e, "gfx1034"},
    {0x3f, "gfx90a"},        {0x40, "gfx940"},          {0x41, "gfx1100"},
    {0x42, "gfx1013"},       {0x43, "gfx1150"},         {0x44, "gfx1103"},
    {0x45, "gfx1036"},       {0x46, "gfx1101"},         {0x47, "gfx1102"},
    {0x48, "gfx1200"},       {0x4a, "gfx1151"},         {0x4b, "gfx941"},
    {0x4c, "gfx942"},        {0x4e, "gfx1201"},         {0x4f, "gfx950"},
    {0x51, "gfx9-generic"},  {0x52, "gfx10-1-generic"}, {0x53, "gfx10-3-generic"},
    {0x54, "gfx11-generic"}, {0x55, "gfx1152"},         {0x59, "gfx12-generic"},
};

constexpr uint32_t kMachMask = 0x0ff;
// Code object v2 and v3 have one "enabled" bit per feature; v4 and later two bits each.
constexpr uint32_t kXnackV2 = 0x01, kXnackV3 = 0x100, kSrameccV3 = 0x200;
constexpr uint32_t kXnackV4Mask = 0x300, kXnackV4Shift = 8;
constexpr uint32_t kSrameccV4Mask = 0xc00, kSrameccV4Shift = 10;
constexpr uint8_t kAbiVersionV3 = 1, kAbiVersionV4 = 2;

// v4 encoding: 0 unsupported, 1 any, 2 off, 3 on.
FeatureSetting v4_setting(uint32_t bits) {
  return bits == 2 ? FeatureSetting::off : bits == 3 ? FeatureSetting::on : FeatureSetting::any;
}

FeatureSetting enabled_setting(bool enabled) {
  return enabled ? FeatureSetting::on : FeatureSetting::any;
}

const char* processor_name(uint32_t mach) {
  for (const Processor& processor : kProcessors)
    if (processor.mach == mach) return processor.name;
  return nullptr;
}

// "gfx" and letters, digits or '-' ("gfx90a", "gfx10-3-generic").
bool valid_processor(const std::string& name) {
  if (name.size() < 4 || name.compare(0, 3, "gfx") != 0) return false;
  for (char c : name)
    if (!isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
  return true;
}

bool parse_feature(std::string_view feature, AmdgpuTarget* target) {
  if (feature.size() < 2) return false;
  const char sign = feature.back();
  if (sign != '+' && sign != '-') return false;
  const FeatureSetting setting = sign == '+' ? FeatureSetting::on : FeatureSetting::off;
  feature.remove_suffix(1);
  if (feature == "xnack")
    target->xnack = setting;
  else if (feature == "sramecc")
    target->sramecc = setting;
  else
    return false;
  return true;
}

void append_feature(std::string* name, const char* feature, FeatureSetting setting) {
  if (setting == FeatureSetting::any) return;
  name->append(":").append(feature).append(setting == FeatureSetting::on ? "+" : "-");
}

// -1: no fit; 0: the code leaves it open; 1: both state the same setting.
int feature_fit(FeatureSetting code, FeatureSetting device) {
  if (code == FeatureSetting::any) return 0;
  return code == device ? 1 : -1;
}

}  // namespace

bool amdgpu_target_from_elf(const ElfHeader& header, AmdgpuTarget* target, std::string* error) {
  const uint32_t mach = header.flags & kMachMask;
  const char* name = processor_name(mach);
  if (!name) {
    *error = strprintf("its EF_AMDGPU_MACH 0x%02x names no processor anygpu knows", mach);
    return false;
  }
  target->processor = name;
  if (header.abi_version >= kAbiVersionV4) {
    target->xnack = v4_setting((header.flags & kXnackV4Mask) >> kXnackV4Shift);
    target->sramecc = v4_setting((header.flags & kSrameccV4Mask) >> kSrameccV4Shift);
  } else if (header.abi_version == kAbiVersionV3) {
    target->xnack = enabled_setting(header.flags & kXnackV3);
    target->sramecc = enabled_setting(header.flags & kSrameccV3);
  } else {
    target->xnack = enabled_setting(header.flags & kXnackV2);
    target->sramecc = FeatureSetting::any;
  }
  return true;
}

bool parse_amdgpu_target(std::string_view text, AmdgpuTarget* target) {
  constexpr std::string_view kTriplePrefix = "amdgcn-amd-amdhsa--";
  if (text.substr(0, kTriplePrefix.size()) == kTriplePrefix)
    text.remove_prefix(kTriplePrefix.size());
  AmdgpuTarget parsed;
  size_t colon = text.find(':');
  parsed.processor = std::string(text.substr(0, colon));
  if (!valid_processor(parsed.processor)) return false;
  while (colon != std::string_view::npos) {
    text.remove_prefix(colon + 1);
    colon = text.find(':');
    if (!parse_feature(text.substr(0, colon), &parsed)) return false;
  }
  *target = parsed;
  return true;
}

std::string amdgpu_target_name(const AmdgpuTarget& target) {
  std::string name = target.processor;
  append_feature(&name, "sramecc", target.sramecc);
  append_feature(&name, "xnack", target.xnack);
  return name;
}

std::string amdgpu_generic_processor(const std::string& processor) {
  // The processors of each generic target in LLVM 19.
  static const struct {
    const char* generic;
    std::initializer_list<const char*> processors;
  } kFamilies[] = {
      {"gfx9-generic", {"gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"}},
      {"gfx10-1-generic", {"gfx1010", "gfx1011", "gfx1012", "gfx1013"}},
      {"gfx10-3-generic",
       {"gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036"}},
      {"gfx11-generic",
       {"gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152"}},
      {"gfx12-generic", {"gfx1200", "gfx1201"}},
  };
  for (const auto& family : kFamilies)
    for (const char* member : family.processors)
      if (processor == member) return family.generic;
  return "";
}

int amdgpu_target_fit(const AmdgpuTarget& code, const AmdgpuTarget& device) {
  if (code.processor != device.processor) return -1;
  const int sramecc = feature_fit(code.sramecc, device.sramecc);
  const int xnack = feature_fit(code.xnack, device.xnack);
  if (sramecc < 0 || xnack < 0) return -1;
  return sramecc + xnack;
}

}  // namespace anygpu
