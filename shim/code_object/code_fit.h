// What a device runs, as its backend says: the generic device target every backend reports, and
// the rules each backend's folder implements (loaders/<backend>/*_code_rules.cpp). The code-object
// library knows no backend; selection asks these rules.
#pragma once

#include <memory>
#include <string>

#include "shim/code_object/code_object_target.h"

namespace anygpu {

// A device as code selection sees it.
struct DeviceTarget {
  std::string architecture;  // "sm_86", "gfx90a:sramecc+:xnack-", "x86_64-linux-gnu"
  // The newest version of an intermediate form the driver compiles at load time (CUDA: the PTX
  // ISA, as ptx_version_number(8, 5)); HIP: 6 when the runtime loads code object v6, whose
  // generic targets (gfx11-generic) run on every processor of their family; 0 when not known or
  // when the backend has none.
  unsigned max_ir_version = 0;
};

// A rank: a higher tier wins (a cubin over PTX), then the higher first, then second value.
struct Fit {
  enum Tier { kNoFit = 0, kFits = 1, kPreferred = 2 };
  int tier = kNoFit;
  unsigned first = 0, second = 0;

  bool fits() const { return tier > kNoFit; }
  bool better_than(const Fit& other) const {
    if (tier != other.tier) return tier > other.tier;
    if (first != other.first) return first > other.first;
    return second > other.second;
  }
};

// One backend's rules for one device target.
class CodeFitRules {
 public:
  explicit CodeFitRules(DeviceTarget target) : target_(std::move(target)) {}
  virtual ~CodeFitRules() = default;

  const DeviceTarget& target() const { return target_; }
  // False when the architecture is not one these rules can read; then nothing fits.
  virtual bool understood() const = 0;
  // How well `code` runs on the device; Fit{} where it does not. Only asked when understood().
  virtual Fit fit(const CodeTarget& code) const = 0;
  // What the device needs, in words: "a cubin for sm_80 to sm_86, or PTX for sm_86 or older".
  // Only asked when understood().
  virtual std::string needs() const = 0;

 private:
  DeviceTarget target_;
};

// A backend's factory of rules (BackendDescriptor::code_rules).
using CodeFitRulesFactory = std::unique_ptr<CodeFitRules> (*)(const DeviceTarget& target);

}  // namespace anygpu
