// Error paths of the error, initialisation, backend and device calls.
#include <climits>

#include "api_error_support.h"
#include "error_codes.h"

using namespace api_test;

namespace {

// Codes are ints: C callers may pass any value (see error_codes.c).
struct TextFunction {
  const char* name;
  ag_result (*call)(int, const char**);
};
const TextFunction kTextFunctions[] = {{"agGetErrorName", api_test_get_error_name},
                                       {"agGetErrorString", api_test_get_error_string}};

TEST(ErrorTextErrors, UnknownCodesAreInvalidValues) {
  for (const TextFunction& function : kTextFunctions)
    for (int code : {12345, -1, 21, 998, 1000, INT_MAX, INT_MIN}) {
      SCOPED_TRACE(std::string(function.name) + " of " + std::to_string(code));
      Sentinel<const char*> text;
      EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, function.name,
                             [&] { return function.call(code, text.get()); }));
      EXPECT_TRUE(text.intact());
    }
  const char* name = nullptr;
  ASSERT_AG(agGetErrorName(AG_ERROR_INVALID_ADDRESS, &name));
  EXPECT_STREQ("AG_ERROR_INVALID_ADDRESS", name);
  ASSERT_AG(agGetErrorName(AG_ERROR_OUT_OF_RESOURCES, &name));
  EXPECT_STREQ("AG_ERROR_OUT_OF_RESOURCES", name);
  ASSERT_AG(agGetErrorName(AG_ERROR_LAUNCH_TIMEOUT, &name));
  EXPECT_STREQ("AG_ERROR_LAUNCH_TIMEOUT", name);
  ASSERT_AG(agGetErrorName(AG_ERROR_NOT_PERMITTED, &name));
  EXPECT_STREQ("AG_ERROR_NOT_PERMITTED", name);
}

TEST(ErrorTextErrors, NullOutputIsAnInvalidValue) {
  for (const TextFunction& function : kTextFunctions)
    for (int code : {static_cast<int>(AG_SUCCESS), static_cast<int>(AG_ERROR_UNKNOWN), 12345}) {
      SCOPED_TRACE(std::string(function.name) + " of " + std::to_string(code));
      EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, function.name,
                             [&] { return function.call(code, nullptr); }));
    }
  const char* text = nullptr;
  ASSERT_AG(agGetErrorString(AG_ERROR_NOT_READY, &text));
  EXPECT_STRNE("", text);
}

TEST(ErrorDetailErrors, NullOutputIsAnInvalidValue) {
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agGetLastErrorDetail(nullptr));
}

TEST(ErrorDetailErrors, ClearForgetsTheLastFailure) {
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agGetVersion(nullptr));
  ASSERT_AG(agClearLastErrorDetail());
  const char* detail = nullptr;
  ASSERT_AG(agGetLastErrorDetail(&detail));
  ASSERT_NE(nullptr, detail);
  EXPECT_STREQ("", detail);
}

TEST(InitErrors, NonZeroFlagsAreInvalidValues) {
  for (unsigned flags : {1u, 2u, 0x80000000u, UINT_MAX}) {
    SCOPED_TRACE(flags);
    EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agInit(flags));
  }
  EXPECT_AG(agInit(0));
}

TEST(InitErrors, NullOutputsAreInvalidValues) {
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agGetVersion(nullptr));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agBackendGetCount(nullptr));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agDeviceGetCount(nullptr));
  int version = -1, backends = -1, devices = -1;
  EXPECT_AG(agGetVersion(&version));
  EXPECT_EQ(AG_VERSION_MAJOR * 10000 + AG_VERSION_MINOR * 100 + AG_VERSION_PATCH, version);
  EXPECT_AG(agBackendGetCount(&backends));
  EXPECT_AG(agDeviceGetCount(&devices));
  EXPECT_GE(backends, 1);
  EXPECT_GE(devices, 1);
}

// Indexes and ordinals just outside and far outside [0, count).
std::vector<int> out_of_range(int count) {
  return {-1, count, count + 1, INT_MAX, INT_MIN};
}

TEST(BackendErrors, OutOfRangeIndexIsAnInvalidValue) {
  int count = 0;
  ASSERT_AG(agBackendGetCount(&count));
  for (int index : out_of_range(count)) {
    SCOPED_TRACE(index);
    Sentinel<ag_backend_info> info(sizeof(ag_backend_info));
    EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agBackendGetInfo(index, info.get()));
    EXPECT_TRUE(info.intact());
  }
  ag_backend_info info{};
  info.struct_size = sizeof info;
  EXPECT_AG(agBackendGetInfo(count - 1, &info));
  EXPECT_NE(nullptr, info.name);
}

// The first version of ag_backend_info ended with `reason`; `label` was appended after it.
constexpr size_t kBackendInfoFirstVersion = offsetof(ag_backend_info, label);
// The first version of ag_device_properties ended with `ordinal`.
constexpr size_t kDevicePropertiesFirstVersion =
    offsetof(ag_device_properties, compute_capability_major);

TEST(BackendErrors, NullInfoAndSmallStructSizeAreInvalidValues) {
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agBackendGetInfo(0, nullptr));
  expect_small_struct_sizes_rejected<ag_backend_info>(
      "agBackendGetInfo", [](ag_backend_info* info) { return agBackendGetInfo(0, info); },
      kBackendInfoFirstVersion);
}

// A program built against the first version passes its smaller struct_size: it gets the fields
// that version has, and nothing past them is written.
TEST(BackendInfo, FirstVersionSizedStructGetsItsFieldsOnly) {
  Sentinel<ag_backend_info> full(sizeof(ag_backend_info));
  ASSERT_AG(agBackendGetInfo(0, full.get()));
  unsigned char bytes[sizeof(ag_backend_info) + 16];
  memset(bytes, 0xab, sizeof bytes);
  ag_backend_info first{};
  first.struct_size = kBackendInfoFirstVersion;
  memcpy(bytes, &first.struct_size, sizeof first.struct_size);
  ASSERT_AG(agBackendGetInfo(0, reinterpret_cast<ag_backend_info*>(bytes)));
  ag_backend_info got{};
  memcpy(&got, bytes, kBackendInfoFirstVersion);
  EXPECT_EQ(kBackendInfoFirstVersion, got.struct_size);
  EXPECT_EQ(full.get()->kind, got.kind);
  EXPECT_STREQ(full.get()->name, got.name);
  EXPECT_STREQ(full.get()->reason, got.reason);
  for (size_t i = kBackendInfoFirstVersion; i < sizeof bytes; ++i)
    ASSERT_EQ(0xab, bytes[i]) << "byte " << i << " past the first version was written";
  EXPECT_NE(nullptr, full.get()->label);
}

TEST(DeviceErrors, OutOfRangeOrdinalIsAnInvalidDevice) {
  int count = 0;
  ASSERT_AG(agDeviceGetCount(&count));
  for (int ordinal : out_of_range(count)) {
    SCOPED_TRACE(ordinal);
    Sentinel<ag_device> device;
    EXPECT_FAILS(AG_ERROR_INVALID_DEVICE, agDeviceGet(ordinal, device.get()));
    EXPECT_TRUE(device.intact());
  }
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agDeviceGet(0, nullptr));
  ag_device device = nullptr;
  EXPECT_AG(agDeviceGet(count - 1, &device));
  EXPECT_NE(nullptr, device);
}

// A program built before the fields from compute_capability_major on were appended passes the
// first version's size: it gets that version's fields, and nothing past them is written.
TEST_F(ApiErrorTest, FirstVersionSizedDevicePropertiesGetTheirFieldsOnly) {
  unsigned char bytes[sizeof(ag_device_properties) + 16];
  memset(bytes, 0xab, sizeof bytes);
  const size_t first_size = kDevicePropertiesFirstVersion;
  memcpy(bytes, &first_size, sizeof first_size);
  ASSERT_AG(agDeviceGetProperties(device, reinterpret_cast<ag_device_properties*>(bytes)));
  ag_device_properties got{};
  memcpy(&got, bytes, kDevicePropertiesFirstVersion);
  EXPECT_EQ(kDevicePropertiesFirstVersion, got.struct_size);
  EXPECT_STREQ(properties.name, got.name);
  EXPECT_EQ(properties.warp_size, got.warp_size);
  EXPECT_EQ(properties.ordinal, got.ordinal);
  for (size_t i = kDevicePropertiesFirstVersion; i < sizeof bytes; ++i)
    ASSERT_EQ(0xab, bytes[i]) << "byte " << i << " past the first version was written";
}

TEST_F(ApiErrorTest, DeviceGetPropertiesRejectsBadInput) {
  expect_invalid_handles<ag_device>("agDeviceGetProperties", [](ag_device bad) {
    Sentinel<ag_device_properties> out(sizeof(ag_device_properties));
    const ag_result result = agDeviceGetProperties(bad, out.get());
    EXPECT_TRUE(out.intact());
    return result;
  });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agDeviceGetProperties(device, nullptr));
  expect_small_struct_sizes_rejected<ag_device_properties>(
      "agDeviceGetProperties",
      [&](ag_device_properties* out) { return agDeviceGetProperties(device, out); },
      kDevicePropertiesFirstVersion);
  ag_device_properties again{};
  again.struct_size = sizeof again;
  ASSERT_AG(agDeviceGetProperties(device, &again));
  EXPECT_EQ(0, std::memcmp(&properties, &again, sizeof again));
}

TEST_F(ApiErrorTest, DeviceSynchronizeRejectsBadHandles) {
  expect_invalid_handles<ag_device>("agDeviceSynchronize",
                                    [](ag_device bad) { return agDeviceSynchronize(bad); });
  EXPECT_AG(agDeviceSynchronize(device));
}

}  // namespace
