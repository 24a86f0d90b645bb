// The on-disk compile cache (shim/core/compile_cache.h): keys, hits, corrupt entries, many
// processes at once, eviction, the environment, and a directory that cannot be used. Each test
// has a cache of its own in a fresh temporary directory.
#include "shim/core/compile_cache.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using anygpu::compile_cache_key;
using anygpu::CompileCache;
using anygpu::CompileCacheConfig;
using anygpu::CompileOutput;
using anygpu::CompileRequest;
namespace fs = std::filesystem;

namespace {

// Sets environment variables for the test's duration and puts the old values back.
class ScopedEnvironment {
 public:
  ~ScopedEnvironment() {
    for (const auto& [name, value] : saved_) {
      if (value)
        setenv(name.c_str(), value->c_str(), 1);
      else
        unsetenv(name.c_str());
    }
  }
  void set(const std::string& name, const char* value) {
    if (!saved_.count(name)) {
      const char* old = getenv(name.c_str());
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    if (value)
      setenv(name.c_str(), value, 1);
    else
      unsetenv(name.c_str());
  }

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

CompileRequest base_request() {
  CompileRequest request;
  request.source = {"saxpy.cu", "__global__ void saxpy(float a, float* x) { x[0] *= a; }"};
  request.headers = {{"params.h", "#define N 4\n"}, {"util.h", "inline int f() { return 1; }\n"}};
  request.options.defines = {"A=1", "B"};
  request.options.optimization = 3;
  request.options.fast_math = false;
  request.options.vendor = {"--extra-device-vectorization"};
  request.target.architecture = "sm_90";
  request.target.max_ir_version = 85;
  return request;
}

const char kCompiler[] = "NVRTC 13.0 (/usr/local/cuda/lib64/libnvrtc.so.13)";
const char kDriver[] = "580.65.06";

CompileOutput make_output(size_t image_bytes, unsigned seed, const std::string& log = "warning") {
  CompileOutput output;
  output.image.resize(image_bytes);
  uint32_t state = seed * 2654435761u + 1;
  for (unsigned char& byte : output.image) {
    state = state * 1664525u + 1013904223u;
    byte = static_cast<unsigned char>(state >> 24);
  }
  output.log = log;
  return output;
}

std::string key_of(unsigned n) {
  CompileRequest request = base_request();
  request.source.text += "// " + std::to_string(n);
  return compile_cache_key(request, kCompiler, kDriver);
}

class CompileCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/anygpu-cache-test-XXXXXX";
    ASSERT_NE(nullptr, mkdtemp(&pattern[0])) << strerror(errno);
    root_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }
  CompileCacheConfig config(uint64_t max_bytes = 64ull << 20) const {
    CompileCacheConfig c;
    c.directory = root_ + "/cache";
    c.max_bytes = max_bytes;
    return c;
  }
  static bool exists(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0;
  }
  // Stores under the base request's key, then expects a miss for the request `change` makes.
  void expect_miss_when(const std::function<void(CompileRequest&)>& change,
                        const std::string& compiler = kCompiler,
                        const std::string& driver = kDriver) {
    CompileCache cache(config());
    ASSERT_TRUE(cache.enabled()) << cache.reason();
    const std::string key = compile_cache_key(base_request(), kCompiler, kDriver);
    cache.store(key, make_output(1000, 1));
    CompileOutput out;
    ASSERT_TRUE(cache.lookup(key, out));
    CompileRequest changed = base_request();
    change(changed);
    const std::string other = compile_cache_key(changed, compiler, driver);
    EXPECT_NE(key, other);
    EXPECT_FALSE(cache.lookup(other, out));
  }

  std::string root_;
};

// ---- keys ---------------------------------------------------------------------------------------

TEST_F(CompileCacheTest, KeyIsHexSha256AndStable) {
  const std::string key = compile_cache_key(base_request(), kCompiler, kDriver);
  ASSERT_EQ(64u, key.size());
  EXPECT_EQ(std::string::npos, key.find_first_not_of("0123456789abcdef"));
  EXPECT_EQ(key, compile_cache_key(base_request(), kCompiler, kDriver));
}

TEST_F(CompileCacheTest, MissWhenSourceNameChanges) {
  expect_miss_when([](CompileRequest& r) { r.source.name = "saxpy.cpp"; });
}
TEST_F(CompileCacheTest, MissWhenSourceTextChanges) {
  expect_miss_when([](CompileRequest& r) { r.source.text += " "; });
}
TEST_F(CompileCacheTest, MissWhenHeaderNameChanges) {
  expect_miss_when([](CompileRequest& r) { r.headers[0].name = "params2.h"; });
}
TEST_F(CompileCacheTest, MissWhenHeaderTextChanges) {
  expect_miss_when([](CompileRequest& r) { r.headers[1].text = "inline int f() { return 2; }\n"; });
}
TEST_F(CompileCacheTest, MissWhenHeaderIsAdded) {
  expect_miss_when([](CompileRequest& r) { r.headers.push_back({"more.h", ""}); });
}
TEST_F(CompileCacheTest, MissWhenDefinesChange) {
  expect_miss_when([](CompileRequest& r) { r.options.defines[0] = "A=2"; });
}
TEST_F(CompileCacheTest, MissWhenDefinesAreReordered) {
  expect_miss_when(
      [](CompileRequest& r) { std::swap(r.options.defines[0], r.options.defines[1]); });
}
TEST_F(CompileCacheTest, MissWhenOptimizationChanges) {
  expect_miss_when([](CompileRequest& r) { r.options.optimization = 2; });
}
TEST_F(CompileCacheTest, MissWhenFastMathChanges) {
  expect_miss_when([](CompileRequest& r) { r.options.fast_math = true; });
}
TEST_F(CompileCacheTest, MissWhenVendorOptionsChange) {
  expect_miss_when([](CompileRequest& r) { r.options.vendor.push_back("-lineinfo"); });
}
TEST_F(CompileCacheTest, MissWhenTargetArchitectureChanges) {
  expect_miss_when([](CompileRequest& r) { r.target.architecture = "sm_89"; });
}
TEST_F(CompileCacheTest, MissWhenMaxIrVersionChanges) {
  expect_miss_when([](CompileRequest& r) { r.target.max_ir_version = 86; });
}
TEST_F(CompileCacheTest, MissWhenCompilerIdentityChanges) {
  expect_miss_when([](CompileRequest&) {}, "NVRTC 13.1 (/usr/local/cuda/lib64/libnvrtc.so.13)");
}
TEST_F(CompileCacheTest, MissWhenDriverVersionChanges) {
  expect_miss_when([](CompileRequest&) {}, kCompiler, "580.65.07");
}
TEST_F(CompileCacheTest, MissWhenAnygpuBuildChanges) {
  namespace detail = anygpu::compile_cache_detail;
  const std::string& build = detail::build_identity();
  EXPECT_NE(std::string::npos, build.find("anygpu 0.1.0")) << build;
  const CompileRequest request = base_request();
  // compile_cache_key is the key of this build.
  EXPECT_EQ(compile_cache_key(request, kCompiler, kDriver),
            detail::key_with_build(request, kCompiler, kDriver, build));
  EXPECT_NE(compile_cache_key(request, kCompiler, kDriver),
            detail::key_with_build(request, kCompiler, kDriver, build + " rebuilt"));
}
TEST_F(CompileCacheTest, BuildIdentityHasTheGnuBuildId) {
  // The test program is linked with a GNU build-id (the toolchain's default).
  const std::string& build = anygpu::compile_cache_detail::build_identity();
  const size_t at = build.find("build-id ");
  ASSERT_NE(std::string::npos, at) << build;
  const std::string id = build.substr(at + 9, build.find(' ', at + 9) - at - 9);
  EXPECT_GE(id.size(), 16u) << build;
  EXPECT_EQ(std::string::npos, id.find_first_not_of("0123456789abcdef")) << build;
}
TEST_F(CompileCacheTest, PartsAreLengthPrefixed) {
  // The same bytes split differently between two parts give different keys.
  CompileRequest a = base_request(), b = base_request();
  a.source = {"ab", "c"};
  b.source = {"a", "bc"};
  EXPECT_NE(compile_cache_key(a, kCompiler, kDriver), compile_cache_key(b, kCompiler, kDriver));
  a = base_request();
  b = base_request();
  a.options.defines = {"AB"};
  b.options.defines = {"A", "B"};
  EXPECT_NE(compile_cache_key(a, kCompiler, kDriver), compile_cache_key(b, kCompiler, kDriver));
  a = base_request();
  b = base_request();
  a.options.defines = {"X"};
  a.options.vendor = {};
  b.options.defines = {};
  b.options.vendor = {"X"};
  EXPECT_NE(compile_cache_key(a, kCompiler, kDriver), compile_cache_key(b, kCompiler, kDriver));
}

// ---- hits ---------------------------------------------------------------------------------------

TEST_F(CompileCacheTest, StoredEntryIsHitBitExact) {
  CompileCache cache(config());
  ASSERT_TRUE(cache.enabled()) << cache.reason();
  const std::string key = key_of(1);
  CompileOutput out;
  EXPECT_FALSE(cache.lookup(key, out));
  const CompileOutput stored = make_output(100000, 7, "line 1: warning: unused\n");
  cache.store(key, stored);
  EXPECT_TRUE(exists(cache.entry_path(key)));
  ASSERT_TRUE(cache.lookup(key, out));
  EXPECT_EQ(stored.image, out.image);
  EXPECT_EQ(stored.log, out.log);
  // Another cache object on the same directory (another process) sees it too.
  CompileCache other(config());
  CompileOutput again;
  ASSERT_TRUE(other.lookup(key, again));
  EXPECT_EQ(stored.image, again.image);
}

TEST_F(CompileCacheTest, EmptyImageAndLogRoundTrip) {
  CompileCache cache(config());
  const std::string key = key_of(2);
  cache.store(key, CompileOutput{});
  CompileOutput out = make_output(10, 1);
  ASSERT_TRUE(cache.lookup(key, out));
  EXPECT_TRUE(out.image.empty());
  EXPECT_TRUE(out.log.empty());
}

TEST_F(CompileCacheTest, StoreReplacesAnEntry) {
  CompileCache cache(config());
  const std::string key = key_of(3);
  cache.store(key, make_output(500, 1));
  const CompileOutput second = make_output(700, 2, "second");
  cache.store(key, second);
  CompileOutput out;
  ASSERT_TRUE(cache.lookup(key, out));
  EXPECT_EQ(second.image, out.image);
  EXPECT_EQ("second", out.log);
}

TEST_F(CompileCacheTest, LayoutIsShardedAndPrivate) {
  CompileCache cache(config());
  const std::string key = key_of(4);
  cache.store(key, make_output(10, 1));
  EXPECT_EQ(root_ + "/cache/v1/" + key.substr(0, 2) + "/" + key + ".agc", cache.entry_path(key));
  EXPECT_TRUE(exists(cache.entry_path(key)));
  for (const std::string& dir :
       {std::string("/cache"), std::string("/cache/v1"), "/cache/v1/" + key.substr(0, 2)}) {
    struct stat st;
    ASSERT_EQ(0, stat((root_ + dir).c_str(), &st)) << dir;
    EXPECT_EQ(0700u, st.st_mode & 0777) << dir;
  }
  // No temporary file is left behind.
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(root_ + "/cache/v1/" + key.substr(0, 2))) {
    ++files;
    EXPECT_EQ(key + ".agc", entry.path().filename().string());
  }
  EXPECT_EQ(1u, files);
}

// An entry may be a host library that gets loaded: a directory others can write to is not used.
TEST_F(CompileCacheTest, DirectoryWritableByOthersDisablesTheCache) {
  const std::string directory = root_ + "/cache";
  ASSERT_EQ(0, mkdir(directory.c_str(), 0700)) << strerror(errno);
  ASSERT_EQ(0, chmod(directory.c_str(), 0777)) << strerror(errno);
  CompileCache cache(config());
  EXPECT_FALSE(cache.enabled());
  EXPECT_EQ(directory + " is not owned by this user or is writable by others",
            std::string(cache.reason()));
  CompileOutput out;
  cache.store(key_of(7), make_output(10, 1));
  EXPECT_FALSE(cache.lookup(key_of(7), out));
}

TEST_F(CompileCacheTest, StoreMakesTheDirectoryAgainWhenItWasRemoved) {
  CompileCache cache(config());
  cache.store(key_of(5), make_output(10, 1));
  fs::remove_all(root_ + "/cache");
  cache.store(key_of(6), make_output(20, 2));
  CompileOutput out;
  EXPECT_FALSE(cache.lookup(key_of(5), out));
  ASSERT_TRUE(cache.lookup(key_of(6), out));
  EXPECT_EQ(make_output(20, 2).image, out.image);
}

TEST_F(CompileCacheTest, NotAKeyIsNeitherStoredNorLookedUp) {
  CompileCache cache(config());
  cache.store("../../etc/passwd", make_output(10, 1));
  cache.store(std::string(64, 'G'), make_output(10, 1));
  CompileOutput out;
  EXPECT_FALSE(cache.lookup("../../etc/passwd", out));
  ag_compile_cache_info info{};
  cache.info(info);
  EXPECT_EQ(0u, info.entries);
}

// ---- corrupt entries ----------------------------------------------------------------------------

class CorruptEntryTest : public CompileCacheTest {
 protected:
  // Stores an entry, lets `damage` change its file, then expects a miss, the file gone, and a
  // store afterwards that works.
  void check(const std::function<void(const std::string& path, std::string& bytes)>& damage) {
    CompileCache cache(config());
    ASSERT_TRUE(cache.enabled()) << cache.reason();
    const std::string key = key_of(10);
    const CompileOutput stored = make_output(4096, 3, "the log");
    cache.store(key, stored);
    const std::string path = cache.entry_path(key);
    std::string bytes;
    {
      std::ifstream in(path, std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    ASSERT_EQ(128u + 4096u + 7u, bytes.size());
    damage(path, bytes);
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    CompileOutput out = make_output(3, 9, "untouched");
    EXPECT_FALSE(cache.lookup(key, out));
    EXPECT_EQ("untouched", out.log) << "a failed lookup changed the output";
    EXPECT_FALSE(exists(path)) << "the corrupt entry was not removed";
    cache.store(key, stored);
    ASSERT_TRUE(cache.lookup(key, out));
    EXPECT_EQ(stored.image, out.image);
    EXPECT_EQ(stored.log, out.log);
  }
};

TEST_F(CorruptEntryTest, FlippedImageByte) {
  check([](const std::string&, std::string& bytes) { bytes[128 + 2000] ^= 0x01; });
}
TEST_F(CorruptEntryTest, FlippedLogByte) {
  check([](const std::string&, std::string& bytes) { bytes[bytes.size() - 1] ^= 0x20; });
}
TEST_F(CorruptEntryTest, FlippedChecksumByte) {
  check([](const std::string&, std::string& bytes) { bytes[100] ^= 0x80; });
}
TEST_F(CorruptEntryTest, TruncatedPayload) {
  check([](const std::string&, std::string& bytes) { bytes.resize(bytes.size() - 1); });
}
TEST_F(CorruptEntryTest, TruncatedHeader) {
  check([](const std::string&, std::string& bytes) { bytes.resize(50); });
}
TEST_F(CorruptEntryTest, EmptyFile) {
  check([](const std::string&, std::string& bytes) { bytes.clear(); });
}
TEST_F(CorruptEntryTest, Extended) {
  check([](const std::string&, std::string& bytes) { bytes += "x"; });
}
TEST_F(CorruptEntryTest, WrongMagic) {
  check([](const std::string&, std::string& bytes) { bytes[0] = 'X'; });
}
TEST_F(CorruptEntryTest, OtherFormatVersion) {
  check([](const std::string&, std::string& bytes) { bytes[8] = 2; });
}
TEST_F(CorruptEntryTest, ImageSizeOutOfBounds) {
  check([](const std::string&, std::string& bytes) { bytes[16 + 64 + 7] = 0x7f; });
}
TEST_F(CorruptEntryTest, SizesSwappedBetweenImageAndLog) {
  // Same total length, so only the checksum (over image then log) catches it.
  check([](const std::string&, std::string& bytes) {
    std::string image_size = bytes.substr(80, 8), log_size = bytes.substr(88, 8);
    bytes.replace(80, 8, log_size);
    bytes.replace(88, 8, image_size);
  });
}
TEST_F(CorruptEntryTest, ForeignKey) {
  // A valid entry of another key under this key's name.
  check([](const std::string&, std::string& bytes) { bytes[16] = bytes[16] == 'a' ? 'b' : 'a'; });
}
TEST_F(CorruptEntryTest, Garbage) {
  check([](const std::string&, std::string& bytes) {
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 131 + 17);
  });
}

// ---- many processes -----------------------------------------------------------------------------

TEST_F(CompileCacheTest, EightProcessesStoreAndLookUpTheSameKey) {
  const std::string key = key_of(20);
  const CompileOutput expected = make_output(512 * 1024 + 13, 42, std::string(3000, 'w'));
  {
    CompileCache cache(config());
    ASSERT_TRUE(cache.enabled()) << cache.reason();
  }
  constexpr int kProcesses = 8, kRounds = 40;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0) << strerror(errno);
    if (pid == 0) {
      // The child: no gtest assertions, only an exit status.
      int status = 0;
      CompileCache cache(config());
      bool stored_once = false;
      for (int round = 0; round < kRounds && !status; ++round) {
        CompileOutput out;
        const bool hit = cache.lookup(key, out);
        if (hit && (out.image != expected.image || out.log != expected.log)) status = 1;
        if (!hit && stored_once) status = 2;  // nothing removes a good entry here
        if (round % 3 == 0 || !hit) {
          cache.store(key, expected);
          stored_once = true;
        }
      }
      _exit(status);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(pid, waitpid(pid, &status, 0));
    ASSERT_TRUE(WIFEXITED(status)) << "child " << pid << " did not exit";
    EXPECT_EQ(0, WEXITSTATUS(status))
        << "child " << pid << (WEXITSTATUS(status) == 1 ? " read a wrong entry" : " missed");
  }
  CompileCache cache(config());
  CompileOutput out;
  ASSERT_TRUE(cache.lookup(key, out));
  EXPECT_EQ(expected.image, out.image);
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(root_ + "/cache/v1/" + key.substr(0, 2))) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(1u, files) << "temporary files were left behind";
}

// ---- eviction -----------------------------------------------------------------------------------

TEST_F(CompileCacheTest, EvictsLeastRecentlyUsedBeyondTheLimit) {
  ScopedEnvironment env;
  env.set("ANYGPU_CACHE_MAX_MB", "1");
  CompileCacheConfig c = CompileCacheConfig::from_environment();
  ASSERT_EQ(1u << 20, c.max_bytes);
  c.enabled = true;
  c.directory = root_ + "/cache";
  CompileCache cache(c);
  ASSERT_TRUE(cache.enabled()) << cache.reason();
  // Three entries of 300 KiB fit in 1 MiB, four do not.
  auto pause = [] { std::this_thread::sleep_for(std::chrono::milliseconds(30)); };
  std::vector<std::string> keys;
  for (unsigned i = 0; i < 3; ++i) {
    keys.push_back(key_of(100 + i));
    cache.store(keys.back(), make_output(300 * 1024, i));
    pause();
  }
  CompileOutput out;
  ASSERT_TRUE(cache.lookup(keys[0], out));  // now the most recently used
  pause();
  keys.push_back(key_of(103));
  cache.store(keys.back(), make_output(300 * 1024, 3));
  EXPECT_FALSE(exists(cache.entry_path(keys[1]))) << "the least recently used was kept";
  EXPECT_TRUE(exists(cache.entry_path(keys[0]))) << "an entry used recently was evicted";
  EXPECT_TRUE(exists(cache.entry_path(keys[2])));
  EXPECT_TRUE(exists(cache.entry_path(keys[3]))) << "the new entry was evicted";
  ag_compile_cache_info info{};
  cache.info(info);
  EXPECT_EQ(3u, info.entries);
  EXPECT_LE(info.bytes, 1u << 20);
  EXPECT_EQ(uint64_t(1) << 20, info.max_bytes);
}

TEST_F(CompileCacheTest, EntryLargerThanTheLimitIsNotStored) {
  CompileCache cache(config(100000));
  const std::string small = key_of(30), large = key_of(31);
  cache.store(small, make_output(1000, 1));
  cache.store(large, make_output(200000, 1));
  CompileOutput out;
  EXPECT_FALSE(cache.lookup(large, out));
  EXPECT_TRUE(cache.lookup(small, out)) << "storing an entry too large evicted others";
}

TEST_F(CompileCacheTest, EvictionToleratesVanishedFiles) {
  CompileCache cache(config(3000));
  for (unsigned i = 0; i < 3; ++i) cache.store(key_of(40 + i), make_output(800, i));
  // Another process removes an entry behind this one's back, and a directory holds a stranger.
  ASSERT_EQ(0, unlink(cache.entry_path(key_of(40)).c_str()));
  cache.store(key_of(43), make_output(800, 3));
  cache.store(key_of(44), make_output(800, 4));
  ag_compile_cache_info info{};
  cache.info(info);
  EXPECT_LE(info.bytes, 3000u);
  CompileOutput out;
  EXPECT_TRUE(cache.lookup(key_of(44), out));
}

// ---- info and clear -----------------------------------------------------------------------------

TEST_F(CompileCacheTest, InfoCountsEntriesAndClearRemovesOnlyThem) {
  CompileCache cache(config());
  for (unsigned i = 0; i < 3; ++i) cache.store(key_of(50 + i), make_output(1000 * (i + 1), i));
  // Files that are not anygpu's entries: kept, not counted.
  const std::string shard = root_ + "/cache/v1/" + key_of(50).substr(0, 2);
  std::ofstream(root_ + "/cache/notes.txt") << "mine";
  std::ofstream(root_ + "/cache/v1/README") << "mine";
  std::ofstream(shard + "/something.agc") << "mine";
  // A writer's temporary file: a fresh one stays, an hour-old one (a dead writer's) goes.
  const std::string fresh = shard + "/." + key_of(50) + ".123.abc.tmp";
  const std::string stale = shard + "/." + key_of(51) + ".456.def.tmp";
  std::ofstream(fresh) << "partial";
  std::ofstream(stale) << "partial";
  const struct timespec old[2] = {{time(nullptr) - 7200, 0}, {time(nullptr) - 7200, 0}};
  ASSERT_EQ(0, utimensat(AT_FDCWD, stale.c_str(), old, 0));

  ag_compile_cache_info info{};
  info.struct_size = 12345;
  cache.info(info);
  EXPECT_EQ(12345u, info.struct_size);
  EXPECT_EQ(1, info.enabled);
  EXPECT_STREQ((root_ + "/cache").c_str(), info.directory);
  EXPECT_STREQ("", info.reason);
  EXPECT_EQ(3u, info.entries);
  EXPECT_EQ(3u * 128 + 6000 + 3 * 7, info.bytes);
  EXPECT_EQ(64ull << 20, info.max_bytes);

  cache.clear();
  cache.info(info);
  EXPECT_EQ(0u, info.entries);
  EXPECT_EQ(0u, info.bytes);
  EXPECT_TRUE(exists(root_ + "/cache/notes.txt"));
  EXPECT_TRUE(exists(root_ + "/cache/v1/README"));
  EXPECT_TRUE(exists(shard + "/something.agc"));
  EXPECT_TRUE(exists(fresh));
  EXPECT_FALSE(exists(stale));
  // The cache works after a clear.
  cache.store(key_of(50), make_output(10, 1));
  CompileOutput out;
  EXPECT_TRUE(cache.lookup(key_of(50), out));
}

// ---- environment and unusable directories -------------------------------------------------------

TEST_F(CompileCacheTest, EnvironmentChoosesTheDirectory) {
  ScopedEnvironment env;
  env.set("ANYGPU_CACHE", nullptr);
  env.set("ANYGPU_CACHE_MAX_MB", nullptr);
  env.set("ANYGPU_CACHE_DIR", "/somewhere/cache/");
  env.set("XDG_CACHE_HOME", "/xdg");
  env.set("HOME", "/home/user");
  CompileCacheConfig c = CompileCacheConfig::from_environment();
  EXPECT_TRUE(c.enabled);
  EXPECT_EQ("/somewhere/cache", c.directory);
  EXPECT_EQ(1024ull << 20, c.max_bytes);
  env.set("ANYGPU_CACHE_DIR", nullptr);
  EXPECT_EQ("/xdg/anygpu", CompileCacheConfig::from_environment().directory);
  env.set("XDG_CACHE_HOME", "relative");  // ignored, as the XDG spec says
  EXPECT_EQ("/home/user/.cache/anygpu", CompileCacheConfig::from_environment().directory);
  env.set("XDG_CACHE_HOME", nullptr);
  EXPECT_EQ("/home/user/.cache/anygpu", CompileCacheConfig::from_environment().directory);
  env.set("HOME", nullptr);
  c = CompileCacheConfig::from_environment();
  EXPECT_FALSE(c.enabled);
  EXPECT_NE("", c.reason);
  env.set("HOME", "/home/user");
  env.set("ANYGPU_CACHE_MAX_MB", "5");
  EXPECT_EQ(5ull << 20, CompileCacheConfig::from_environment().max_bytes);
  env.set("ANYGPU_CACHE_MAX_MB", "lots");
  EXPECT_EQ(1024ull << 20, CompileCacheConfig::from_environment().max_bytes);
}

TEST_F(CompileCacheTest, DisabledByAnygpuCache0) {
  ScopedEnvironment env;
  env.set("ANYGPU_CACHE", "0");
  env.set("ANYGPU_CACHE_DIR", (root_ + "/cache").c_str());
  CompileCache cache(CompileCacheConfig::from_environment());
  EXPECT_FALSE(cache.enabled());
  EXPECT_EQ("ANYGPU_CACHE=0", cache.reason());
  const std::string key = key_of(60);
  cache.store(key, make_output(100, 1));
  CompileOutput out;
  EXPECT_FALSE(cache.lookup(key, out));
  EXPECT_FALSE(exists(root_ + "/cache")) << "a disabled cache made its directory";
  ag_compile_cache_info info{};
  cache.info(info);
  EXPECT_EQ(0, info.enabled);
  EXPECT_STREQ("ANYGPU_CACHE=0", info.reason);
  EXPECT_STREQ((root_ + "/cache").c_str(), info.directory);
  cache.clear();
}

TEST_F(CompileCacheTest, UnusableDirectoryDisablesWithAReason) {
  // A regular file where a directory should be: refused even to root.
  std::ofstream(root_ + "/file") << "not a directory";
  for (const std::string& directory : {root_ + "/file", root_ + "/file/cache"}) {
    CompileCacheConfig c = config();
    c.directory = directory;
    CompileCache cache(c);
    EXPECT_FALSE(cache.enabled()) << directory;
    EXPECT_NE("", cache.reason()) << directory;
    EXPECT_NE(std::string::npos, cache.reason().find(root_ + "/file")) << cache.reason();
    const std::string key = key_of(70);
    cache.store(key, make_output(100, 1));
    CompileOutput out;
    EXPECT_FALSE(cache.lookup(key, out));
    ag_compile_cache_info info{};
    cache.info(info);
    EXPECT_EQ(0, info.enabled);
    EXPECT_EQ(0u, info.entries);
    EXPECT_STREQ(cache.reason().c_str(), info.reason);
    cache.clear();
  }
}

TEST_F(CompileCacheTest, ReadOnlyDirectoryDisablesWithAReason) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes to any directory";
  ASSERT_EQ(0, mkdir((root_ + "/ro").c_str(), 0500));
  CompileCacheConfig c = config();
  c.directory = root_ + "/ro/cache";
  CompileCache cache(c);
  EXPECT_FALSE(cache.enabled());
  EXPECT_NE(std::string::npos, cache.reason().find("/ro")) << cache.reason();
  chmod((root_ + "/ro").c_str(), 0700);
}

// ---- the C API ----------------------------------------------------------------------------------

TEST_F(CompileCacheTest, ApiChecksTheStructAndReportsTheProcessCache) {
  ScopedEnvironment env;
  env.set("ANYGPU_CACHE", nullptr);
  env.set("ANYGPU_CACHE_DIR", (root_ + "/api").c_str());
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agCompileCacheGetInfo(nullptr));
  ag_compile_cache_info info{};
  info.struct_size = sizeof info - 1;
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agCompileCacheGetInfo(&info));
  info.struct_size = sizeof info;
  ASSERT_EQ(AG_SUCCESS, agCompileCacheGetInfo(&info));
  EXPECT_EQ(sizeof info, info.struct_size);
  CompileCache& cache = CompileCache::instance();
  EXPECT_STREQ(cache.directory().c_str(), info.directory);
  EXPECT_EQ(cache.enabled() ? 1 : 0, info.enabled);
  if (cache.directory() != root_ + "/api") GTEST_SKIP() << "the process cache was made before";
  EXPECT_EQ(1, info.enabled) << info.reason;
  cache.store(key_of(80), make_output(100, 1));
  ASSERT_EQ(AG_SUCCESS, agCompileCacheGetInfo(&info));
  EXPECT_EQ(1u, info.entries);
  ASSERT_EQ(AG_SUCCESS, agCompileCacheClear());
  ASSERT_EQ(AG_SUCCESS, agCompileCacheGetInfo(&info));
  EXPECT_EQ(0u, info.entries);
}

}  // namespace
