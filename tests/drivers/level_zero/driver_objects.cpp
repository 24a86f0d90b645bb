// The objects behind the handles, and the one driver and device there are.
#include "driver_objects.h"

namespace anygpu::level_zero_test_driver {

Object::Object(Kind k) : kind(k) {
  calls().live.fetch_add(1);
}

Object::~Object() {
  calls().live.fetch_sub(1);
}

Driver the_driver;
Device the_device;

bool is_device(ze_device_handle_t device) {
  return reinterpret_cast<Device*>(device) == &the_device;
}

}  // namespace anygpu::level_zero_test_driver
