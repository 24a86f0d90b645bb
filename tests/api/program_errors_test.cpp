// Error paths of run-time compilation: programs, their options, logs and images, and
// agModuleLoadSource. Each bad call fails with a detail naming it and changes nothing.
#include <string>
#include <vector>

#include "api_error_support.h"

using namespace api_test;

namespace {

using ProgramErrorTest = ApiErrorTest;

constexpr const char* kSource =
    "__global__ void add_one(float* data) { data[threadIdx.x] += 1.0f; }\n";

struct Program {
  ag_program handle = nullptr;
  Program() { EXPECT_AG(agProgramCreate(kSource, "add_one.cu", 0, nullptr, nullptr, &handle)); }
  ~Program() {
    if (handle) {
      EXPECT_AG(agProgramDestroy(handle));
    }
  }
};

// Program handles that are not live programs: null, made up, destroyed, and live objects of
// other kinds.
std::vector<NamedHandle<ag_program>> bad_programs(ag_device device, ag_stream stream,
                                                  ag_module module) {
  ag_program destroyed = nullptr;
  EXPECT_AG(agProgramCreate(kSource, nullptr, 0, nullptr, nullptr, &destroyed));
  EXPECT_AG(agProgramDestroy(destroyed));
  return {{"null", nullptr},
          {"made-up 0x1234", made_up<ag_program>(0x1234)},
          {"destroyed", destroyed},
          {"live device", reinterpret_cast<ag_program>(device)},
          {"live stream", reinterpret_cast<ag_program>(stream)},
          {"live module", reinterpret_cast<ag_program>(module)}};
}

TEST_F(ProgramErrorTest, CreateRejectsBadArguments) {
  Sentinel<ag_program> out;
  const char* header = "#define ONE 1\n";
  const char* header_name = "one.h";
  const char* null_text[] = {nullptr};
  const char* empty_name[] = {""};
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agProgramCreate(nullptr, "a.cu", 0, nullptr, nullptr, out.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agProgramCreate(kSource, "a.cu", 0, nullptr, nullptr, nullptr));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agProgramCreate(kSource, "", 0, nullptr, nullptr, out.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agProgramCreate(kSource, "a.cu", -1, nullptr, nullptr, out.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agProgramCreate(kSource, "a.cu", 1, nullptr, &header_name, out.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agProgramCreate(kSource, "a.cu", 1, &header, nullptr, out.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agProgramCreate(kSource, "a.cu", 1, null_text, &header_name, out.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agProgramCreate(kSource, "a.cu", 1, &header, empty_name, out.get()));
  EXPECT_TRUE(out.intact());
}

TEST_F(ProgramErrorTest, CallsRejectBadProgramHandles) {
  for (const auto& bad : bad_programs(device, stream, module->module())) {
    SCOPED_TRACE(std::string("given a ") + bad.name + " program handle");
    size_t size = 7;
    EXPECT_FAILS(AG_ERROR_INVALID_HANDLE, agProgramCompile(bad.handle, device, 0, nullptr));
    EXPECT_FAILS(AG_ERROR_INVALID_HANDLE, agProgramGetLog(bad.handle, nullptr, &size));
    EXPECT_FAILS(AG_ERROR_INVALID_HANDLE, agProgramGetImage(bad.handle, nullptr, &size));
    EXPECT_FAILS(AG_ERROR_INVALID_HANDLE, agProgramDestroy(bad.handle));
    EXPECT_EQ(7u, size);
  }
}

TEST_F(ProgramErrorTest, CompileRejectsBadDevicesAndOptions) {
  Program program;
  expect_invalid_handles<ag_device>("agProgramCompile", [&](ag_device bad) {
    return agProgramCompile(program.handle, bad, 0, nullptr);
  });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agProgramCompile(program.handle, device, 1, nullptr));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agProgramCompile(program.handle, device, -1, nullptr));
  const std::vector<std::vector<const char*>> bad_options = {
      {nullptr},       {"-D"},           {"-D1X"},   {"-DA-B=1"},
      {"-I"},          {"-O4"},          {"-Ofast"}, {"--maxrregcount=32"},
      {"-Xcuda"},      {"-Xcuda="},      {"-X=-g"},  {"-Xnvidia=--maxrregcount=32"},
      {"-ffast-math"}, {"-DOK", "-Wall"}};
  for (const auto& options : bad_options) {
    SCOPED_TRACE(options.back() ? options.back() : "NULL");
    EXPECT_FAILS(
        AG_ERROR_INVALID_VALUE,
        agProgramCompile(program.handle, device, static_cast<int>(options.size()), options.data()));
  }
  // Nothing was compiled: no image, an empty log.
  size_t size = 0;
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agProgramGetImage(program.handle, nullptr, &size));
  ASSERT_AG(agProgramGetLog(program.handle, nullptr, &size));
  EXPECT_EQ(1u, size);
}

TEST_F(ProgramErrorTest, LogAndImageRejectBadSizes) {
  Program program;
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agProgramGetLog(program.handle, nullptr, nullptr));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agProgramGetImage(program.handle, nullptr, nullptr));
  char log[4] = {'x', 'x', 'x', 'x'};
  size_t size = 0;  // a buffer of 0 bytes cannot hold even the NUL
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agProgramGetLog(program.handle, log, &size));
  EXPECT_EQ('x', log[0]);
  EXPECT_EQ(0u, size);
  size = sizeof log;
  ASSERT_AG(agProgramGetLog(program.handle, log, &size));
  EXPECT_EQ(1u, size);
  EXPECT_EQ('\0', log[0]);
}

TEST_F(ProgramErrorTest, LoadSourceRejectsBadArguments) {
  expect_invalid_handles<ag_device>("agModuleLoadSource", [&](ag_device bad) {
    return with_untouched_output<ag_module>(
        [&](ag_module* out) { return agModuleLoadSource(bad, kSource, 0, nullptr, out); });
  });
  Sentinel<ag_module> loaded;
  const char* bad_option = "-O9";
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agModuleLoadSource(device, nullptr, 0, nullptr, loaded.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agModuleLoadSource(device, kSource, 0, nullptr, nullptr));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agModuleLoadSource(device, kSource, 1, nullptr, loaded.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agModuleLoadSource(device, kSource, -1, nullptr, loaded.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agModuleLoadSource(device, kSource, 1, &bad_option, loaded.get()));
  EXPECT_TRUE(loaded.intact());
}

TEST_F(ProgramErrorTest, CompilerInfoRejectsBadArguments) {
  int backends = 0;
  ASSERT_AG(agBackendGetCount(&backends));
  Sentinel<ag_compiler_info> info(sizeof(ag_compiler_info));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agBackendGetCompilerInfo(-1, info.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agBackendGetCompilerInfo(backends, info.get()));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agBackendGetCompilerInfo(0, nullptr));
  EXPECT_TRUE(info.intact());
  expect_small_struct_sizes_rejected<ag_compiler_info>(
      "agBackendGetCompilerInfo",
      [&](ag_compiler_info* out) { return agBackendGetCompilerInfo(0, out); });
  for (int i = 0; i < backends; ++i) {
    ag_compiler_info good{};
    good.struct_size = sizeof good;
    ASSERT_AG(agBackendGetCompilerInfo(i, &good));
    ASSERT_NE(nullptr, good.compiler);
    ASSERT_NE(nullptr, good.reason);
    // Either a compiler is named, or the reason says why there is none.
    EXPECT_NE(good.available != 0, *good.reason != '\0') << i;
    EXPECT_EQ(good.available != 0, *good.compiler != '\0') << i;
  }
}

}  // namespace
