// The C++ layer end to end on the CPU device: errors as exceptions, devices, memory, streams,
// events, modules and typed launches with a numeric check.
#include <anygpu/anygpu.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "mixed_params.h"
#include "test_support.h"

namespace {

anygpu::device cpu() {
  return anygpu::device(anygpu_test::cpu_device());
}

anygpu::module test_kernels(const anygpu::device& dev) {
  return anygpu::module(dev, anygpu_image_test_kernels, anygpu_image_test_kernels_size);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

TEST(CppErrorTest, InvalidDeviceCarriesCodeAndDetail) {
  try {
    anygpu::device::get(9999);
    FAIL() << "device::get(9999) did not throw";
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_INVALID_DEVICE, e.code());
    EXPECT_STREQ("AG_ERROR_INVALID_DEVICE", e.name());
    const std::string what = e.what();
    EXPECT_EQ(0u, what.rfind("agDeviceGet: ", 0)) << what;
    EXPECT_TRUE(contains(what, "9999")) << what;
    EXPECT_TRUE(contains(what, "(AG_ERROR_INVALID_DEVICE)")) << what;
    // The detail is the runtime's own, as agGetLastErrorDetail gave it.
    EXPECT_EQ(anygpu_test::last_detail(), e.detail());
  }
}

TEST(CppErrorTest, IsARuntimeError) {
  EXPECT_THROW(anygpu::device::get(-1), std::runtime_error);
}

TEST(CppErrorTest, OutOfMemoryNamesTheCall) {
  const anygpu::device dev = cpu();
  const uint64_t total = dev.properties().total_memory;
  try {
    anygpu::device_memory<unsigned char> huge(dev, static_cast<size_t>(total) + 1);
    FAIL() << "allocating " << total + 1 << " bytes did not throw";
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_OUT_OF_MEMORY, e.code());
    const std::string what = e.what();
    EXPECT_EQ(0u, what.rfind("agMemAlloc: ", 0)) << what;
    EXPECT_TRUE(contains(what, "(AG_ERROR_OUT_OF_MEMORY)")) << what;
  }
}

TEST(CppErrorTest, CheckWithoutDetailDescribesTheCode) {
  EXPECT_NO_THROW(anygpu::check(AG_SUCCESS));
  ASSERT_AG(agClearLastErrorDetail());
  try {
    anygpu::check(AG_ERROR_NOT_READY, "agStreamQuery");
    FAIL() << "check(AG_ERROR_NOT_READY) did not throw";
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_NOT_READY, e.code());
    EXPECT_STREQ("agStreamQuery: work is still pending (AG_ERROR_NOT_READY)", e.what());
  }
}

TEST(CppErrorTest, StaleDetailOfAnotherFailureIsNotReused) {
  EXPECT_THROW(anygpu::device::get(9999), anygpu::error);  // leaves an INVALID_DEVICE detail
  try {
    anygpu::check(AG_ERROR_NOT_FOUND, "agModuleGetFunction");
    FAIL();
  } catch (const anygpu::error& e) {
    EXPECT_STREQ("agModuleGetFunction: the named item was not found (AG_ERROR_NOT_FOUND)",
                 e.what());
  }
}

// ---------------------------------------------------------------------------------------------
// Devices
// ---------------------------------------------------------------------------------------------

TEST(CppDeviceTest, CountGetAndProperties) {
  const int count = anygpu::device::count();
  ASSERT_GE(count, 1);
  const anygpu::device dev = cpu();
  ASSERT_TRUE(dev);
  const ag_device_properties p = dev.properties();
  EXPECT_EQ(AG_BACKEND_CPU, p.backend);
  EXPECT_EQ(AG_BACKEND_CPU, dev.backend());
  EXPECT_EQ(std::string(p.name), dev.name());
  EXPECT_FALSE(dev.name().empty());
  EXPECT_EQ(dev, anygpu::device::get(p.ordinal));
  EXPECT_NE(dev, anygpu::device());
  EXPECT_FALSE(anygpu::device());
  const anygpu::memory_info memory = dev.memory();
  EXPECT_GT(memory.total_bytes, 0u);
  EXPECT_NO_THROW(dev.synchronize());
  EXPECT_THROW(anygpu::device().synchronize(), anygpu::error);
}

// ---------------------------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------------------------

TEST(CppMemoryTest, UploadDownloadCopyAndFill) {
  const anygpu::device dev = cpu();
  const std::vector<int> values{1, 2, 3, 4, 5, 6, 7, 8};
  anygpu::device_memory<int> a(dev, values);
  EXPECT_EQ(values.size(), a.size());
  EXPECT_EQ(values.size() * sizeof(int), a.bytes());
  EXPECT_EQ(dev, a.device());
  EXPECT_EQ(values, a.download());

  anygpu::device_memory<int> b(dev, values.size());
  b.copy_from(a);
  EXPECT_EQ(values, b.download());

  const int part[] = {70, 80};
  b.upload(part, 2, 6);
  int tail[3] = {};
  b.download(tail, 3, 5);
  EXPECT_EQ(6, tail[0]);
  EXPECT_EQ(70, tail[1]);
  EXPECT_EQ(80, tail[2]);

  b.fill_bytes(0);
  EXPECT_EQ(std::vector<int>(values.size(), 0), b.download());
}

// Every pair of devices present (the CPU device with itself where it is alone): copy_from and
// copy_from_async across devices, and peer access as agDeviceCanAccessPeer reports it.
TEST(CppMemoryTest, CopiesBetweenDevicesAndPeerAccess) {
  const std::vector<int> values{3, 1, 4, 1, 5, 9, 2, 6};
  std::vector<anygpu::device> all;
  for (int i = 0; i < anygpu::device::count(); ++i) all.push_back(anygpu::device::get(i));
  for (const anygpu::device& from : all)
    for (const anygpu::device& to : all) {
      SCOPED_TRACE(from.name() + " -> " + to.name());
      anygpu::device_memory<int> a(from, values);
      anygpu::device_memory<int> b(to, values.size());
      b.copy_from(a);
      EXPECT_EQ(values, b.download());
      b.fill_bytes(0);
      anygpu::stream s(to);
      b.copy_from_async(a, s);
      s.synchronize();
      EXPECT_EQ(values, b.download());
      if (from == to || from.backend() != to.backend()) {
        EXPECT_FALSE(from.can_access_peer(to));
        EXPECT_THROW(from.enable_peer_access(to), anygpu::error);
      } else if (from.can_access_peer(to)) {
        from.enable_peer_access(to);
        from.disable_peer_access(to);
      }
    }
}

TEST(CppMemoryTest, RangesOutsideTheAllocationAreRejected) {
  const anygpu::device dev = cpu();
  anygpu::device_memory<float> m(dev, 4);
  const std::vector<float> five(5, 1.0f);
  try {
    m.upload(five);
    FAIL() << "uploading 5 elements into 4 did not throw";
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, e.code());
    EXPECT_TRUE(contains(e.what(), "device_memory::upload: 5 elements at offset 0 do not fit in 4"))
        << e.what();
  }
  float out[2];
  EXPECT_THROW(m.download(out, 2, 3), anygpu::error);
  anygpu::device_memory<float> big(dev, 8);
  EXPECT_THROW(big.copy_from(anygpu::device_memory<float>(dev, 9)), anygpu::error);
  // Counts whose byte size overflows are caught before agMemAlloc.
  try {
    anygpu::device_memory<double> overflow(dev, SIZE_MAX / 4);
    FAIL();
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, e.code());
    EXPECT_TRUE(contains(e.what(), "overflow")) << e.what();
  }
}

TEST(CppMemoryTest, ZeroElementsAllocateNothing) {
  const anygpu::device dev = cpu();
  anygpu::device_memory<float> m(dev, 0);
  EXPECT_FALSE(m);
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(0u, m.size());
  EXPECT_TRUE(m.download().empty());
  EXPECT_NO_THROW(m.upload(std::vector<float>{}));
  anygpu::pinned_memory<float> p(dev, 0);
  EXPECT_FALSE(p);
}

TEST(CppMemoryTest, PinnedMemoryIsHostMemoryForAsyncCopies) {
  const anygpu::device dev = cpu();
  anygpu::stream s(dev);
  anygpu::pinned_memory<double> in(dev, 16), out(dev, 16);
  ASSERT_TRUE(in);
  EXPECT_EQ(16u, in.size());
  EXPECT_EQ(16 * sizeof(double), in.bytes());
  for (size_t i = 0; i < in.size(); ++i) in[i] = 0.5 * static_cast<double>(i);
  for (double& v : out) v = -1.0;
  anygpu::device_memory<double> d(dev, 16);
  d.fill_bytes_async(0, s);
  d.upload_async(in.data(), 16, s);
  d.download_async(out.data(), 16, s);
  s.synchronize();
  EXPECT_TRUE(s.query());
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(0.5 * static_cast<double>(i), out[i]) << i;
}

// ---------------------------------------------------------------------------------------------
// Modules
// ---------------------------------------------------------------------------------------------

TEST(CppModuleTest, FunctionsAndTheirLayout) {
  const anygpu::device dev = cpu();
  anygpu::module m = test_kernels(dev);
  ASSERT_TRUE(m);
  const anygpu::function saxpy = m.function("saxpy");
  ASSERT_TRUE(saxpy);
  EXPECT_EQ("saxpy", saxpy.name());
  ASSERT_EQ(4, saxpy.param_count());
  const size_t sizes[] = {sizeof(int), sizeof(float), sizeof(float*), sizeof(float*)};
  const ag_param_kind kinds[] = {AG_PARAM_INTEGER, AG_PARAM_FLOAT, AG_PARAM_POINTER,
                                 AG_PARAM_POINTER};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(sizes[i], saxpy.params()[i].size) << i;
    EXPECT_EQ(kinds[i], saxpy.params()[i].kind) << i;
  }
  try {
    m.function("no_such_kernel");
    FAIL();
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_NOT_FOUND, e.code());
    EXPECT_TRUE(contains(e.what(), "no_such_kernel")) << e.what();
  }
}

// A module variable's address and size, written and read back with the C copies.
TEST(CppModuleTest, GlobalsAndAMissingOne) {
  const anygpu::device dev = cpu();
  anygpu::module m = test_kernels(dev);
  const anygpu::module::global_variable counter = m.global("globals_counter");
  ASSERT_NE(nullptr, counter.address);
  EXPECT_EQ(sizeof(unsigned), counter.bytes);
  EXPECT_EQ(4 * sizeof(float), m.global("globals_coefficients").bytes);
  const unsigned written = 42;
  unsigned read = 0;
  anygpu::check(agMemcpyHtoD(dev.handle(), counter.address, &written, sizeof written));
  anygpu::check(agMemcpyDtoH(dev.handle(), &read, counter.address, sizeof read));
  EXPECT_EQ(written, read);
  try {
    m.global("no_such_global");
    FAIL();
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_NOT_FOUND, e.code());
    EXPECT_EQ(0u, std::string(e.what()).rfind("agModuleGetGlobal: ", 0)) << e.what();
    EXPECT_TRUE(contains(e.what(), "no_such_global")) << e.what();
  }
}

TEST(CppModuleTest, FromFileAndMissingFile) {
  const anygpu::device dev = cpu();
  anygpu::module m = anygpu::module::from_file(dev, ANYGPU_TEST_KERNELS_PATH);
  EXPECT_TRUE(m.function("vector_add"));
  try {
    anygpu::module::from_file(dev, "/nonexistent/anygpu/kernels.so");
    FAIL();
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_FILE_NOT_FOUND, e.code());
    EXPECT_EQ(0u, std::string(e.what()).rfind("agModuleLoad: ", 0)) << e.what();
  }
  const unsigned char garbage[64] = {1, 2, 3};
  EXPECT_THROW(anygpu::module(dev, garbage, sizeof garbage), anygpu::error);
}

// ---------------------------------------------------------------------------------------------
// Launch
// ---------------------------------------------------------------------------------------------

TEST(CppLaunchTest, SaxpyEndToEnd) {
  const anygpu::device dev = cpu();
  const anygpu::module m = test_kernels(dev);
  const anygpu::function saxpy = m.function("saxpy");
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = static_cast<float>(2 * i + 1);
  }
  anygpu::device_memory<float> dx(dev, x), dy(dev, y);
  const float a = 3.0f;
  anygpu::launch(saxpy, (n + 255) / 256, 256, n, a, dx, dy);
  const std::vector<float> result = dy.download();
  for (int i = 0; i < n; ++i) ASSERT_EQ(a * x[i] + y[i], result[i]) << i;
}

TEST(CppLaunchTest, SaxpyOnAStreamTimedWithEvents) {
  const anygpu::device dev = cpu();
  const anygpu::module m = test_kernels(dev);
  const anygpu::function saxpy = m.function("saxpy");
  const unsigned n = 4096;
  anygpu::stream s(dev);
  anygpu::event start(dev), stop(dev);
  anygpu::pinned_memory<float> host(dev, n);
  for (unsigned i = 0; i < n; ++i) host[i] = 1.0f;
  anygpu::device_memory<float> dx(dev, n), dy(dev, n);
  dx.upload_async(host.data(), n, s);
  dy.upload_async(host.data(), n, s);
  start.record(s);
  // A plain pointer, a const pointer and a device_memory all pass as pointers.
  const float* x = dx.get();
  anygpu::launch(saxpy, anygpu::launch_config(n / 128, 128, 0, s), static_cast<int>(n), 0.5f, x,
                 dy);
  stop.record(s);
  dy.download_async(host.data(), n, s);
  stop.synchronize();
  EXPECT_TRUE(stop.query());
  s.synchronize();
  EXPECT_GE(anygpu::elapsed_ms(start, stop), 0.0f);
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(1.5f, host[i]) << i;
}

TEST(CppLaunchTest, StreamWaitsForAnEventOfAnotherStream) {
  const anygpu::device dev = cpu();
  const anygpu::module m = test_kernels(dev);
  const anygpu::function saxpy = m.function("saxpy");
  const int n = 256;
  anygpu::stream first(dev), second(dev);
  anygpu::event done(dev);
  anygpu::device_memory<float> dx(dev, std::vector<float>(n, 2.0f));
  anygpu::device_memory<float> dy(dev, std::vector<float>(n, 1.0f));
  anygpu::launch(saxpy, {1, n, first}, n, 1.0f, dx, dy);  // y = 3
  done.record(first);
  second.wait(done);
  anygpu::launch(saxpy, {1, n, 0, second}, n, 2.0f, dx, dy);  // y = 7
  second.synchronize();
  first.synchronize();
  EXPECT_EQ(std::vector<float>(n, 7.0f), dy.download());
}

// The host function reads what the kernel wrote, and the copy queued after it sees its change.
TEST(CppLaunchTest, HostFunctionBetweenAKernelAndACopy) {
  const anygpu::device dev = cpu();
  const anygpu::module m = test_kernels(dev);
  const int n = 512;
  anygpu::stream s(dev);
  anygpu::pinned_memory<float> host(dev, n);
  anygpu::device_memory<float> dx(dev, std::vector<float>(n, 2.0f));
  anygpu::device_memory<float> dy(dev, std::vector<float>(n, 1.0f));
  anygpu::launch(m.function("saxpy"), {1, n, 0, s}, n, 1.0f, dx, dy);  // y = 3
  dy.download_async(host.data(), n, s);
  s.launch_host_func([](void* data) { static_cast<float*>(data)[7] *= 10.0f; }, host.data());
  dy.upload_async(host.data(), n, s);
  s.synchronize();
  std::vector<float> expected(n, 3.0f);
  expected[7] = 30.0f;
  EXPECT_EQ(expected, dy.download());
  EXPECT_THROW(s.launch_host_func(nullptr, nullptr), anygpu::error);
}

// The occupancy answer launches; the opt-in moves the limit the attributes report.
TEST(CppLaunchTest, FunctionAttributesAndOccupancy) {
  const anygpu::device dev = cpu();
  const anygpu::module m = test_kernels(dev);
  const anygpu::function saxpy = m.function("saxpy");
  const anygpu::function::potential_block_size best = saxpy.max_potential_block_size();
  ASSERT_GE(best.block_size, 1);
  EXPECT_EQ(
      dev.properties().compute_units * saxpy.max_active_blocks_per_multiprocessor(best.block_size),
      best.min_grid_size);
  const int n = 10000;
  anygpu::device_memory<float> dx(dev, std::vector<float>(n, 2.0f));
  anygpu::device_memory<float> dy(dev, std::vector<float>(n, 1.0f));
  const unsigned block = static_cast<unsigned>(best.block_size);
  anygpu::launch(saxpy, {(n + block - 1) / block, block}, n, 1.0f, dx, dy);
  EXPECT_EQ(std::vector<float>(n, 3.0f), dy.download());

  saxpy.set_max_dynamic_shared(100 * 1024);
  EXPECT_EQ(100u * 1024, saxpy.attributes().max_dynamic_shared_bytes);
  EXPECT_THROW(saxpy.set_max_dynamic_shared(SIZE_MAX), anygpu::error);
  EXPECT_THROW(saxpy.max_active_blocks_per_multiprocessor(0), anygpu::error);
}

// On the CPU device every priority is clamped to its only one, 0; the stream works as any other.
TEST(CppLaunchTest, StreamWithAPriority) {
  const anygpu::device dev = cpu();
  anygpu::stream urgent = anygpu::stream::with_priority(dev, -3);
  EXPECT_EQ(0, urgent.priority());
  anygpu::device_memory<int> counts(dev, std::vector<int>(8, 0));
  counts.fill_bytes_async(1, urgent);
  urgent.synchronize();
  EXPECT_EQ(std::vector<int>(8, 0x01010101), counts.download());
}

// managed_memory: the host writes it, a kernel updates it in place, the host reads it; the hints
// take it whole; moving it moves the ownership.
TEST(CppLaunchTest, ManagedMemorySharedByHostAndKernel) {
  const anygpu::device dev = cpu();
  const anygpu::module m = test_kernels(dev);
  const int n = 1000;
  anygpu::managed_memory<float> x(dev, n), y(dev, n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  anygpu::stream s(dev);
  x.prefetch(s);
  y.advise(AG_MEM_ADVISE_SET_PREFERRED_LOCATION);
  anygpu::launch(m.function("saxpy"), {(n + 255) / 256, 256, 0, s}, n, 2.0f, x.get(), y.get());
  y.prefetch(s, /*to_host=*/true);
  s.synchronize();
  for (int i = 0; i < n; ++i) ASSERT_EQ(2.0f * i + 1.0f, y[i]) << "element " << i;
  anygpu::managed_memory<float> moved = std::move(y);
  EXPECT_EQ(static_cast<size_t>(n), moved.size());
  EXPECT_TRUE(y.empty());
  EXPECT_THROW(x.advise(static_cast<ag_mem_advice>(0)), anygpu::error);
}

// The CPU device has no native objects: the C++ calls throw AG_ERROR_NOT_SUPPORTED.
TEST(CppLaunchTest, NativeHandlesAreRefusedOnTheCpu) {
  const anygpu::device dev = cpu();
  anygpu::stream s(dev);
  try {
    s.native_handle();
    ADD_FAILURE() << "no exception";
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_NOT_SUPPORTED, e.code());
  }
  EXPECT_THROW(dev.native_handle(), anygpu::error);
  int not_a_stream = 0;
  EXPECT_THROW(anygpu::stream::from_native(dev, &not_a_stream), anygpu::error);
}

TEST(CppLaunchTest, DynamicSharedMemory) {
  const anygpu::device dev = cpu();
  const anygpu::module m = test_kernels(dev);
  const anygpu::function reverse = m.function("reverse_blocks");
  const unsigned block = 64;
  const int n = 200;  // the last block is partial
  std::vector<float> data(n);
  for (int i = 0; i < n; ++i) data[i] = static_cast<float>(i);
  anygpu::device_memory<float> d(dev, data);
  anygpu::stream s(dev);
  const anygpu::launch_config config((n + block - 1) / block, block,
                                     static_cast<unsigned>(block * sizeof(float)), s);
  anygpu::launch(reverse, config, n, d);
  s.synchronize();
  const std::vector<float> result = d.download();
  for (int i = 0; i < n; ++i) {
    const int base = i / static_cast<int>(block) * static_cast<int>(block);
    const int count = std::min(static_cast<int>(block), n - base);
    ASSERT_EQ(static_cast<float>(base + count - 1 - (i - base)), result[i]) << i;
  }
}

TEST(CppLaunchTest, MixedParamsWithEveryKindOfArgument) {
  const anygpu::device dev = cpu();
  const anygpu::module m = test_kernels(dev);
  const anygpu::function mixed = m.function("mixed_params");
  ASSERT_EQ(8, mixed.param_count());
  anygpu::device_memory<double> out(dev, 8);
  out.fill_bytes(0);
  const char c = -7;
  const short s = -30000;
  const int i = 123456789;
  const int64_t l = -1234567890123LL;
  const float f = 2.5f;
  const double d = -6.25;
  const ag_pair16 pair{INT64_C(987654321), 0.125};
  anygpu::launch(mixed, 1, 1, c, s, i, l, f, d, out, pair);
  const std::vector<double> result = out.download();
  EXPECT_EQ(-7.0, result[0]);
  EXPECT_EQ(-30000.0, result[1]);
  EXPECT_EQ(123456789.0, result[2]);
  EXPECT_EQ(-1234567890123.0, result[3]);
  EXPECT_EQ(2.5, result[4]);
  EXPECT_EQ(-6.25, result[5]);
  EXPECT_EQ(987654321.0, result[6]);
  EXPECT_EQ(0.125, result[7]);

  // Temporaries and literals of the exact types work too.
  anygpu::launch(mixed, 1, 1, 'x', short{2}, 3, int64_t{4}, 5.0f, 6.0, out.get(),
                 ag_pair16{7, 8.0});
  EXPECT_EQ((std::vector<double>{'x', 2, 3, 4, 5, 6, 7, 8}), out.download());
}

TEST(CppLaunchTest, CKernelThroughLibffi) {
  const anygpu::device dev = cpu();
  const anygpu::module m = test_kernels(dev);
  const anygpu::function scale = m.function("c_scale");
  ASSERT_EQ(3, scale.param_count());
  anygpu::device_memory<float> x(dev, std::vector<float>{1, 2, 3, 4});
  anygpu::launch(scale, 1, 4, 4, 2.0f, x);
  EXPECT_EQ((std::vector<float>{2, 4, 6, 8}), x.download());
  EXPECT_THROW(anygpu::launch(scale, 1, 4, 4, 2.0, x), anygpu::error);
  EXPECT_EQ((std::vector<float>{2, 4, 6, 8}), x.download());
}

TEST(CppLaunchTest, FailuresOfTheLaunchItselfAreErrors) {
  const anygpu::device dev = cpu();
  const anygpu::module m = test_kernels(dev);
  const anygpu::function saxpy = m.function("saxpy");
  anygpu::device_memory<float> x(dev, 4), y(dev, 4);
  try {
    anygpu::launch(saxpy, 0, 4, 4, 1.0f, x, y);
    FAIL();
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_INVALID_CONFIGURATION, e.code());
    EXPECT_EQ(0u, std::string(e.what()).rfind("agLaunchKernel: ", 0)) << e.what();
  }
  try {
    anygpu::launch(anygpu::function(), 1, 1);
    FAIL();
  } catch (const anygpu::error& e) {
    EXPECT_EQ(AG_ERROR_INVALID_HANDLE, e.code());
  }
}

}  // namespace
