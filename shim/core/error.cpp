#include "shim/core/error.h"

#include <cstdarg>
#include <cstdio>
#include <new>
#include <string>
#include <system_error>

namespace anygpu {
namespace {

thread_local const char* current_call = "anygpu";
thread_local std::string detail;
thread_local std::string reason_only;  // the detail without its call and code

struct ResultText {
  ag_result code;
  const char* name;
  const char* description;
};

constexpr ResultText kResults[] = {
    {AG_SUCCESS, "AG_SUCCESS", "no error"},
    {AG_ERROR_INVALID_VALUE, "AG_ERROR_INVALID_VALUE", "an argument is invalid"},
    {AG_ERROR_OUT_OF_MEMORY, "AG_ERROR_OUT_OF_MEMORY", "out of memory"},
    {AG_ERROR_NOT_INITIALIZED, "AG_ERROR_NOT_INITIALIZED", "anygpu could not be initialised"},
    {AG_ERROR_INVALID_HANDLE, "AG_ERROR_INVALID_HANDLE",
     "a handle is null, destroyed or of another kind"},
    {AG_ERROR_INVALID_DEVICE, "AG_ERROR_INVALID_DEVICE", "no device has that ordinal"},
    {AG_ERROR_NO_DEVICE, "AG_ERROR_NO_DEVICE", "no device is available"},
    {AG_ERROR_NOT_READY, "AG_ERROR_NOT_READY", "work is still pending"},
    {AG_ERROR_NOT_FOUND, "AG_ERROR_NOT_FOUND", "the named item was not found"},
    {AG_ERROR_FILE_NOT_FOUND, "AG_ERROR_FILE_NOT_FOUND", "the file could not be read"},
    {AG_ERROR_INVALID_IMAGE, "AG_ERROR_INVALID_IMAGE", "the code object is invalid"},
    {AG_ERROR_NO_BINARY_FOR_DEVICE, "AG_ERROR_NO_BINARY_FOR_DEVICE",
     "the image holds no code object for this device"},
    {AG_ERROR_INVALID_CONFIGURATION, "AG_ERROR_INVALID_CONFIGURATION",
     "the launch configuration exceeds the device limits"},
    {AG_ERROR_LAUNCH_FAILED, "AG_ERROR_LAUNCH_FAILED", "the kernel launch failed"},
    {AG_ERROR_NOT_SUPPORTED, "AG_ERROR_NOT_SUPPORTED", "the operation is not supported"},
    {AG_ERROR_BACKEND_FAILURE, "AG_ERROR_BACKEND_FAILURE", "the vendor driver reported an error"},
    {AG_ERROR_INVALID_ADDRESS, "AG_ERROR_INVALID_ADDRESS",
     "a pointer or range is not inside an allocation"},
    {AG_ERROR_OUT_OF_RESOURCES, "AG_ERROR_OUT_OF_RESOURCES",
     "the system refused a thread, file descriptor or other resource"},
    {AG_ERROR_LAUNCH_TIMEOUT, "AG_ERROR_LAUNCH_TIMEOUT",
     "the kernel ran longer than the watchdog allows"},
    {AG_ERROR_NOT_PERMITTED, "AG_ERROR_NOT_PERMITTED",
     "the call is not allowed where it was made (inside a host function)"},
    {AG_ERROR_COMPILE_FAILED, "AG_ERROR_COMPILE_FAILED",
     "the program did not compile (agProgramGetLog has the compiler's log)"},
    {AG_ERROR_UNKNOWN, "AG_ERROR_UNKNOWN", "unknown error"},
};

const ResultText* find(ag_result code) {
  for (const ResultText& r : kResults)
    if (r.code == code) return &r;
  return nullptr;
}

}  // namespace

namespace {

// fail() for the exception handlers below: if even the detail cannot be stored, the code alone.
ag_result fail_quietly(ag_result code, const char* what, const char* reason) noexcept {
  try {
    return fail(code, "%s%s; nothing was changed", what, reason);
  } catch (...) {
    return code;
  }
}

}  // namespace

ag_result fail_from_exception() noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return fail_quietly(AG_ERROR_OUT_OF_MEMORY, "out of host memory", "");
  } catch (const std::system_error& e) {
    return fail_quietly(AG_ERROR_OUT_OF_RESOURCES, "the system refused a resource: ", e.what());
  } catch (const std::exception& e) {
    return fail_quietly(AG_ERROR_UNKNOWN, "internal error: ", e.what());
  } catch (...) {
    return fail_quietly(AG_ERROR_UNKNOWN, "internal error: an exception of unknown type", "");
  }
}

void set_current_call(const char* function_name) {
  current_call = function_name;
}

ag_result fail(ag_result code, const char* format, ...) {
  char reason[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(reason, sizeof reason, format, args);
  va_end(args);
  reason_only.assign(reason);
  detail.assign(current_call).append(": ").append(reason);
  const ResultText* text = find(code);
  detail.append(" (").append(text ? text->name : "unknown code").append(")");
  return code;
}

const char* result_name(ag_result code) {
  const ResultText* text = find(code);
  return text ? text->name : nullptr;
}

const char* result_description(ag_result code) {
  const ResultText* text = find(code);
  return text ? text->description : nullptr;
}

const char* last_error_detail() {
  return detail.c_str();
}
const char* last_error_reason() {
  return reason_only.c_str();
}

void clear_last_error_detail() {
  detail.clear();
  reason_only.clear();
}

}  // namespace anygpu
