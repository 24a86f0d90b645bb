#include "test_support.h"

#include <ftw.h>

#include <cstdio>
#include <cstdlib>

namespace anygpu_test {

std::string last_detail() {
  const char* detail = "";
  agGetLastErrorDetail(&detail);
  return detail ? detail : "";
}

namespace {

std::string* private_cache = nullptr;  // leaked on purpose: read by the atexit handler

int remove_entry(const char* path, const struct stat*, int, struct FTW*) {
  return remove(path);
}

void remove_private_cache() {
  if (private_cache) nftw(private_cache->c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

}  // namespace

std::string use_private_compile_cache(const char* prefix) {
  if (private_cache) return *private_cache;
  std::string directory = std::string("/tmp/") + prefix + "-XXXXXX";
  if (!mkdtemp(directory.data())) return "";
  private_cache = new std::string(directory);
  setenv("ANYGPU_CACHE_DIR", directory.c_str(), 1);
  atexit(remove_private_cache);
  return directory;
}

namespace {

// The name of the backend of `kind` ("level_zero"), from the backends anygpu lists.
std::string backend_name(ag_backend_kind kind) {
  int count = 0;
  if (agBackendGetCount(&count) != AG_SUCCESS) return "device";
  for (int i = 0; i < count; ++i) {
    ag_backend_info info{};
    info.struct_size = sizeof info;
    if (agBackendGetInfo(i, &info) == AG_SUCCESS && info.kind == kind) return info.name;
  }
  return "device";
}

// ANYGPU_TEST_DEVICES=cuda,hip restricts the parameterized suites to those backends' devices.
bool selected_for_tests(const std::string& backend) {
  const char* selection = getenv("ANYGPU_TEST_DEVICES");
  if (!selection || !*selection) return true;
  const std::string list = std::string(",") + selection + ",";
  return list.find("," + backend + ",") != std::string::npos;
}

}  // namespace

// The backend of device `ordinal`, "device" when it cannot be read.
std::string device_backend_name(int ordinal) {
  ag_device device = nullptr;
  ag_device_properties p{};
  p.struct_size = sizeof p;
  if (agDeviceGet(ordinal, &device) != AG_SUCCESS ||
      agDeviceGetProperties(device, &p) != AG_SUCCESS)
    return "device";
  return backend_name(p.backend);
}

std::vector<int> all_device_ordinals() {
  int count = 0;
  std::vector<int> ordinals;
  if (agDeviceGetCount(&count) == AG_SUCCESS)
    for (int i = 0; i < count; ++i)
      if (selected_for_tests(device_backend_name(i))) ordinals.push_back(i);
  return ordinals;
}

std::string device_test_name(const ::testing::TestParamInfo<int>& info) {
  return device_backend_name(info.param) + std::to_string(info.param);
}

ag_device device_at(int ordinal) {
  ag_device device = nullptr;
  EXPECT_EQ(AG_SUCCESS, agDeviceGet(ordinal, &device)) << last_detail();
  return device;
}

bool is_cpu_device(ag_device device) {
  ag_device_properties p{};
  p.struct_size = sizeof p;
  return agDeviceGetProperties(device, &p) == AG_SUCCESS && p.backend == AG_BACKEND_CPU;
}

ag_device cpu_device() {
  int count = 0;
  EXPECT_EQ(AG_SUCCESS, agDeviceGetCount(&count)) << last_detail();
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    ag_device device = device_at(ordinal);
    ag_device_properties p{};
    p.struct_size = sizeof p;
    if (agDeviceGetProperties(device, &p) == AG_SUCCESS && p.backend == AG_BACKEND_CPU)
      return device;
  }
  ADD_FAILURE() << "no CPU device";
  return nullptr;
}

TestModule::TestModule(ag_device device) {
  EXPECT_EQ(AG_SUCCESS, agModuleLoadData(device, anygpu_image_test_kernels,
                                         anygpu_image_test_kernels_size, &module_))
      << last_detail();
}

TestModule::~TestModule() {
  if (module_) {
    EXPECT_EQ(AG_SUCCESS, agModuleUnload(module_)) << last_detail();
  }
}

ag_function TestModule::function(const char* name) {
  ag_function function = nullptr;
  EXPECT_EQ(AG_SUCCESS, agModuleGetFunction(module_, name, &function))
      << name << ": " << last_detail();
  return function;
}

void expect_saxpy_layout(ag_function saxpy) {
  int count = -1;
  ASSERT_AG(agFunctionGetParamCount(saxpy, &count));
  EXPECT_EQ(4, count);
  ag_param_info info{};
  info.struct_size = sizeof info;
  ASSERT_AG(agFunctionGetParamInfo(saxpy, 2, &info));
  EXPECT_EQ(AG_PARAM_POINTER, info.kind);
  EXPECT_EQ(8u, info.offset);
}

void expect_fill_round_trip(ag_device device, ag_stream stream, ag_stream waited, uint32_t value,
                            size_t count) {
  DeviceBuffer<uint32_t> buffer(device, count);
  std::vector<uint32_t> host(count, ~value);
  EXPECT_AG(agMemsetD32Async(buffer.get(), value, count, stream));
  EXPECT_AG(agMemcpyDtoHAsync(host.data(), buffer.get(), buffer.bytes(), stream));
  EXPECT_AG(agStreamSynchronize(waited));
  EXPECT_EQ(std::vector<uint32_t>(count, value), host);
}

}  // namespace anygpu_test
