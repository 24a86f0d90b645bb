// Error paths of module loading, functions, their parameter layout and kernel launch.
#include <elf.h>
#include <unistd.h>

#include <climits>
#include <cstddef>
#include <cstdio>

#include "api_error_support.h"

using namespace api_test;

namespace {

using Bytes = std::vector<unsigned char>;
using ModuleErrorTest = ApiErrorTest;

Bytes test_image(size_t bytes = anygpu_image_test_kernels_size) {
  return Bytes(anygpu_image_test_kernels, anygpu_image_test_kernels + bytes);
}

Bytes garbage() {
  Bytes bytes(4096);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(i * 37 + 11);
  return bytes;
}

Bytes text(const std::string& s) {
  return Bytes(s.begin(), s.end());
}

// The test kernels' host code object (an ELF file), read from the build tree.
Bytes host_code_object() {
  Bytes bytes;
  if (FILE* file = fopen(ANYGPU_TEST_KERNELS_PATH, "rb")) {
    unsigned char buffer[65536];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, file)) > 0)
      bytes.insert(bytes.end(), buffer, buffer + n);
    fclose(file);
  }
  EXPECT_GT(bytes.size(), sizeof(Elf64_Ehdr)) << ANYGPU_TEST_KERNELS_PATH;
  return bytes;
}

// The host code object as an ELF file for another machine.
Bytes with_machine(uint16_t machine) {
  Bytes image = host_code_object();
  std::memcpy(image.data() + offsetof(Elf64_Ehdr, e_machine), &machine, sizeof machine);
  return image;
}

// After failed loads, the real image still loads and has its kernels.
void expect_test_image_loads(ag_device device) {
  ag_module loaded = nullptr;
  ASSERT_AG(
      agModuleLoadData(device, anygpu_image_test_kernels, anygpu_image_test_kernels_size, &loaded));
  ag_function function = nullptr;
  EXPECT_AG(agModuleGetFunction(loaded, "saxpy", &function));
  EXPECT_AG(agModuleUnload(loaded));
}

TEST_F(ModuleErrorTest, LoadDataRejectsBadImages) {
  const std::pair<const char*, std::pair<Bytes, ag_result>> images[] = {
      {"garbage", {garbage(), AG_ERROR_INVALID_IMAGE}},
      {"PTX text", {text(".version 7.0\n.target sm_80\n"), AG_ERROR_NO_BINARY_FOR_DEVICE}},
      {"the test image's first 100 bytes", {test_image(100), AG_ERROR_INVALID_IMAGE}},
      {"the test image's ELF header only",
       {test_image(sizeof(Elf64_Ehdr)), AG_ERROR_INVALID_IMAGE}},
      {"the test image's first 3 bytes", {test_image(3), AG_ERROR_INVALID_IMAGE}},
      {"the test image as a CUDA cubin", {with_machine(190), AG_ERROR_NO_BINARY_FOR_DEVICE}},
      {"the test image as an AMD GPU code object",
       {with_machine(224), AG_ERROR_NO_BINARY_FOR_DEVICE}}};
  for (const auto& image : images) {
    SCOPED_TRACE(image.first);
    const Bytes& bytes = image.second.first;
    Sentinel<ag_module> loaded;
    EXPECT_FAILS(image.second.second,
                 agModuleLoadData(device, bytes.data(), bytes.size(), loaded.get()));
    EXPECT_TRUE(loaded.intact());
  }
  expect_test_image_loads(device);
}

TEST_F(ModuleErrorTest, LoadDataRejectsBadArguments) {
  const unsigned char* image = anygpu_image_test_kernels;
  const size_t size = anygpu_image_test_kernels_size;
  expect_invalid_handles<ag_device>("agModuleLoadData", [&](ag_device bad) {
    return with_untouched_output<ag_module>(
        [&](ag_module* out) { return agModuleLoadData(bad, image, size, out); });
  });
  Sentinel<ag_module> loaded;
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agModuleLoadData(device, nullptr, size, loaded.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agModuleLoadData(device, image, 0, loaded.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agModuleLoadData(device, image, size, nullptr));
  EXPECT_TRUE(loaded.intact());
  expect_test_image_loads(device);
}

TEST_F(ModuleErrorTest, LoadRejectsBadPathsAndArguments) {
  const std::string garbage_path = ::testing::TempDir() + "anygpu_api_errors_garbage.so";
  FILE* file = fopen(garbage_path.c_str(), "wb");
  ASSERT_NE(nullptr, file);
  const Bytes bytes = garbage();
  ASSERT_EQ(bytes.size(), fwrite(bytes.data(), 1, bytes.size(), file));
  fclose(file);
  const std::pair<const char*, ag_result> paths[] = {
      {"/nonexistent/anygpu/missing.so", AG_ERROR_FILE_NOT_FOUND},
      {"", AG_ERROR_FILE_NOT_FOUND},
      {"/", AG_ERROR_FILE_NOT_FOUND},          // a directory cannot be read
      {"/dev/null", AG_ERROR_FILE_NOT_FOUND},  // not a regular file
      {"/dev/zero", AG_ERROR_FILE_NOT_FOUND},  // issue 15, defect 2: read until bad_alloc before
      {garbage_path.c_str(), AG_ERROR_INVALID_IMAGE}};
  for (const auto& path : paths) {
    SCOPED_TRACE(path.first);
    Sentinel<ag_module> loaded;
    EXPECT_FAILS(path.second, agModuleLoad(device, path.first, loaded.get()));
    EXPECT_TRUE(loaded.intact());
  }
  remove(garbage_path.c_str());
  Sentinel<ag_module> out;
  EXPECT_FAILS(AG_ERROR_FILE_NOT_FOUND, agModuleLoad(device, "/", out.get()));
  EXPECT_NE(std::string::npos, anygpu_test::last_detail().find("/ is a directory"))
      << anygpu_test::last_detail();
  // A file past the 1 GiB limit (sparse: nothing is written) is refused before it is read.
  const std::string huge_path = ::testing::TempDir() + "anygpu_api_errors_huge.bin";
  FILE* huge = fopen(huge_path.c_str(), "wb");
  ASSERT_NE(nullptr, huge);
  ASSERT_EQ(0, ftruncate(fileno(huge), (off_t{1} << 30) + 1));
  fclose(huge);
  EXPECT_FAILS(AG_ERROR_INVALID_IMAGE, agModuleLoad(device, huge_path.c_str(), out.get()));
  EXPECT_NE(std::string::npos, anygpu_test::last_detail().find("more than the 1073741824"))
      << anygpu_test::last_detail();
  EXPECT_TRUE(out.intact());
  remove(huge_path.c_str());
  expect_invalid_handles<ag_device>("agModuleLoad", [](ag_device bad) {
    return with_untouched_output<ag_module>(
        [&](ag_module* out) { return agModuleLoad(bad, ANYGPU_TEST_KERNELS_PATH, out); });
  });
  Sentinel<ag_module> loaded;
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agModuleLoad(device, nullptr, loaded.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agModuleLoad(device, ANYGPU_TEST_KERNELS_PATH, nullptr));
  EXPECT_TRUE(loaded.intact());
  ag_module module_from_file = nullptr;
  ASSERT_AG(agModuleLoad(device, ANYGPU_TEST_KERNELS_PATH, &module_from_file));
  EXPECT_AG(agModuleUnload(module_from_file));
}

TEST_F(ModuleErrorTest, UnloadRejectsBadModules) {
  expect_invalid_handles<ag_module>("agModuleUnload", agModuleUnload);
  int count = 0;  // the module and its functions survived
  EXPECT_AG(agFunctionGetParamCount(saxpy, &count));
  EXPECT_EQ(4, count);
}

TEST_F(ModuleErrorTest, GetFunctionRejectsBadInput) {
  const ag_module live = module->module();
  expect_invalid_handles<ag_module>("agModuleGetFunction", [](ag_module bad) {
    return with_untouched_output<ag_function>(
        [&](ag_function* out) { return agModuleGetFunction(bad, "saxpy", out); });
  });
  const std::pair<const char*, ag_result> names[] = {
      {"no_such_kernel", AG_ERROR_NOT_FOUND}, {"saxp", AG_ERROR_NOT_FOUND},
      {"SAXPY", AG_ERROR_NOT_FOUND},          {"saxpy ", AG_ERROR_NOT_FOUND},
      {" other::saxpy", AG_ERROR_NOT_FOUND},  {"reduce<512>", AG_ERROR_NOT_FOUND},
      {"reduce", AG_ERROR_INVALID_VALUE},     {"", AG_ERROR_INVALID_VALUE}};
  for (const auto& name : names) {
    SCOPED_TRACE(std::string("name \"") + name.first + "\"");
    Sentinel<ag_function> function;
    EXPECT_FAILS(name.second, agModuleGetFunction(live, name.first, function.get()));
    EXPECT_TRUE(function.intact());
  }
  Sentinel<ag_function> function;
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agModuleGetFunction(live, nullptr, function.get()));
  EXPECT_TRUE(function.intact());
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agModuleGetFunction(live, "saxpy", nullptr));
  EXPECT_NE(nullptr, module->function("vector_add"));
}

// Bad handles, NULL and unknown names: refused with nothing written. Only the module's own
// variables count: not its kernels, not the code object's functions, not libc's variables.
TEST_F(ModuleErrorTest, GetGlobalRejectsBadInput) {
  const ag_module live = module->module();
  expect_invalid_handles<ag_module>("agModuleGetGlobal", [](ag_module bad) {
    return with_untouched_output<size_t>([&](size_t* bytes) {
      return with_untouched_output<void*>([&](void** pointer) {
        return agModuleGetGlobal(bad, "globals_counter", pointer, bytes);
      });
    });
  });
  for (const char* name :
       {"no_such_global", "", "globals_counte", "globals_counter ", "GLOBALS_COUNTER", "saxpy",
        "anygpu_kernel_saxpy", "anygpu_host_abi", "environ", "_ZN10globals_ns5scale"}) {
    SCOPED_TRACE(std::string("name \"") + name + "\"");
    Sentinel<void*> pointer;
    Sentinel<size_t> bytes;
    EXPECT_FAILS(AG_ERROR_NOT_FOUND, agModuleGetGlobal(live, name, pointer.get(), bytes.get()));
    EXPECT_NE(std::string::npos, anygpu_test::last_detail().find(std::string("'") + name + "'"))
        << anygpu_test::last_detail();
    EXPECT_TRUE(pointer.intact());
    EXPECT_TRUE(bytes.intact());
  }
  Sentinel<void*> pointer;
  Sentinel<size_t> bytes;
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agModuleGetGlobal(live, nullptr, pointer.get(), bytes.get()));
  EXPECT_TRUE(pointer.intact());
  EXPECT_TRUE(bytes.intact());
  // Either output may be NULL, as with cuModuleGetGlobal.
  EXPECT_AG(agModuleGetGlobal(live, "globals_counter", nullptr, nullptr));
  size_t size = 0;
  EXPECT_AG(agModuleGetGlobal(live, "globals_coefficients", nullptr, &size));
  EXPECT_EQ(4 * sizeof(float), size);
  void* address = nullptr;
  EXPECT_AG(agModuleGetGlobal(live, "_ZN10globals_ns5scaleE", &address, nullptr));
  EXPECT_NE(nullptr, address);
}

// A name of several kernels (tests/cuda_sources/kernel_names.cu has two instantiations of reduce)
// lists them; a name of none lists the module's kernels, sorted and bounded. Neither makes a
// handle.
TEST_F(ModuleErrorTest, GetFunctionDetailsListKernels) {
  const ag_module live = module->module();
  Sentinel<ag_function> function;
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agModuleGetFunction(live, "reduce", function.get()));
  EXPECT_TRUE(function.intact());
  std::string detail = anygpu_test::last_detail();
  EXPECT_NE(std::string::npos,
            detail.find("'reduce' names 2 kernels of the module: void reduce<128>(float*, float*, "
                        "unsigned int), void reduce<256>(float*, float*, unsigned int); "))
      << detail;

  EXPECT_FAILS(AG_ERROR_NOT_FOUND, agModuleGetFunction(live, "reducer", function.get()));
  EXPECT_TRUE(function.intact());
  detail = anygpu_test::last_detail();
  // The CPU backend's reason, then the module's kernels, sorted: the first in byte order come
  // first, whatever the symbol table's order.
  EXPECT_NE(std::string::npos, detail.find("the module has no kernel named 'reducer'; the "
                                           "module's "))
      << detail;
  EXPECT_NE(std::string::npos,
            detail.find("kernels are: (anonymous namespace)::offset(int*, int), "))
      << detail;
  EXPECT_NE(std::string::npos, detail.find(" more (AG_ERROR_NOT_FOUND)")) << detail;

  ag_function resolved = nullptr;
  EXPECT_AG(agModuleGetFunction(live, "reduce<256>", &resolved));
  EXPECT_EQ(module->function("_Z6reduceILi256EEvPfS0_j"), resolved);
}

TEST_F(ModuleErrorTest, ParamCountRejectsBadInput) {
  expect_invalid_handles<ag_function>("agFunctionGetParamCount", [](ag_function bad) {
    return with_untouched_output<int>(
        [&](int* count) { return agFunctionGetParamCount(bad, count); });
  });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agFunctionGetParamCount(saxpy, nullptr));
  int count = 0;
  EXPECT_AG(agFunctionGetParamCount(saxpy, &count));
  EXPECT_EQ(4, count);
}

TEST_F(ModuleErrorTest, ParamInfoRejectsBadInput) {
  auto info_of = [](ag_function f, int index) {
    Sentinel<ag_param_info> info(sizeof(ag_param_info));
    const ag_result result = agFunctionGetParamInfo(f, index, info.get());
    EXPECT_TRUE(info.intact());
    return result;
  };
  expect_invalid_handles<ag_function>("agFunctionGetParamInfo",
                                      [&](ag_function bad) { return info_of(bad, 0); });
  const ag_function empty = module->function("empty");
  const std::pair<ag_function, int> indexes[] = {{saxpy, -1},      {saxpy, 4},       {saxpy, 5},
                                                 {saxpy, INT_MAX}, {saxpy, INT_MIN}, {empty, 0}};
  for (const auto& index : indexes) {
    SCOPED_TRACE("index " + std::to_string(index.second));
    EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, "agFunctionGetParamInfo",
                           [&] { return info_of(index.first, index.second); }));
  }
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agFunctionGetParamInfo(saxpy, 0, nullptr));
  expect_small_struct_sizes_rejected<ag_param_info>(
      "agFunctionGetParamInfo",
      [&](ag_param_info* info) { return agFunctionGetParamInfo(saxpy, 3, info); });
  ag_param_info info{};
  info.struct_size = sizeof info;
  EXPECT_AG(agFunctionGetParamInfo(saxpy, 3, &info));
  EXPECT_EQ(AG_PARAM_POINTER, info.kind);
}

TEST_F(ModuleErrorTest, FunctionAttributesRejectBadInput) {
  expect_invalid_handles<ag_function>("agFunctionGetAttributes", [&](ag_function bad) {
    Sentinel<ag_function_attributes> a(sizeof(ag_function_attributes));
    const ag_result result = agFunctionGetAttributes(bad, a.get());
    EXPECT_TRUE(a.intact());
    return result;
  });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agFunctionGetAttributes(saxpy, nullptr));
  expect_small_struct_sizes_rejected<ag_function_attributes>(
      "agFunctionGetAttributes",
      [&](ag_function_attributes* a) { return agFunctionGetAttributes(saxpy, a); });
  ag_function_attributes before{};
  before.struct_size = sizeof before;
  ASSERT_AG(agFunctionGetAttributes(saxpy, &before));

  expect_invalid_handles<ag_function>("agFunctionSetMaxDynamicShared", [&](ag_function bad) {
    return agFunctionSetMaxDynamicShared(bad, 1024);
  });
  ag_device_properties p{};
  p.struct_size = sizeof p;
  ASSERT_AG(agDeviceGetProperties(device, &p));
  for (size_t bytes :
       {size_t(p.shared_memory_per_block_optin - before.static_shared_bytes + 1), SIZE_MAX}) {
    SCOPED_TRACE(bytes);
    EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agFunctionSetMaxDynamicShared(saxpy, bytes));
  }
  ag_function_attributes after{};
  after.struct_size = sizeof after;
  ASSERT_AG(agFunctionGetAttributes(saxpy, &after));
  EXPECT_EQ(before.max_dynamic_shared_bytes, after.max_dynamic_shared_bytes);
}

TEST_F(ModuleErrorTest, OccupancyRejectsBadInput) {
  ag_function_attributes a{};
  a.struct_size = sizeof a;
  ASSERT_AG(agFunctionGetAttributes(saxpy, &a));
  int blocks = -7;
  expect_invalid_handles<ag_function>(
      "agOccupancyMaxActiveBlocksPerMultiprocessor", [&](ag_function bad) {
        return agOccupancyMaxActiveBlocksPerMultiprocessor(bad, 64, 0, &blocks);
      });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agOccupancyMaxActiveBlocksPerMultiprocessor(saxpy, 64, 0, nullptr));
  for (int block : {0, -1, INT_MIN, a.max_threads_per_block + 1}) {
    SCOPED_TRACE(block);
    EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
                 agOccupancyMaxActiveBlocksPerMultiprocessor(saxpy, block, 0, &blocks));
  }
  for (size_t shared : {size_t(a.max_dynamic_shared_bytes + 1), SIZE_MAX}) {
    SCOPED_TRACE(shared);
    EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
                 agOccupancyMaxActiveBlocksPerMultiprocessor(saxpy, 64, shared, &blocks));
  }
  EXPECT_EQ(-7, blocks);

  int grid = -7, size = -7;
  expect_invalid_handles<ag_function>("agOccupancyMaxPotentialBlockSize", [&](ag_function bad) {
    return agOccupancyMaxPotentialBlockSize(bad, 0, 0, &grid, &size);
  });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agOccupancyMaxPotentialBlockSize(saxpy, 0, 0, nullptr, &size));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agOccupancyMaxPotentialBlockSize(saxpy, 0, 0, &grid, nullptr));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agOccupancyMaxPotentialBlockSize(saxpy, 0, -1, &grid, &size));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agOccupancyMaxPotentialBlockSize(
                                           saxpy, a.max_dynamic_shared_bytes + 1, 0, &grid, &size));
  EXPECT_EQ(-7, grid);
  EXPECT_EQ(-7, size);
}

// ---- Launch ------------------------------------------------------------------------------------

struct Config {
  std::string what;
  unsigned grid[3];
  unsigned block[3];
  unsigned shared_bytes;
};

// saxpy over n = 64 floats, y = 2 * 1 + 5: a launch that ran shows in y.
class LaunchErrorTest : public ApiErrorTest {
 protected:
  void SetUp() override {
    ApiErrorTest::SetUp();
    if (HasFatalFailure()) return;
    x_ = std::make_unique<anygpu_test::DeviceBuffer<float>>(device, std::vector<float>(kN, 1.0f));
    y_ = std::make_unique<anygpu_test::DeviceBuffer<float>>(device, std::vector<float>(kN, 5.0f));
    params_ = {&n_, &a_, x_->param(), y_->param()};
  }
  void TearDown() override {
    x_.reset();
    y_.reset();
    ApiErrorTest::TearDown();
  }

  ag_result launch(const Config& c, ag_stream on, void** params, void** extra = nullptr) {
    return launch_function(saxpy, c, on, params, extra);
  }
  static ag_result launch_function(ag_function f, const Config& c, ag_stream on, void** params,
                                   void** extra = nullptr) {
    return agLaunchKernel(f, c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2],
                          c.shared_bytes, on, params, extra);
  }
  // Expects `launch_with(s)` to fail with `expected` both without a stream and on `stream`, and y
  // to be unchanged.
  template <typename Launch>
  void expect_launch_fails(ag_result expected, Launch launch_with) {
    for (ag_stream on : {ag_stream{nullptr}, stream}) {
      SCOPED_TRACE(on ? "on a stream" : "without a stream");
      EXPECT_TRUE(fails_with(expected, "agLaunchKernel", [&] { return launch_with(on); }));
    }
    expect_y(5.0f);
  }
  void expect_y(float expected) {
    ASSERT_AG(agStreamSynchronize(stream));
    for (float v : y_->download()) ASSERT_EQ(expected, v);
  }
  // The launch that works, after the failures.
  void expect_valid_launch_works() {
    ASSERT_AG(launch(kValid, nullptr, params_.data()));
    expect_y(7.0f);
    ASSERT_AG(launch(kValid, stream, params_.data()));
    expect_y(9.0f);
  }

  const Config kValid{"valid", {1, 1, 1}, {kN, 1, 1}, 0};
  static constexpr unsigned kN = 64;
  int n_ = kN;
  float a_ = 2.0f;
  std::unique_ptr<anygpu_test::DeviceBuffer<float>> x_, y_;
  std::vector<void*> params_;
};

TEST_F(LaunchErrorTest, ConfigurationsBeyondTheDeviceLimitsAreRejected) {
  const auto& p = properties;
  const unsigned bx = p.max_block_dim[0], by = p.max_block_dim[1], bz = p.max_block_dim[2];
  const unsigned gx = p.max_grid_dim[0], gy = p.max_grid_dim[1], gz = p.max_grid_dim[2];
  const unsigned threads = p.max_threads_per_block;
  const unsigned shared = static_cast<unsigned>(p.shared_memory_per_block);
  const Config configs[] = {
      {"block.x above max_block_dim[0]", {1, 1, 1}, {bx + 1, 1, 1}, 0},
      {"block.y above max_block_dim[1]", {1, 1, 1}, {1, by + 1, 1}, 0},
      {"block.z above max_block_dim[2]", {1, 1, 1}, {1, 1, bz + 1}, 0},
      {"block.x * block.y above max_threads_per_block", {1, 1, 1}, {32, threads / 32 + 1, 1}, 0},
      {"block.x * block.y * block.z above max_threads_per_block",
       {1, 1, 1},
       {8, 8, threads / 64 + 1},
       0},
      {"every block dimension at its maximum", {1, 1, 1}, {bx, by, bz}, 0},
      {"grid.x = 0", {0, 1, 1}, {kN, 1, 1}, 0},
      {"grid.y = 0", {1, 0, 1}, {kN, 1, 1}, 0},
      {"grid.z = 0", {1, 1, 0}, {kN, 1, 1}, 0},
      {"block.x = 0", {1, 1, 1}, {0, 1, 1}, 0},
      {"block.y = 0", {1, 1, 1}, {kN, 0, 1}, 0},
      {"block.z = 0", {1, 1, 1}, {kN, 1, 0}, 0},
      {"grid.x above max_grid_dim[0]", {gx + 1, 1, 1}, {kN, 1, 1}, 0},
      {"grid.y above max_grid_dim[1]", {1, gy + 1, 1}, {kN, 1, 1}, 0},
      {"grid.z above max_grid_dim[2]", {1, 1, gz + 1}, {kN, 1, 1}, 0},
      {"every dimension UINT_MAX",
       {UINT_MAX, UINT_MAX, UINT_MAX},
       {UINT_MAX, UINT_MAX, UINT_MAX},
       0},
      {"dynamic shared memory above shared_memory_per_block", {1, 1, 1}, {kN, 1, 1}, shared + 1},
      {"dynamic shared memory UINT_MAX", {1, 1, 1}, {kN, 1, 1}, UINT_MAX},
      // Each dimension is within its limit, but the CPU backend runs at most 2^32 - 1 blocks.
      {"more blocks than the CPU backend runs", {gx, gy, 1}, {1, 1, 1}, 0}};
  for (const Config& c : configs) {
    SCOPED_TRACE(c.what);
    expect_launch_fails(AG_ERROR_INVALID_CONFIGURATION,
                        [&](ag_stream on) { return launch(c, on, params_.data()); });
  }
  expect_valid_launch_works();
}

TEST_F(LaunchErrorTest, MissingParamsAndExtraAreRejected) {
  {
    SCOPED_TRACE("params NULL");
    expect_launch_fails(AG_ERROR_INVALID_VALUE,
                        [&](ag_stream on) { return launch(kValid, on, nullptr); });
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    SCOPED_TRACE("params[" + std::to_string(i) + "] NULL");
    std::vector<void*> params = params_;
    params[i] = nullptr;
    expect_launch_fails(AG_ERROR_INVALID_VALUE,
                        [&](ag_stream on) { return launch(kValid, on, params.data()); });
  }
  void* extra[] = {nullptr};
  for (void** bad_extra : {extra, made_up<void**>()}) {
    SCOPED_TRACE("extra non-NULL");
    expect_launch_fails(AG_ERROR_NOT_SUPPORTED, [&](ag_stream on) {
      return launch(kValid, on, params_.data(), bad_extra);
    });
  }
  // A kernel without parameters needs no params.
  EXPECT_AG(launch_function(module->function("empty"), kValid, nullptr, nullptr));
  expect_valid_launch_works();
}

// Issue 15, defect 12: agLaunchKernel cannot tell a params array shorter than the kernel's
// parameter list; the checked form takes the count and refuses a mismatch before reading params.
TEST_F(LaunchErrorTest, CheckedLaunchRefusesAWrongParamCount) {
  auto checked = [&](ag_stream on, void** params, size_t count) {
    return agLaunchKernelChecked(saxpy, 1, 1, 1, kN, 1, 1, 0, on, params, count, nullptr);
  };
  void* unreadable = made_up<void*>();  // any read of params[] would fault under ASan
  for (size_t count : {size_t{0}, size_t{3}, size_t{5}, SIZE_MAX}) {
    SCOPED_TRACE("param_count " + std::to_string(count));
    for (ag_stream on : {ag_stream{nullptr}, stream})
      EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, "agLaunchKernelChecked",
                             [&] { return checked(on, static_cast<void**>(unreadable), count); }));
  }
  expect_y(5.0f);
  expect_invalid_handles<ag_function>("agLaunchKernelChecked", [&](ag_function bad) {
    return agLaunchKernelChecked(bad, 1, 1, 1, kN, 1, 1, 0, nullptr, params_.data(), 4, nullptr);
  });
  ASSERT_AG(checked(nullptr, params_.data(), params_.size()));
  expect_y(7.0f);
  ASSERT_AG(checked(stream, params_.data(), params_.size()));
  expect_y(9.0f);
  // The same checks as agLaunchKernel after the count.
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_CONFIGURATION, "agLaunchKernelChecked", [&] {
    return agLaunchKernelChecked(saxpy, 0, 1, 1, kN, 1, 1, 0, nullptr, params_.data(), 4, nullptr);
  }));
}

TEST_F(LaunchErrorTest, BadFunctionsAndStreamsAreRejected) {
  expect_invalid_handles<ag_function>("agLaunchKernel", [&](ag_function bad) {
    return launch_function(bad, kValid, nullptr, params_.data());
  });
  expect_invalid_handles<ag_function>("agLaunchKernel", [&](ag_function bad) {
    return launch_function(bad, kValid, stream, params_.data());
  });
  expect_invalid_handles<ag_stream>(
      "agLaunchKernel", [&](ag_stream bad) { return launch(kValid, bad, params_.data()); },
      /*null_is_valid=*/true);
  expect_y(5.0f);
  expect_valid_launch_works();
}

}  // namespace
