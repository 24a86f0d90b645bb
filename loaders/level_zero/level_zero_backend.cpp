// The Level Zero backend: Intel GPUs through the Level Zero loader, loaded at run time.
#include <memory>
#include <vector>

#include "level_zero_device.h"
#include "level_zero_loader.h"
#include "loaders/backend_devices.h"
#include "loaders/level_zero/level_zero_code_rules.h"
#include "loaders/level_zero/level_zero_compiler.h"
#include "shim/core/error.h"

namespace anygpu {
namespace level_zero {
namespace {

class LevelZeroBackend final : public BackendWithDevices<LevelZeroDevice> {
 public:
  std::string library() const override { return loader_.path; }

  bool load(std::string& reason) override {
    if (!load_level_zero(&loader_, &reason)) return false;
    const LevelZeroFunctions& ze = loader_.fn;
    uint32_t count = 0;
    if (ze_result_t r = ze.zeDriverGet(&count, nullptr)) {
      reason = "zeDriverGet failed: " + describe_ze_result(r);
      return false;
    }
    std::vector<ze_driver_handle_t> drivers(count);
    if (count) {
      if (ze_result_t r = ze.zeDriverGet(&count, drivers.data())) {
        reason = "zeDriverGet failed: " + describe_ze_result(r);
        return false;
      }
      drivers.resize(count);
    }
    for (size_t d = 0; d < drivers.size(); ++d)
      if (!add_driver(drivers[d], d, &reason)) return fail_all();
    if (!has_devices()) {
      reason = "the Level Zero loader " + loader_.path + " reports no GPU device (" +
               std::to_string(drivers.size()) + " driver(s))";
      return false;
    }
    return true;
  }

 private:
  // The driver's GPUs, with one context for all of them.
  bool add_driver(ze_driver_handle_t driver, size_t index, std::string* reason) {
    const LevelZeroFunctions& ze = loader_.fn;
    const std::string which = "driver " + std::to_string(index) + ": ";
    uint32_t count = 0;
    if (ze_result_t r = ze.zeDeviceGet(driver, &count, nullptr)) {
      *reason = which + "zeDeviceGet failed: " + describe_ze_result(r);
      return false;
    }
    std::vector<ze_device_handle_t> devices(count);
    if (count) {
      if (ze_result_t r = ze.zeDeviceGet(driver, &count, devices.data())) {
        *reason = which + "zeDeviceGet failed: " + describe_ze_result(r);
        return false;
      }
      devices.resize(count);
    }
    std::vector<std::pair<ze_device_handle_t, ze_device_properties_t>> gpus;
    for (ze_device_handle_t device : devices) {
      ze_device_properties_t properties{};
      properties.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
      if (ze_result_t r = ze.zeDeviceGetProperties(device, &properties)) {
        *reason = which + "zeDeviceGetProperties failed: " + describe_ze_result(r);
        return false;
      }
      if (properties.type == ZE_DEVICE_TYPE_GPU) gpus.emplace_back(device, properties);
    }
    if (gpus.empty()) return true;
    ze_context_desc_t desc{};
    desc.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
    ze_context_handle_t context = nullptr;
    if (ze_result_t r = ze.zeContextCreate(driver, &desc, &context)) {
      *reason = which + "zeContextCreate failed: " + describe_ze_result(r);
      return false;
    }
    // Kept until exit, as the devices that use it (a context destroyed from a static destructor
    // could outlive the driver).
    contexts_.push_back(context);
    uint32_t api_version = 0;
    if (ze_result_t r = ze.zeDriverGetApiVersion(driver, &api_version)) {
      *reason = which + "zeDriverGetApiVersion failed: " + describe_ze_result(r);
      return false;
    }
    for (auto& [device, properties] : gpus) {
      auto created = std::make_unique<LevelZeroDevice>(ze, driver, context, device);
      const ag_result queried = created->query_properties(properties, api_version);
      if (!keep_device(std::move(created), queried, which, reason)) return false;
    }
    return true;
  }

  bool fail_all() {
    drop_devices();
    for (ze_context_handle_t context : contexts_) loader_.fn.zeContextDestroy(context);
    contexts_.clear();
    return false;
  }

  LevelZeroLoader loader_;
  std::vector<ze_context_handle_t> contexts_;
};

}  // namespace
}  // namespace level_zero

extern const BackendDescriptor level_zero_backend_descriptor = {
    AG_BACKEND_LEVEL_ZERO,
    "level_zero",
    "Level Zero",
    "ze,levelzero,level-zero",
    [] { return std::unique_ptr<Backend>(std::make_unique<level_zero::LevelZeroBackend>()); },
    level_zero::make_code_rules,
    level_zero::make_runtime_compiler};

}  // namespace anygpu
