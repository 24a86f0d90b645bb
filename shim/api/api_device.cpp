// Initialisation, version, backends and devices.
#include "shim/api/api_common.h"
#include "shim/core/host_function_guard.h"

using namespace anygpu;

extern "C" {

ag_result agInit(unsigned int flags) try {
  AG_DEVICE_ENTRY();
  if (ag_result r = require_zero_flags(flags)) return r;
  if (registry().devices.empty())
    return fail(AG_ERROR_NO_DEVICE, "no backend has a device (run anygpu-info for the reasons)");
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agGetVersion(int* version) try {
  AG_ENTRY();
  if (!version) return fail(AG_ERROR_INVALID_VALUE, "version is NULL");
  *version = AG_VERSION_MAJOR * 10000 + AG_VERSION_MINOR * 100 + AG_VERSION_PATCH;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agBackendGetCount(int* count) try {
  AG_DEVICE_ENTRY();
  if (!count) return fail(AG_ERROR_INVALID_VALUE, "count is NULL");
  *count = static_cast<int>(registry().backends.size());
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agBackendGetInfo(int index, ag_backend_info* info) try {
  AG_DEVICE_ENTRY();
  const Registry& reg = registry();
  if (ag_result r = require_pointer(info, "info")) return r;
  if (ag_result r = require_index(index, reg.backends.size(), "backend index")) return r;
  const BackendRecord& record = reg.backends[index];
  ag_backend_info value{};
  value.struct_size = sizeof value;
  value.kind = record.descriptor->kind;
  value.name = record.descriptor->name;
  value.label = record.descriptor->label;
  value.available = record.available ? 1 : 0;
  value.device_count = record.device_count;
  value.library = record.library.c_str();
  value.reason = record.reason.c_str();
  return write_versioned(info, value, "info");
} catch (...) {
  return fail_from_exception();
}

ag_result agDeviceGetCount(int* count) try {
  AG_DEVICE_ENTRY();
  if (!count) return fail(AG_ERROR_INVALID_VALUE, "count is NULL");
  *count = static_cast<int>(registry().devices.size());
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agDeviceGet(int ordinal, ag_device* device) try {
  AG_DEVICE_ENTRY();
  if (!device) return fail(AG_ERROR_INVALID_VALUE, "device is NULL");
  const Registry& reg = registry();
  if (reg.devices.empty()) return fail(AG_ERROR_NO_DEVICE, "no backend has a device");
  if (ag_result r = require_index(ordinal, reg.devices.size(), "ordinal", AG_ERROR_INVALID_DEVICE))
    return r;
  *device = reg.devices[ordinal]->handle;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agDeviceGetProperties(ag_device device, ag_device_properties* properties) try {
  AG_DEVICE_ENTRY();
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  return write_versioned(properties, dev->properties, "properties");
} catch (...) {
  return fail_from_exception();
}

ag_result agDeviceSynchronize(ag_device device) try {
  AG_DEVICE_ENTRY();
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = refuse_wait_in_host_function(*dev)) return r;
  return dev->impl->synchronize();
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
