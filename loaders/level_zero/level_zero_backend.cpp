// The Level Zero backend: Intel GPUs through the Level Zero loader, loaded at run time.
#include <memory>
#include <vector>

#include "../../shim/error.h"
#include "../backends.h"
#include "level_zero_device.h"
#include "level_zero_loader.h"

namespace anygpu {
namespace level_zero {
namespace {

class LevelZeroBackend final : public Backend {
 public:
  ag_backend_kind kind() const override { return AG_BACKEND_LEVEL_ZERO; }
  const char* name() const override { return "level_zero"; }
  std::string library() const override { return loader_.path; }
  int device_count() const override { return static_cast<int>(devices_.size()); }
  DeviceBackend& device(int index) override { return *devices_[index]; }

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
    if (devices_.empty()) {
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
    for (auto& [device, properties] : gpus) {
      auto created = std::make_unique<LevelZeroDevice>(ze, context, device);
      if (created->query_properties(properties) != AG_SUCCESS) {
        *reason = which + last_error_detail();
        clear_last_error_detail();
        return false;
      }
      devices_.push_back(std::move(created));
    }
    return true;
  }

  bool fail_all() {
    devices_.clear();
    for (ze_context_handle_t context : contexts_) loader_.fn.zeContextDestroy(context);
    contexts_.clear();
    return false;
  }

  LevelZeroLoader loader_;
  std::vector<ze_context_handle_t> contexts_;
  std::vector<std::unique_ptr<LevelZeroDevice>> devices_;
};

}  // namespace
}  // namespace level_zero

std::unique_ptr<Backend> make_level_zero_backend() {
  return std::make_unique<level_zero::LevelZeroBackend>();
}

}  // namespace anygpu
