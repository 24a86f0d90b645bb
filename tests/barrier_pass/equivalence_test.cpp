// Every C++ kernel in kernels/ run through the barrier pass's loops and through fibers gives the
// same bytes, for blocks of 1, 7, 32, 64, 256 and 1024 threads in 1-D, 2-D and 3-D shapes (those
// the kernel's contract allows; 32 x 8 is the transpose samples' block). The test image is loaded
// twice on the CPU device, once with ANYGPU_CPU_WORKITEM_LOOPS=0.
#include <dlfcn.h>

#include <anygpu/kernel_host_abi.h>
#include <anygpu/vector_types.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>

#include "cuda_atomics.h"
#include "dialect_math.h"
#include "mixed_params.h"
#include "test_support.h"
#include "tests/cuda_sources/math_function_list.h"

using namespace anygpu_test;

namespace {

using Bytes = std::vector<unsigned char>;
struct Shape {
  unsigned x, y, z;
};

const Shape kShapes[] = {
    {1, 1, 1}, {7, 1, 1}, {32, 1, 1}, {64, 1, 1},  {256, 1, 1}, {1024, 1, 1},  // 1-D
    {1, 7, 1}, {8, 4, 1}, {8, 8, 1},  {16, 16, 1}, {32, 32, 1}, {32, 8, 1},    // 2-D
    {1, 1, 7}, {4, 4, 2}, {4, 4, 4},  {8, 8, 4},   {16, 8, 8}};                // 3-D

std::string shape_name(const Shape& s) {
  return std::to_string(s.x) + "x" + std::to_string(s.y) + "x" + std::to_string(s.z);
}

template <typename T>
Bytes bytes_of(const DeviceBuffer<T>& buffer) {
  const std::vector<T> values = buffer.download();
  const auto* begin = reinterpret_cast<const unsigned char*>(values.data());
  return Bytes(begin, begin + values.size() * sizeof(T));
}

void launch(ag_function f, Shape grid, Shape block, void** params, unsigned shared = 0) {
  ASSERT_EQ(AG_SUCCESS, agLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared,
                                       nullptr, params, nullptr))
      << last_detail();
  ASSERT_EQ(AG_SUCCESS, agDeviceSynchronize(cpu_device())) << last_detail();
}

unsigned blocks_for(unsigned n, unsigned block) {
  return (n + block - 1) / block;
}

std::vector<float> ramp(size_t n, int period) {
  std::vector<float> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = 0.25f * static_cast<float>(i % period) - 3.0f;
  return values;
}

// black_scholes.cu's kernel in float or double.
template <typename T>
std::vector<Bytes> black_scholes(ag_device d, ag_function f, const Shape& b) {
  int options = 1001;
  T riskfree = static_cast<T>(0.02), volatility = static_cast<T>(0.3);
  std::vector<T> price(options), strike(options), years(options);
  for (int i = 0; i < options; ++i) {
    price[i] = static_cast<T>(5.0 + 0.025 * i);
    strike[i] = static_cast<T>(1.0 + 0.099 * ((i * 37) % options));
    years[i] = static_cast<T>(0.25 + 0.0097 * ((i * 53) % options));
  }
  DeviceBuffer<T> call(d, options), put(d, options), dp(d, price), ds(d, strike), dy(d, years);
  void* p[] = {call.param(), put.param(), dp.param(),  ds.param(),
               dy.param(),   &riskfree,   &volatility, &options};
  launch(f, {3, 1, 1}, b, p);
  return std::vector<Bytes>{bytes_of(call), bytes_of(put)};
}

// One kernel: which block shapes its contract allows, and a run that returns its outputs.
struct Case {
  const char* kernel;
  std::function<bool(const Shape&)> fits;
  std::function<std::vector<Bytes>(ag_device, ag_function, const Shape&)> run;
};

bool any_shape(const Shape&) {
  return true;
}

bool one_d(const Shape& s) {
  return s.y == 1 && s.z == 1;
}

bool one_d_power_of_two(const Shape& s) {
  return one_d(s) && (s.x & (s.x - 1)) == 0;
}

// A kernel written for exactly one block shape.
std::function<bool(const Shape&)> exactly(unsigned x, unsigned y) {
  return [x, y](const Shape& s) { return s.x == x && s.y == y && s.z == 1; };
}

void add_ported_kernel_cases(std::vector<Case>& all);
void add_grid_stride_cases(std::vector<Case>& all);

std::vector<Case> cases() {
  std::vector<Case> all;
  all.push_back({"saxpy", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 5003;
                   float a = 1.5f;
                   DeviceBuffer<float> x(d, ramp(n, 97)), y(d, ramp(n, 13));
                   void* p[] = {&n, &a, x.param(), y.param()};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(y)};
                 }});
  all.push_back({"vector_add", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 3001;
                   DeviceBuffer<float> x(d, ramp(n, 31)), y(d, ramp(n, 7)), c(d, n);
                   void* p[] = {&n, x.param(), y.param(), c.param()};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(c)};
                 }});
  all.push_back({"block_reduce", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 4099;
                   const unsigned grid = blocks_for(n, b.x);
                   DeviceBuffer<float> in(d, ramp(n, 11)), out(d, grid);
                   void* p[] = {&n, in.param(), out.param()};
                   launch(f, {grid, 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back({"block_reverse3d", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   const Shape grid{3, 2, 2};
                   const size_t n = 12u * b.x * b.y * b.z;
                   std::vector<int> values(n);
                   for (size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i * 7 + 1);
                   DeviceBuffer<int> data(d, values);
                   void* p[] = {data.param()};
                   launch(f, grid, b, p);
                   return std::vector<Bytes>{bytes_of(data)};
                 }});
  all.push_back({"dialect_atomics", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   std::vector<int> start(5, 0);
                   start[4] = 41;
                   DeviceBuffer<int> ints(d, start);
                   DeviceBuffer<unsigned> uints(d, std::vector<unsigned>(4, 0));
                   DeviceBuffer<uint64_t> wide(d, std::vector<uint64_t>(1, 0));
                   DeviceBuffer<float> floats(d, std::vector<float>(1, 0));
                   DeviceBuffer<double> doubles(d, std::vector<double>(1, 0));
                   void* p[] = {ints.param(), uints.param(), wide.param(), floats.param(),
                                doubles.param()};
                   launch(f, {3, 1, 1}, b, p);
                   // uints[2]: which thread's compare-and-swap won, a race between blocks.
                   std::vector<unsigned> u = uints.download();
                   EXPECT_NE(0u, u[2]);
                   u[2] = 0;
                   const auto* raw = reinterpret_cast<const unsigned char*>(u.data());
                   return std::vector<Bytes>{bytes_of(ints), Bytes(raw, raw + 16), bytes_of(wide),
                                             bytes_of(floats), bytes_of(doubles)};
                 }});
  all.push_back(
      {"cuda_atomics_every_form", any_shape, [](ag_device d, ag_function f, const Shape& b) {
         const ag_atomic_slots initial = AG_ATOMIC_SLOTS_INITIAL;
         DeviceBuffer<ag_atomic_slots> slots(d, std::vector<ag_atomic_slots>{initial});
         DeviceBuffer<ag_test_ull> olds(d, (size_t)ag_atomic_step_count);
         void* p[] = {slots.param(), olds.param()};
         launch(f, {2, 1, 1}, b, p);
         return std::vector<Bytes>{bytes_of(slots), bytes_of(olds)};
       }});
  all.push_back({"cuda_atomics_contended", [](const Shape& s) { return s.y == 1 && s.z == 1; },
                 [](ag_device d, ag_function f, const Shape& b) {
                   const unsigned grid = 3, n = grid * b.x;
                   DeviceBuffer<int> ints(d, std::vector<int>{0, 0, 0, -1, 0, 0, 0, 0});
                   DeviceBuffer<unsigned> uints(
                       d, std::vector<unsigned>{0, 0, ~0u, 0, 0, 0, ~0u, 0, 0, 0});
                   DeviceBuffer<ag_test_ull> ulls(
                       d, std::vector<ag_test_ull>{0, 0, ~0ull, 0, ~0ull, 0, 0, 0, 0});
                   DeviceBuffer<ag_test_ll> lls(d, std::vector<ag_test_ll>{0, -(1ll << 62), 0});
                   DeviceBuffer<float> floats(d, std::vector<float>{0.0f, -1.0f});
                   DeviceBuffer<double> doubles(d, std::vector<double>{0.0});
                   DeviceBuffer<unsigned short> shorts(d, std::vector<unsigned short>{0, 0});
                   DeviceBuffer<unsigned> returned(d, std::vector<unsigned>(4 * n, 0));
                   DeviceBuffer<unsigned> blocks(d, std::vector<unsigned>(8 * grid, 0));
                   void* p[] = {ints.param(),   uints.param(),    ulls.param(),
                                lls.param(),    floats.param(),   doubles.param(),
                                shorts.param(), returned.param(), blocks.param()};
                   launch(f, {grid, 1, 1}, b, p);
                   // Which thread exchanged last is a race between blocks: left out.
                   std::vector<int> i = ints.download();
                   std::vector<unsigned> u = uints.download();
                   std::vector<ag_test_ull> w = ulls.download();
                   i[6] = 0;
                   u[9] = 0;
                   w[7] = 0;
                   const auto raw = [](const auto& v) {
                     const auto* begin = reinterpret_cast<const unsigned char*>(v.data());
                     return Bytes(begin, begin + v.size() * sizeof(v[0]));
                   };
                   return std::vector<Bytes>{raw(i),
                                             raw(u),
                                             raw(w),
                                             bytes_of(lls),
                                             raw(std::vector<float>{floats.download()[0]}),
                                             bytes_of(doubles),
                                             bytes_of(shorts),
                                             bytes_of(blocks)};
                 }});
  all.push_back({"dialect_math", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 777;
                   std::vector<float> in(n);
                   for (int i = 0; i < n; ++i) in[i] = 0.01f + 7.9f * i / n;
                   DeviceBuffer<float> x(d, in);
                   DeviceBuffer<float> fo(d, (size_t)n * ag_dialect_math_float_count);
                   DeviceBuffer<double> dout(d, (size_t)n * ag_dialect_math_double_count);
                   void* p[] = {&n, x.param(), fo.param(), dout.param()};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(fo), bytes_of(dout)};
                 }});
  all.push_back({"empty", any_shape, [](ag_device, ag_function f, const Shape& b) {
                   launch(f, {5, 1, 1}, b, nullptr);
                   return std::vector<Bytes>{};
                 }});
  all.push_back(
      {"helper_barrier_reverse", any_shape, [](ag_device d, ag_function f, const Shape& b) {
         const unsigned grid = 5;
         std::vector<int> values(grid * b.x);
         for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i);
         DeviceBuffer<int> data(d, values);
         void* p[] = {data.param()};
         launch(f, {grid, 1, 1}, b, p);
         return std::vector<Bytes>{bytes_of(data)};
       }});
  all.push_back({"helper_index", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 2000;
                   DeviceBuffer<int> out(d, std::vector<int>(n, -1));
                   void* p[] = {&n, out.param()};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back({"histogram", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 3333;
                   unsigned bins = 17;
                   std::vector<unsigned> values(n);
                   for (int i = 0; i < n; ++i) values[i] = (unsigned)(i * 2654435761u);
                   DeviceBuffer<unsigned> in(d, values), out(d, std::vector<unsigned>(bins, 0));
                   void* p[] = {&n, in.param(), &bins, out.param()};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back({"shared_histogram", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 5000;
                   unsigned bins = 37, grid = 5;
                   std::vector<unsigned> values(n);
                   for (int i = 0; i < n; ++i) values[i] = (unsigned)(i * 2654435761u) >> 8;
                   DeviceBuffer<unsigned> in(d, values);
                   DeviceBuffer<unsigned> counts(d, std::vector<unsigned>(grid * bins, 7));
                   DeviceBuffer<unsigned> largest(d, std::vector<unsigned>(grid, 7));
                   void* p[] = {&n, in.param(), &bins, counts.param(), largest.param()};
                   launch(f, {grid, 1, 1}, b, p);
                   // Not only equal to the fiber run: right, since either way could lose a count.
                   std::vector<unsigned> total(bins, 0), got_total(bins, 0);
                   for (unsigned v : values) ++total[v % bins];
                   const std::vector<unsigned> got = counts.download();
                   for (unsigned block = 0; block < grid; ++block)
                     for (unsigned bin = 0; bin < bins; ++bin)
                       got_total[bin] += got[block * bins + bin];
                   EXPECT_EQ(total, got_total) << "block shape " << shape_name(b);
                   return std::vector<Bytes>{bytes_of(counts), bytes_of(largest)};
                 }});
  all.push_back({"shared_atomic_kinds", [](const Shape& s) { return s.y == 1 && s.z == 1; },
                 [](ag_device d, ag_function f, const Shape& b) {
                   const unsigned grid = 3;
                   DeviceBuffer<unsigned> out(d, std::vector<unsigned>(11 * grid, 7));
                   DeviceBuffer<float> sums(d, std::vector<float>(grid, 7.0f));
                   void* p[] = {out.param(), sums.param()};
                   launch(f, {grid, 1, 1}, b, p);
                   // Not only equal to the fiber run: right.
                   const std::vector<unsigned> got = out.download();
                   unsigned sum = 0;
                   for (unsigned t = 0; t < b.x; ++t) sum += t % 3u;
                   EXPECT_EQ(sum, got[0]) << "block shape " << shape_name(b);
                   EXPECT_EQ(0u - b.x, got[1]) << "block shape " << shape_name(b);
                   EXPECT_EQ(b.x - 1, got[3]) << "block shape " << shape_name(b);
                   EXPECT_EQ(static_cast<float>(b.x), sums.download()[0]);
                   return std::vector<Bytes>{bytes_of(out), bytes_of(sums)};
                 }});
  all.push_back({"index3d", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int nx = 19, ny = 11, nz = 9;
                   DeviceBuffer<int> out(d, std::vector<int>(nx * ny * nz, -1));
                   void* p[] = {&nx, &ny, &nz, out.param()};
                   launch(f, {blocks_for(nx, b.x), blocks_for(ny, b.y), blocks_for(nz, b.z)}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back({"mixed_params", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   char c = -3;
                   short s = 1234;
                   int i = -56789;
                   int64_t l = 1ll << 40;
                   float x = 2.5f;
                   double y = -0.125;
                   ag_pair16 pair{-7, 3.75};
                   DeviceBuffer<double> out(d, std::vector<double>(8, 0));
                   void* p[] = {&c, &s, &i, &l, &x, &y, out.param(), &pair};
                   launch(f, {2, 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back({"vector_params", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 1501;
                   const float4 scale = make_float4(2.0f, -0.5f, 4.0f, 0.25f);
                   const int2 offset = make_int2(3, -7);
                   DeviceBuffer<float> in(d, ramp(4 * n, 29)), out(d, 4 * n);
                   DeviceBuffer<double> sums(d, 2 * n);
                   void* p[] = {const_cast<float4*>(&scale),
                                const_cast<int2*>(&offset),
                                in.param(),
                                out.param(),
                                sums.param(),
                                &n};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out), bytes_of(sums)};
                 }});
  all.push_back({"reverse_blocks", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 2500;
                   DeviceBuffer<float> data(d, ramp(n, 1000));
                   void* p[] = {&n, data.param()};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p, b.x * sizeof(float));
                   return std::vector<Bytes>{bytes_of(data)};
                 }});
  all.push_back({"sgemm_tiled", [](const Shape& s) { return s.x == 16 && s.y == 16 && s.z == 1; },
                 [](ag_device d, ag_function f, const Shape& b) {
                   int m = 37, n = 45, k = 50;
                   DeviceBuffer<float> a(d, ramp(m * k, 9)), bm(d, ramp(k * n, 5)), c(d, m * n);
                   void* p[] = {&m, &n, &k, a.param(), bm.param(), c.param()};
                   launch(f, {blocks_for(n, 16), blocks_for(m, 16), 1}, b, p);
                   return std::vector<Bytes>{bytes_of(c)};
                 }});
  all.push_back({"smooth_steps", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 3000;
                   const unsigned grid = blocks_for(n, b.x);
                   std::vector<int> steps(grid);
                   for (unsigned i = 0; i < grid; ++i) steps[i] = static_cast<int>(i % 5);
                   DeviceBuffer<int> counts(d, steps);
                   DeviceBuffer<float> data(d, ramp(n, 23));
                   void* p[] = {&n, counts.param(), data.param()};
                   launch(f, {grid, 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(data)};
                 }});
  all.push_back({"transpose_shared",
                 [](const Shape& s) { return s.x == 32 && 32 % s.y == 0 && s.z == 1; },
                 [](ag_device d, ag_function f, const Shape& b) {
                   int rows = 70, cols = 45;
                   DeviceBuffer<float> in(d, ramp(rows * cols, 1 << 20)), out(d, rows * cols);
                   void* p[] = {&rows, &cols, in.param(), out.param()};
                   launch(f, {blocks_for(cols, 32), blocks_for(rows, 32), 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back({"globals_polynomial", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   // The variables are the image's: any module loaded from it reaches them.
                   ag_module m = nullptr;
                   EXPECT_EQ(AG_SUCCESS, agModuleLoadData(d, anygpu_image_test_kernels,
                                                          anygpu_image_test_kernels_size, &m));
                   const float c[4] = {1.0f, -0.5f, 0.25f, 2.0f}, offset = 1.5f, scale = 3.0f;
                   const unsigned zero = 0;
                   const std::pair<const char*, std::pair<const void*, size_t>> writes[] = {
                       {"globals_coefficients", {c, sizeof c}},
                       {"globals_offset", {&offset, sizeof offset}},
                       {"_ZN10globals_ns5scaleE", {&scale, sizeof scale}},
                       {"globals_counter", {&zero, sizeof zero}}};
                   void* counter = nullptr;
                   for (const auto& [name, value] : writes) {
                     void* address = nullptr;
                     EXPECT_EQ(AG_SUCCESS, agModuleGetGlobal(m, name, &address, nullptr))
                         << last_detail();
                     EXPECT_EQ(AG_SUCCESS, agMemcpyHtoD(d, address, value.first, value.second));
                     counter = address;  // the last one
                   }
                   int n = 2011;
                   DeviceBuffer<float> x(d, ramp(n, 17)), y(d, n);
                   void* p[] = {&n, x.param(), y.param()};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   Bytes count(sizeof(unsigned));
                   EXPECT_EQ(AG_SUCCESS, agMemcpyDtoH(d, count.data(), counter, count.size()));
                   EXPECT_EQ(AG_SUCCESS, agModuleUnload(m));
                   return std::vector<Bytes>{bytes_of(y), count};
                 }});
  all.push_back({"wait_flag", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   DeviceBuffer<int> flag(d, std::vector<int>(1, 1)), done(d, 1);
                   void* p[] = {flag.param(), done.param()};
                   launch(f, {2, 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(done)};
                 }});
  // The CUDA sources' kernels (tests/cuda_sources), by their mangled names.
  all.push_back({"_Z5saxpyifPKfPf", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 3001;
                   float a = -2.5f;
                   DeviceBuffer<float> x(d, ramp(n, 31)), y(d, ramp(n, 7));
                   void* p[] = {&n, &a, x.param(), y.param()};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(y)};
                 }});
  for (unsigned block : {64u, 256u}) {
    all.push_back({block == 64 ? "_Z10block_sumsILj64EEvPKfPfj" : "_Z10block_sumsILj256EEvPKfPfj",
                   [block](const Shape& s) { return s.x == block && s.y == 1 && s.z == 1; },
                   [block](ag_device d, ag_function f, const Shape& b) {
                     unsigned n = 5 * block + 3;
                     DeviceBuffer<float> in(d, ramp(n, 19)), out(d, blocks_for(n, block));
                     void* p[] = {in.param(), out.param(), &n};
                     launch(f, {blocks_for(n, block), 1, 1}, b, p, block * sizeof(float));
                     return std::vector<Bytes>{bytes_of(out)};
                   }});
  }
  all.push_back({"_Z18reverse_blocks_128PKfPf",
                 [](const Shape& s) { return s.x <= 128 && s.y == 1 && s.z == 1; },
                 [](ag_device d, ag_function f, const Shape& b) {
                   const unsigned n = 6 * b.x;
                   DeviceBuffer<float> in(d, ramp(n, 23)), out(d, n);
                   void* p[] = {in.param(), out.param()};
                   launch(f, {6, 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back({"_ZN12cuda_sources13scale_clampedIfEEvPT_iS1_", any_shape,
                 [](ag_device d, ag_function f, const Shape& b) {
                   int n = 999;
                   float factor = 0.5f;
                   DeviceBuffer<float> data(d, ramp(n, 41));
                   void* p[] = {data.param(), &n, &factor};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(data)};
                 }});
  all.push_back({"_ZN12cuda_sources13scale_clampedIiEEvPT_iS1_", any_shape,
                 [](ag_device d, ag_function f, const Shape& b) {
                   int n = 999, factor = 3;
                   std::vector<int> values(n);
                   for (int i = 0; i < n; ++i) values[i] = i % 37 - 18;
                   DeviceBuffer<int> data(d, values);
                   void* p[] = {data.param(), &n, &factor};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(data)};
                 }});
  all.push_back({"_Z17print_block_sizesi",  // no output to compare: that it runs at all
                 [](const Shape& s) { return s.x * s.y * s.z == 1; },
                 [](ag_device, ag_function f, const Shape& b) {
                   int tag = 0;
                   void* p[] = {&tag};
                   launch(f, {1, 1, 1}, b, p);
                   return std::vector<Bytes>{};
                 }});
  all.push_back({"_Z12weighted_sumiPK6float3Pf", any_shape,  // module variables left at 0
                 [](ag_device d, ag_function f, const Shape& b) {
                   int n = 777;
                   DeviceBuffer<float> points(d, ramp(3 * n, 11)), out(d, n);
                   void* p[] = {&n, points.param(), out.param()};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  // tests/cuda_sources/cooperative_groups.cu: what the block and the grid groups say.
  all.push_back({"_Z11group_ranksPj", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   const Shape grid{3, 2, 1};
                   DeviceBuffer<unsigned> out(d, size_t{8} * 6 * b.x * b.y * b.z);
                   void* p[] = {out.param()};
                   launch(f, grid, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back(
      {"_Z14count_positivePKiiPj", any_shape, [](ag_device d, ag_function f, const Shape& b) {
         int n = 4097;
         std::vector<int> values(n);
         for (int i = 0; i < n; ++i) values[i] = (i * 31) % 9 - 4;
         DeviceBuffer<int> in(d, values);
         DeviceBuffer<unsigned> count(d, std::vector<unsigned>{0u});
         void* p[] = {in.param(), &n, count.param()};
         launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
         return std::vector<Bytes>{bytes_of(count)};
       }});
  // tests/cuda_sources/kernel_names.cu: kernels with mangled names, elementwise.
  for (const char* reduce : {"_Z6reduceILi256EEvPfS0_j", "_Z6reduceILi128EEvPfS0_j"})
    all.push_back({reduce, any_shape, [](ag_device d, ag_function f, const Shape& b) {
                     unsigned n = 3001;
                     DeviceBuffer<float> out(d, ramp(n, 17));
                     void* unused = nullptr;
                     void* p[] = {out.param(), &unused, &n};
                     launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                     return std::vector<Bytes>{bytes_of(out)};
                   }});
  for (const char* on_floats : {"_ZN2ns5scaleIfEEvPT_i", "_ZN5other5saxpyEPfi"})
    all.push_back({on_floats, any_shape, [](ag_device d, ag_function f, const Shape& b) {
                     int n = 3001;
                     DeviceBuffer<float> x(d, ramp(n, 23));
                     void* p[] = {x.param(), &n};
                     launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                     return std::vector<Bytes>{bytes_of(x)};
                   }});
  all.push_back({"c_linkage_offset", any_shape, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 2999;
                   std::vector<int> values(n);
                   for (int i = 0; i < n; ++i) values[i] = 7 - i * 3;
                   DeviceBuffer<int> x(d, values);
                   void* p[] = {x.param(), &n};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(x)};
                 }});
  all.push_back(
      {"_ZN12_GLOBAL__N_16offsetEPii", any_shape, [](ag_device d, ag_function f, const Shape& b) {
         int n = 3001;
         std::vector<int> values(n);
         for (int i = 0; i < n; ++i) values[i] = i * 5 - 100;
         DeviceBuffer<int> x(d, values);
         void* p[] = {x.param(), &n};
         launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
         return std::vector<Bytes>{bytes_of(x)};
       }});
  add_ported_kernel_cases(all);
  add_grid_stride_cases(all);
  return all;
}

void add_math_kernel_cases(std::vector<Case>& all);

// The well-known kernels ported as CUDA code (tests/cuda_sources, docs/porting-from-cuda.md).
// tests/cuda_sources/grid_stride.cu: grid-stride loops, which the pass runs an iteration at a
// time for all the block's threads. A grid of 3 blocks over sizes no grid divides: threads of
// one block take different numbers of steps (none, with 1024-thread blocks, for some).
void add_grid_stride_cases(std::vector<Case>& all) {
  const Shape grid{3, 1, 1};
  all.push_back(
      {"_Z11stride_axpyPfPKffi", any_shape, [grid](ag_device d, ag_function f, const Shape& b) {
         int n = 5003;
         float a = -1.25f;
         DeviceBuffer<float> x(d, ramp(n, 23)), y(d, ramp(n, 5));
         void* p[] = {y.param(), x.param(), &a, &n};
         launch(f, grid, b, p);
         return std::vector<Bytes>{bytes_of(y)};
       }});
  all.push_back({"_Z16stride_block_sumPKfPfj", one_d_power_of_two,
                 [grid](ag_device d, ag_function f, const Shape& b) {
                   unsigned n = 7001;
                   DeviceBuffer<float> in(d, ramp(n, 19)), out(d, grid.x);
                   void* p[] = {in.param(), out.param(), &n};
                   launch(f, grid, b, p, b.x * sizeof(float));
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back(
      {"_Z18stride_some_returnPKiPii", one_d, [grid](ag_device d, ag_function f, const Shape& b) {
         int n = 4099;
         std::vector<int> values(n);
         for (int i = 0; i < n; ++i) values[i] = (i * 7) % 13;
         DeviceBuffer<int> in(d, values), counts(d, grid.x);
         void* p[] = {in.param(), counts.param(), &n};
         launch(f, grid, b, p);
         return std::vector<Bytes>{bytes_of(counts)};
       }});
  all.push_back(
      {"_Z12stride_untilPKfPiS1_if", one_d, [grid](ag_device d, ag_function f, const Shape& b) {
         int n = 6007;
         float limit = 9.5f;
         const size_t threads = grid.x * b.x;
         DeviceBuffer<float> in(d, ramp(n, 53));
         DeviceBuffer<int> stopped(d, threads), steps(d, threads);
         void* p[] = {in.param(), stopped.param(), steps.param(), &n, &limit};
         launch(f, grid, b, p);
         return std::vector<Bytes>{bytes_of(stopped), bytes_of(steps)};
       }});
  all.push_back({"_Z24stride_end_after_barrierPKfPii", one_d,
                 [grid](ag_device d, ag_function f, const Shape& b) {
                   int n = 3001;
                   DeviceBuffer<float> in(d, ramp(n, 8));
                   DeviceBuffer<int> out(d, grid.x * b.x);
                   void* p[] = {in.param(), out.param(), &n};
                   launch(f, grid, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back(
      {"_Z17stride_two_phasesPKiPiii", one_d, [grid](ag_device d, ag_function f, const Shape& b) {
         int n = 5009, step = static_cast<int>(grid.x * b.x);
         std::vector<int> values(n);
         for (int i = 0; i < n; ++i) values[i] = (i * 5) % 17 - 8;
         DeviceBuffer<int> in(d, values), out(d, n);
         void* p[] = {in.param(), out.param(), &n, &step};
         launch(f, grid, b, p);
         return std::vector<Bytes>{bytes_of(out)};
       }});
  all.push_back(
      {"_Z19stride_do_while_endPii", one_d, [grid](ag_device d, ag_function f, const Shape& b) {
         int n = 4001;
         DeviceBuffer<int> out(d, std::vector<int>(n, -1));
         void* p[] = {out.param(), &n};
         launch(f, grid, b, p);
         return std::vector<Bytes>{bytes_of(out)};
       }});
  all.push_back({"_Z12stride_walksPiii", one_d, [grid](ag_device d, ag_function f, const Shape& b) {
                   int n = 3001, rounds = 3;
                   DeviceBuffer<int> out(d, grid.x * b.x * rounds);
                   void* p[] = {out.param(), &n, &rounds};
                   launch(f, grid, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back(
      {"_Z16stride_reenteredPiii", one_d, [grid](ag_device d, ag_function f, const Shape& b) {
         int n = 2003, rounds = 3;
         DeviceBuffer<int> out(d, std::vector<int>(n, 5));
         void* p[] = {out.param(), &n, &rounds};
         launch(f, grid, b, p);
         return std::vector<Bytes>{bytes_of(out)};
       }});
  all.push_back(
      {"_Z13stride_gatherPfPKfPKii", any_shape, [grid](ag_device d, ag_function f, const Shape& b) {
         int n = 4003;
         std::vector<int> index(n);
         for (int i = 0; i < n; ++i) index[i] = (i * 37 + 11) % n;
         DeviceBuffer<float> out(d, ramp(n, 13)), values(d, ramp(n, 31));
         DeviceBuffer<int> where(d, index);
         void* p[] = {out.param(), values.param(), where.param(), &n};
         launch(f, grid, b, p);
         return std::vector<Bytes>{bytes_of(out)};
       }});
  all.push_back({"_Z9stride_2dPfii", [](const Shape& s) { return s.z == 1; },
                 [](ag_device d, ag_function f, const Shape& b) {
                   int rows = 67, cols = 131;
                   DeviceBuffer<float> m(d, ramp(rows * cols, 29));
                   void* p[] = {m.param(), &rows, &cols};
                   launch(f, {2, 3, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(m)};
                 }});
}

void add_ported_kernel_cases(std::vector<Case>& all) {
  for (const char* kernel : {"_Z7reduce0IfEvPT_S1_j", "_Z7reduce1IfEvPT_S1_j",
                             "_Z7reduce2IfEvPT_S1_j", "_Z7reduce3IfEvPT_S1_j"}) {
    all.push_back({kernel, one_d_power_of_two, [](ag_device d, ag_function f, const Shape& b) {
                     unsigned n = 3001;
                     DeviceBuffer<float> in(d, ramp(n, 29)), out(d, blocks_for(n, b.x));
                     void* p[] = {in.param(), out.param(), &n};
                     launch(f, {blocks_for(n, b.x), 1, 1}, b, p, b.x * sizeof(float));
                     return std::vector<Bytes>{bytes_of(out)};
                   }});
  }
  all.push_back(
      {"_Z7reduce3IiEvPT_S1_j", one_d_power_of_two, [](ag_device d, ag_function f, const Shape& b) {
         unsigned n = 2999;
         std::vector<int> values(n);
         for (unsigned i = 0; i < n; ++i) values[i] = static_cast<int>(i % 41) - 20;
         DeviceBuffer<int> in(d, values), out(d, blocks_for(n, 2 * b.x));
         void* p[] = {in.param(), out.param(), &n};
         launch(f, {blocks_for(n, 2 * b.x), 1, 1}, b, p, b.x * sizeof(int));
         return std::vector<Bytes>{bytes_of(out)};
       }});
  for (unsigned block : {64u, 256u}) {
    all.push_back({block == 64 ? "_Z16reduceGridStrideIfLj64EEvPKT_PS0_j"
                               : "_Z16reduceGridStrideIfLj256EEvPKT_PS0_j",
                   exactly(block, 1), [](ag_device d, ag_function f, const Shape& b) {
                     unsigned n = 20011;
                     DeviceBuffer<float> in(d, ramp(n, 37)), out(d, 5);
                     void* p[] = {in.param(), out.param(), &n};
                     launch(f, {5, 1, 1}, b, p, b.x * sizeof(float));
                     return std::vector<Bytes>{bytes_of(out)};
                   }});
  }
  for (unsigned tile : {16u, 32u}) {
    all.push_back(
        {tile == 16 ? "_Z13MatrixMulCUDAILi16EEvPfS0_S0_ii" : "_Z13MatrixMulCUDAILi32EEvPfS0_S0_ii",
         exactly(tile, tile), [tile](ag_device d, ag_function f, const Shape& b) {
           const int h = static_cast<int>(2 * tile);
           int wA = static_cast<int>(3 * tile), wB = static_cast<int>(tile);
           DeviceBuffer<float> a(d, ramp(h * wA, 11)), bm(d, ramp(wA * wB, 7)), c(d, h * wB);
           void* p[] = {c.param(), a.param(), bm.param(), &wA, &wB};
           launch(f, {1, 2, 1}, b, p);
           return std::vector<Bytes>{bytes_of(c)};
         }});
  }
  for (const char* kernel : {"_Z14transposeNaivePfPKfii", "_Z18transposeCoalescedPfPKfii",
                             "_Z24transposeNoBankConflictsPfPKfii"}) {
    all.push_back({kernel, exactly(32, 8), [](ag_device d, ag_function f, const Shape& b) {
                     int width = 45, height = 70;
                     DeviceBuffer<float> in(d, ramp(width * height, 1000)), out(d, width * height);
                     void* p[] = {out.param(), in.param(), &width, &height};
                     launch(f, {blocks_for(width, 32), blocks_for(height, 32), 1}, b, p);
                     return std::vector<Bytes>{bytes_of(out)};
                   }});
  }
  all.push_back(
      {"_Z7prescanPfPKfS_i", one_d_power_of_two, [](ag_device d, ag_function f, const Shape& b) {
         int n = 2501;
         const unsigned grid = blocks_for(n, 2 * b.x);
         DeviceBuffer<float> in(d, ramp(n, 13)), out(d, n), sums(d, grid);
         void* p[] = {out.param(), in.param(), sums.param(), &n};
         launch(f, {grid, 1, 1}, b, p, 2 * b.x * sizeof(float));
         return std::vector<Bytes>{bytes_of(out), bytes_of(sums)};
       }});
  all.push_back({"_Z10uniformAddPfPKfi", one_d, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 2501;
                   const unsigned grid = blocks_for(n, 2 * b.x);
                   DeviceBuffer<float> data(d, ramp(n, 17)), offsets(d, ramp(grid, 5));
                   void* p[] = {data.param(), offsets.param(), &n};
                   launch(f, {grid, 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(data)};
                 }});
  all.push_back({"_Z18histogram256KernelPjPKjj", exactly(256, 1),
                 [](ag_device d, ag_function f, const Shape& b) {
                   unsigned words = 3001;
                   std::vector<unsigned> values(words);
                   for (unsigned i = 0; i < words; ++i) values[i] = i * 2654435761u;
                   DeviceBuffer<unsigned> data(d, values), partial(d, 3 * 256);
                   void* p[] = {partial.param(), data.param(), &words};
                   launch(f, {3, 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(partial)};
                 }});
  all.push_back({"_Z23mergeHistogram256KernelPjPKjj", exactly(256, 1),
                 [](ag_device d, ag_function f, const Shape& b) {
                   unsigned count = 300;
                   std::vector<unsigned> values(count * 256);
                   for (size_t i = 0; i < values.size(); ++i) values[i] = (i * 7u) % 13u;
                   DeviceBuffer<unsigned> partial(d, values), histogram(d, 256);
                   void* p[] = {histogram.param(), partial.param(), &count};
                   launch(f, {256, 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(histogram)};
                 }});
  all.push_back({"_Z15BlackScholesGPUPfS_PKfS1_S1_ffi", one_d, black_scholes<float>});
  all.push_back({"_Z15BlackScholesGPUPdS_PKdS1_S1_ddi", one_d, black_scholes<double>});
  all.push_back({"_Z25layernorm_forward_kernel1PfS_S_PKfS1_S1_ii", one_d,
                 [](ag_device d, ag_function f, const Shape& b) {
                   int rows = 97, channels = 33;
                   DeviceBuffer<float> out(d, rows * channels), mean(d, rows), rstd(d, rows),
                       in(d, ramp(rows * channels, 23)), weight(d, ramp(channels, 5)),
                       bias(d, ramp(channels, 3));
                   void* p[] = {out.param(),    mean.param(), rstd.param(), in.param(),
                                weight.param(), bias.param(), &rows,        &channels};
                   launch(f, {blocks_for(rows, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out), bytes_of(mean), bytes_of(rstd)};
                 }});
  all.push_back(
      {"_Z23softmax_forward_kernel1PfPKfii", one_d, [](ag_device d, ag_function f, const Shape& b) {
         int rows = 97, channels = 33;
         DeviceBuffer<float> in(d, ramp(rows * channels, 19)), out(d, rows * channels);
         void* p[] = {out.param(), in.param(), &rows, &channels};
         launch(f, {blocks_for(rows, b.x), 1, 1}, b, p);
         return std::vector<Bytes>{bytes_of(out)};
       }});
  // tests/cuda_sources/half_and_bits.cu and kernels/half_dialect.cpp: elementwise, the 16-bit
  // values as their bits.
  const auto bits16 = [](size_t n, unsigned seed) {
    std::vector<uint16_t> values(n);
    for (size_t i = 0; i < n; ++i) values[i] = static_cast<uint16_t>((i * 40503u + seed) & 0xFFFF);
    return values;
  };
  const auto bits32 = [](size_t n, unsigned seed) {
    std::vector<unsigned> values(n);
    for (size_t i = 0; i < n; ++i) values[i] = static_cast<unsigned>(i * 2654435761u + seed);
    return values;
  };
  all.push_back({"_Z15half_arithmeticPK6__halfS1_S1_PS_i", one_d,
                 [bits16](ag_device d, ag_function f, const Shape& b) {
                   int n = 515;
                   DeviceBuffer<uint16_t> x(d, bits16(n, 1)), y(d, bits16(n, 2)),
                       z(d, bits16(n, 3)), out(d, 16 * n);
                   void* p[] = {x.param(), y.param(), z.param(), out.param(), &n};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back({"_Z16half_comparisonsPK6__halfS1_Pji", one_d,
                 [bits16](ag_device d, ag_function f, const Shape& b) {
                   int n = 515;
                   DeviceBuffer<uint16_t> x(d, bits16(n, 4)), y(d, bits16(n, 5));
                   DeviceBuffer<unsigned> out(d, n);
                   void* p[] = {x.param(), y.param(), out.param(), &n};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  for (const char* axpby : {"_Z11half2_axpbyPK7__half2PS_S_6__halfi", "half_dialect_axpy"})
    all.push_back({axpby, one_d, [bits32, axpby](ag_device d, ag_function f, const Shape& b) {
                     int n = 515;
                     unsigned alpha = 0x3C00BC00u;  // a __half2 of -1 and 1
                     uint16_t beta = 0x3800;        // a __half of 0.5
                     DeviceBuffer<unsigned> x(d, bits32(n, 6)), y(d, bits32(n, 7)),
                         extra(d, std::vector<unsigned>(n, 0u));
                     std::vector<void*> p = {x.param(), y.param(), &alpha};
                     if (std::strcmp(axpby, "half_dialect_axpy") == 0)
                       p.push_back(extra.param());
                     else
                       p.push_back(&beta);
                     p.push_back(&n);
                     launch(f, {blocks_for(n, b.x), 1, 1}, b, p.data());
                     return std::vector<Bytes>{bytes_of(y), bytes_of(extra)};
                   }});
  all.push_back(
      {"_Z11conversionsPKfPtS1_Pfi", one_d, [](ag_device d, ag_function f, const Shape& b) {
         int n = 515;
         DeviceBuffer<float> in(d, ramp(n, 23)), back(d, 2 * n);
         DeviceBuffer<uint16_t> h(d, n), bf(d, n);
         void* p[] = {in.param(), h.param(), bf.param(), back.param(), &n};
         launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
         return std::vector<Bytes>{bytes_of(h), bytes_of(bf), bytes_of(back)};
       }});
  all.push_back({"_Z15bf16_arithmeticPK14__nv_bfloat162S1_PS_i", one_d,
                 [bits32](ag_device d, ag_function f, const Shape& b) {
                   int n = 515;
                   DeviceBuffer<unsigned> x(d, bits32(n, 8)), y(d, bits32(n, 9)), out(d, 8 * n);
                   void* p[] = {x.param(), y.param(), out.param(), &n};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back({"_Z18integer_intrinsicsPKjS0_S0_Pji", one_d,
                 [bits32](ag_device d, ag_function f, const Shape& b) {
                   int n = 515;
                   DeviceBuffer<unsigned> u(d, bits32(n, 10)), v(d, bits32(n, 11)),
                       w(d, bits32(n, 12)), out(d, 24 * n);
                   void* p[] = {u.param(), v.param(), w.param(), out.param(), &n};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  // tests/cuda_sources/half_math.cu: the 16-bit math functions (17 per input, scalar and pair
  // forms) and the directed roundings, elementwise.
  for (const char* math :
       {"_Z9half_mathPK6__halfPS_P7__half2i", "_Z9bf16_mathPK13__nv_bfloat16PS_P14__nv_bfloat162i"})
    all.push_back({math, one_d, [bits16](ag_device d, ag_function f, const Shape& b) {
                     int n = 515;
                     DeviceBuffer<uint16_t> x(d, bits16(n, 13)), out(d, 17 * n);
                     DeviceBuffer<unsigned> pairs(d, 17 * n);
                     void* p[] = {x.param(), out.param(), pairs.param(), &n};
                     launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                     return std::vector<Bytes>{bytes_of(out), bytes_of(pairs)};
                   }});
  all.push_back(
      {"_Z18directed_roundingsPKfPKdPti", one_d, [](ag_device d, ag_function f, const Shape& b) {
         int n = 515;
         const std::vector<float> values = ramp(n, 29);
         DeviceBuffer<float> in(d, values);
         DeviceBuffer<double> wide(d, std::vector<double>(values.begin(), values.end()));
         DeviceBuffer<uint16_t> out(d, 8 * n);
         void* p[] = {in.param(), wide.param(), out.param(), &n};
         launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
         return std::vector<Bytes>{bytes_of(out)};
       }});
  // The integer conversions and the conversions between the formats, elementwise.
  all.push_back({"_Z13from_integersPKxPti", one_d, [](ag_device d, ag_function f, const Shape& b) {
                   int n = 515;
                   std::vector<long long> values(n);
                   for (int i = 0; i < n; ++i)
                     values[i] = (i % 2 ? -1ll : 1ll) * (static_cast<long long>(i) * i * i * 997);
                   DeviceBuffer<long long> in(d, values);
                   DeviceBuffer<uint16_t> out(d, 48 * n);
                   void* p[] = {in.param(), out.param(), &n};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back({"_Z11to_integersPx", one_d, [](ag_device d, ag_function f, const Shape& b) {
                   DeviceBuffer<long long> out(d, 52 * 65536);
                   void* p[] = {out.param()};
                   launch(f, {blocks_for(65536, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  all.push_back({"_Z15between_formatsPt", one_d, [](ag_device d, ag_function f, const Shape& b) {
                   DeviceBuffer<uint16_t> out(d, 2 * 65536);
                   void* p[] = {out.param()};
                   launch(f, {blocks_for(65536, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  // atomicAdd on the 16-bit types: the sums (exact whatever the order), not the values each add
  // replaced (which depend on it). Blocks of 128 or fewer threads, 1024 in all at most.
  all.push_back({"_Z10atomics_16P6__halfP13__nv_bfloat16P7__half2P14__nv_bfloat162PtS7_Pj", one_d,
                 [](ag_device d, ag_function f, const Shape& b) {
                   const unsigned threads = b.x <= 128 ? b.x : 128, blocks = 1024 / threads;
                   const std::vector<uint16_t> zeros16(4, 0);
                   const std::vector<unsigned> zeros32(1, 0);
                   DeviceBuffer<uint16_t> h(d, zeros16), bf(d, zeros16), old_h(d, 1024),
                       old_b(d, 1024);
                   DeviceBuffer<unsigned> h2(d, zeros32), b2(d, zeros32), block_out(d, 4 * blocks);
                   void* p[] = {h.param(),     bf.param(),    h2.param(),       b2.param(),
                                old_h.param(), old_b.param(), block_out.param()};
                   launch(f, {blocks, 1, 1}, {threads, 1, 1}, p);
                   return std::vector<Bytes>{bytes_of(h), bytes_of(bf), bytes_of(h2), bytes_of(b2),
                                             bytes_of(block_out)};
                 }});
  all.push_back({"_Z17atomics_16_cancelP6__halfP14__nv_bfloat162i", one_d,
                 [](ag_device d, ag_function f, const Shape& b) {
                   DeviceBuffer<uint16_t> h(d, std::vector<uint16_t>(2, 0));
                   DeviceBuffer<unsigned> b2(d, std::vector<unsigned>(1, 0));
                   int rounds = 3;
                   void* p[] = {h.param(), b2.param(), &rounds};
                   launch(f, {4, 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(h), bytes_of(b2)};
                 }});
  all.push_back({"_Z11pair_extrasPK7__half2S1_S1_Pji", one_d,
                 [bits16](ag_device d, ag_function f, const Shape& b) {
                   int n = 515;
                   DeviceBuffer<uint16_t> x(d, bits16(2 * n, 13)), y(d, bits16(2 * n, 7)),
                       z(d, bits16(2 * n, 5));
                   DeviceBuffer<unsigned> out(d, 9 * n);
                   void* p[] = {x.param(), y.param(), z.param(), out.param(), &n};
                   launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
                   return std::vector<Bytes>{bytes_of(out)};
                 }});
  // nbody: shared-memory tiles of the block's size, so every body count is a multiple of it.
  all.push_back({"_Z15integrateBodiesP6float4S0_PKS_S2_ffif", one_d,
                 [](ag_device d, ag_function f, const Shape& b) {
                   const int tiles = b.x >= 256 ? 2 : 5, bodies = tiles * b.x;
                   float dt = 0.01f, damping = 0.99f, softening = 0.01f;
                   int tile_count = tiles;
                   DeviceBuffer<float> pos(d, ramp(4 * bodies, 23)), vel(d, ramp(4 * bodies, 11)),
                       new_pos(d, 4 * bodies), new_vel(d, 4 * bodies);
                   void* p[] = {new_pos.param(), new_vel.param(), pos.param(), vel.param(), &dt,
                                &damping,        &tile_count,     &softening};
                   launch(f, {static_cast<unsigned>(tiles), 1, 1}, b, p, b.x * 16);
                   return std::vector<Bytes>{bytes_of(new_pos), bytes_of(new_vel)};
                 }});
  add_math_kernel_cases(all);
}

// The math kernels (tests/cuda_sources/math_functions.cu): no barriers, so loops and fibers run
// the same code; a few functions of each kind.
template <typename T>
std::vector<Bytes> run_math_functions(ag_device d, ag_function f, const Shape& b) {
  unsigned n = 333;
  const std::vector<float> values = ramp(n, 41);
  DeviceBuffer<T> x(d, std::vector<T>(values.begin(), values.end())), out(d, n);
  std::vector<Bytes> results;
  for (int function : {math_acos, math_exp, math_atan2, math_norm3d}) {
    void* p[] = {&function, &n, x.param(), x.param(), x.param(), x.param(), out.param()};
    launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
    results.push_back(bytes_of(out));
  }
  return results;
}

// single_<f>_f32(float* v) and single_<f>_f64(double* v): v[0] = f(v[1], v[2]).
template <typename T>
std::vector<Bytes> run_single_function(ag_device d, ag_function f, const Shape& b) {
  DeviceBuffer<T> v(d, std::vector<T>{0, T(0.75), T(2.5)});
  void* p[] = {v.param()};
  launch(f, {1, 1, 1}, b, p);
  return std::vector<Bytes>{bytes_of(v)};
}

// The intrinsics named by their rounding (tests/cuda_sources/math_rounding.cu): 28 results per
// operand triple, and the conversions.
template <typename T>
std::vector<Bytes> run_rounding_arithmetic(ag_device d, ag_function f, const Shape& b) {
  unsigned n = 333;
  const std::vector<float> values = ramp(n, 37);
  std::vector<T> x(values.begin(), values.end()), y(x.rbegin(), x.rend()), z(x);
  for (unsigned i = 0; i < n; ++i) z[i] = x[i] / 3 - T(1) / (i + 1);
  DeviceBuffer<T> dx(d, x), dy(d, y), dz(d, z), out(d, 28 * n);
  void* p[] = {&n, dx.param(), dy.param(), dz.param(), out.param()};
  launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
  return std::vector<Bytes>{bytes_of(out)};
}
std::vector<Bytes> run_rounding_conversions(ag_device d, ag_function f, const Shape& b) {
  unsigned n = 333;
  const std::vector<float> values = ramp(n, 43);
  std::vector<double> wide(values.begin(), values.end());
  std::vector<long long> s(n);
  std::vector<unsigned long long> u(n);
  for (unsigned i = 0; i < n; ++i) {
    wide[i] *= 1e9 * (i + 1);
    u[i] = 0x9e3779b97f4a7c15ull * (i + 1);
    s[i] = static_cast<long long>(u[i] >> (i % 64));
  }
  DeviceBuffer<float> df(d, values), floats(d, 24 * n);
  DeviceBuffer<double> dd(d, wide), doubles(d, 12 * n);
  DeviceBuffer<long long> ds(d, s);
  DeviceBuffer<unsigned long long> du(d, u), integers(d, 36 * n);
  void* p[] = {&n,         df.param(),       dd.param(),     ds.param(),
               du.param(), integers.param(), floats.param(), doubles.param()};
  launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
  return std::vector<Bytes>{bytes_of(integers), bytes_of(floats), bytes_of(doubles)};
}

void add_math_kernel_cases(std::vector<Case>& all) {
  all.push_back({"_Z13math_functionIfEvijPKT_S2_S2_S2_PS0_", one_d, run_math_functions<float>});
  all.push_back({"_Z13math_functionIdEvijPKT_S2_S2_S2_PS0_", one_d, run_math_functions<double>});
  static const std::vector<std::string> single_names = [] {
    std::vector<std::string> names;
    for (const char* function :
         {"exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan", "pow"}) {
      for (const char* form : {"_f32Pf", "_f64Pd"}) {
        const std::string kernel = std::string("single_") + function + std::string(form, 4);
        names.push_back("_Z" + std::to_string(kernel.size()) + kernel + (form + 4));
      }
    }
    return names;
  }();
  for (const std::string& name : single_names) {
    const bool is_double = name.back() == 'd';
    all.push_back({name.c_str(), one_d,
                   is_double ? run_single_function<double> : run_single_function<float>});
  }
  all.push_back(
      {"_Z19rounding_arithmeticIfEvjPKT_S2_S2_PS0_", one_d, run_rounding_arithmetic<float>});
  all.push_back(
      {"_Z19rounding_arithmeticIdEvjPKT_S2_S2_PS0_", one_d, run_rounding_arithmetic<double>});
  all.push_back({"_Z20rounding_conversionsjPKfPKdPKxPKyPyPfPd", one_d, run_rounding_conversions});
  all.push_back(
      {"_Z16rsqrt_rn_and_nanjPKfPfPy", one_d, [](ag_device d, ag_function f, const Shape& b) {
         unsigned n = 333;
         DeviceBuffer<float> x(d, ramp(n, 7)), out(d, n);
         DeviceBuffer<unsigned long long> nans(d, 11);
         void* p[] = {&n, x.param(), out.param(), nans.param()};
         launch(f, {blocks_for(n, b.x), 1, 1}, b, p);
         return std::vector<Bytes>{bytes_of(out), bytes_of(nans)};
       }});
}

// The test image, loaded with the loops allowed or not.
class Image {
 public:
  explicit Image(bool loops) {
    setenv("ANYGPU_CPU_WORKITEM_LOOPS", loops ? "1" : "0", 1);
    EXPECT_EQ(AG_SUCCESS, agModuleLoadData(cpu_device(), anygpu_image_test_kernels,
                                           anygpu_image_test_kernels_size, &module_))
        << last_detail();
  }
  ~Image() {
    if (module_) agModuleUnload(module_);
    unsetenv("ANYGPU_CPU_WORKITEM_LOOPS");
  }
  // Looked up while the environment says which path: the CPU backend reads it then.
  ag_function function(const char* name, bool loops) {
    setenv("ANYGPU_CPU_WORKITEM_LOOPS", loops ? "1" : "0", 1);
    ag_function f = nullptr;
    EXPECT_EQ(AG_SUCCESS, agModuleGetFunction(module_, name, &f)) << last_detail();
    return f;
  }

 private:
  ag_module module_ = nullptr;
};

#ifdef ANYGPU_TEST_BARRIER_PASS  // only the checks of what the pass made read it
// The descriptor the host code object gives for `kernel`.
const agk_kernel_desc* descriptor(const char* kernel) {
  static void* handle = dlopen(ANYGPU_TEST_KERNELS_PATH, RTLD_NOW | RTLD_LOCAL);
  if (!handle) return nullptr;
  auto describe = reinterpret_cast<const agk_kernel_desc* (*)()>(
      dlsym(handle, (std::string(AGK_KERNEL_SYMBOL_PREFIX) + kernel).c_str()));
  return describe ? describe() : nullptr;
}
#endif

class BarrierPassTest : public ::testing::TestWithParam<Case> {};

TEST_P(BarrierPassTest, SameResultsAsFibers) {
  const Case& c = GetParam();
#ifdef ANYGPU_TEST_BARRIER_PASS
  const agk_kernel_desc* desc = descriptor(c.kernel);
  ASSERT_NE(nullptr, desc) << "no descriptor for " << c.kernel;
  EXPECT_NE(nullptr, desc->run_blocks_wi)
      << c.kernel << " was left on fibers by the barrier pass (the build said why)";
#endif
  Image loops(true), fibers(false);
  ag_function with_loops = loops.function(c.kernel, true);
  ag_function with_fibers = fibers.function(c.kernel, false);
  ASSERT_NE(nullptr, with_loops);
  ASSERT_NE(nullptr, with_fibers);
  int shapes = 0;
  for (const Shape& shape : kShapes) {
    if (!c.fits(shape)) continue;
    ++shapes;
    const std::vector<Bytes> expected = c.run(cpu_device(), with_fibers, shape);
    const std::vector<Bytes> actual = c.run(cpu_device(), with_loops, shape);
    ASSERT_EQ(expected.size(), actual.size());
    for (size_t i = 0; i < expected.size(); ++i)
      EXPECT_TRUE(expected[i] == actual[i])
          << c.kernel << ": output " << i << " differs for a block of " << shape_name(shape);
  }
  EXPECT_GT(shapes, 0);
}

INSTANTIATE_TEST_SUITE_P(Kernels, BarrierPassTest, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.kernel);
                         });

// Every AG_KERNEL of kernels/ (the build passes their names) has a case above.
TEST(BarrierPass, EveryKernelHasACase) {
  std::string names = ANYGPU_TEST_KERNEL_NAMES;
  std::vector<Case> all = cases();
  size_t start = 0;
  while (start < names.size()) {
    size_t end = names.find(',', start);
    if (end == std::string::npos) end = names.size();
    const std::string name = names.substr(start, end - start);
    bool found = false;
    for (const Case& c : all) found = found || name == c.kernel;
    EXPECT_TRUE(found) << "kernel " << name << " has no case in equivalence_test.cpp";
    start = end + 1;
  }
}

// ANYGPU_CPU_WORKITEM_LOOPS=0 keeps the descriptor's fiber entry: the two paths really differ
// when the pass made loops (a smoke check that the comparison above compares two paths).
TEST(BarrierPass, EveryCppKernelHasLoopsWhenThePassIsOn) {
#ifndef ANYGPU_TEST_BARRIER_PASS
  GTEST_SKIP() << "built without the barrier pass (ANYGPU_CPU_BARRIER_PASS)";
#else
  for (const Case& c : cases()) {
    const agk_kernel_desc* desc = descriptor(c.kernel);
    ASSERT_NE(nullptr, desc) << c.kernel;
    EXPECT_EQ(3u, desc->abi_version);
    EXPECT_NE(nullptr, desc->run_blocks_wi) << c.kernel;
    EXPECT_NE(desc->run_blocks, desc->run_blocks_wi) << c.kernel;
  }
#endif
}

}  // namespace
