// The objects behind the handles, and the one driver and its devices.
#include "driver_objects.h"

namespace anygpu::level_zero_test_driver {

Object::Object(Kind k) : kind(k) {
  calls().live.fetch_add(1);
}

Object::~Object() {
  calls().live.fetch_sub(1);
}

Driver the_driver;

namespace {

struct Devices {
  Device at[kMaxDevices];
  Devices() {
    for (uint32_t i = 0; i < kMaxDevices; ++i) at[i].index = i;
  }
};
Devices devices;

}  // namespace

// Compared by address, not read: a handle of another kind, or none, is no device.
Device* as_device(ze_device_handle_t device) {
  const auto address = reinterpret_cast<uintptr_t>(device);
  const auto first = reinterpret_cast<uintptr_t>(&devices.at[0]);
  if (address < first || (address - first) % sizeof(Device) != 0) return nullptr;
  const uintptr_t index = (address - first) / sizeof(Device);
  return index < device_count() ? &devices.at[index] : nullptr;
}

ze_device_handle_t device_handle(uint32_t index) {
  return reinterpret_cast<ze_device_handle_t>(&devices.at[index]);
}

}  // namespace anygpu::level_zero_test_driver
