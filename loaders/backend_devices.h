// What every GPU backend does the same way around its devices: keeps them, answers for them, and
// loads all of them or none (a device whose properties cannot be read fails the whole backend, so
// device ordinals never have holes).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "shim/core/backend.h"
#include "shim/core/error.h"

namespace anygpu {

template <typename DeviceType>
class BackendWithDevices : public Backend {
 public:
  int device_count() const final { return static_cast<int>(devices_.size()); }
  DeviceBackend& device(int index) final { return *devices_[index]; }

 protected:
  // Keeps `created` when reading its properties succeeded (`queried`); otherwise sets `reason` to
  // `which` followed by the recorded detail, drops every device and returns false.
  bool keep_device(std::unique_ptr<DeviceType> created, ag_result queried, const std::string& which,
                   std::string* reason) {
    if (queried != AG_SUCCESS) {
      *reason = which + last_error_detail();
      clear_last_error_detail();
      return drop_devices();
    }
    devices_.push_back(std::move(created));
    return true;
  }

  // Forgets every device; false, for `return drop_devices();` on a failure.
  bool drop_devices() {
    devices_.clear();
    return false;
  }

  bool has_devices() const { return !devices_.empty(); }

 private:
  std::vector<std::unique_ptr<DeviceType>> devices_;
};

}  // namespace anygpu
