// Several devices in one process: each device with every device present (itself, the CPU device,
// another GPU of its backend where the test driver has two). Peer access as the drivers report it,
// and agMemcpyPeer(Async) and agMemcpy between any two devices, over more than one staging chunk,
// ordered on a stream of either device; bad arguments refused with nothing changed.
#include <anygpu/anygpu.h>

#include <cstdint>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

// More than two of agMemcpyPeer's 4 MiB staging chunks, and not a multiple of them.
constexpr size_t kWords = (9u << 20) / 4 + 3;
constexpr size_t kBytes = kWords * 4;

std::vector<uint32_t> pattern(uint32_t seed) {
  std::vector<uint32_t> words(kWords);
  for (size_t i = 0; i < kWords; ++i) words[i] = static_cast<uint32_t>(i) * 2654435761u ^ seed;
  return words;
}

ag_backend_kind backend_of(ag_device device) {
  ag_device_properties properties{};
  properties.struct_size = sizeof properties;
  EXPECT_AG(agDeviceGetProperties(device, &properties));
  return properties.backend;
}

std::vector<ag_device> every_device() {
  int count = 0;
  EXPECT_AG(agDeviceGetCount(&count));
  std::vector<ag_device> devices;
  for (int i = 0; i < count; ++i) devices.push_back(device_at(i));
  return devices;
}

class PeerCopyTest : public ::testing::TestWithParam<int> {
 protected:
  std::vector<uint32_t> read(ag_device owner, const DeviceBuffer<uint32_t>& buffer) {
    std::vector<uint32_t> words(kWords);
    EXPECT_AG(agMemcpyDtoH(owner, words.data(), buffer.get(), kBytes));
    return words;
  }
  void write(ag_device owner, DeviceBuffer<uint32_t>& buffer, const std::vector<uint32_t>& words) {
    ASSERT_AG(agMemcpyHtoD(owner, buffer.get(), words.data(), kBytes));
  }

  ag_device device = device_at(GetParam());
};

TEST_P(PeerCopyTest, AccessIsReportedAndEnabledPerPair) {
  for (ag_device peer : every_device()) {
    SCOPED_TRACE(testing::Message() << "peer device " << peer);
    int can = -1;
    ASSERT_AG(agDeviceCanAccessPeer(device, peer, &can));
    if (peer == device) {
      EXPECT_EQ(0, can) << "a device is not its own peer";
      EXPECT_EQ(AG_ERROR_INVALID_VALUE, agDeviceEnablePeerAccess(device, peer, 0));
      EXPECT_EQ(AG_ERROR_INVALID_VALUE, agDeviceDisablePeerAccess(device, peer));
      continue;
    }
    if (backend_of(peer) != backend_of(device)) {
      EXPECT_EQ(0, can) << "devices of two backends cannot share memory";
      EXPECT_EQ(AG_ERROR_NOT_SUPPORTED, agDeviceEnablePeerAccess(device, peer, 0));
      EXPECT_NE(std::string::npos, last_detail().find("agMemcpyPeer")) << last_detail();
      continue;
    }
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, agDeviceEnablePeerAccess(device, peer, 1));
    if (!can) {
      EXPECT_EQ(AG_ERROR_NOT_SUPPORTED, agDeviceEnablePeerAccess(device, peer, 0));
      continue;
    }
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, agDeviceDisablePeerAccess(device, peer))
        << "disabling what was never enabled";
    EXPECT_AG(agDeviceEnablePeerAccess(device, peer, 0));
    EXPECT_AG(agDeviceEnablePeerAccess(device, peer, 0)) << "enabling again changes nothing";
    EXPECT_AG(agDeviceDisablePeerAccess(device, peer));
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, agDeviceDisablePeerAccess(device, peer));
  }
}

// device -> peer -> device again, with agMemcpyPeer and then agMemcpy's inferred devices.
TEST_P(PeerCopyTest, SynchronousCopiesCarryEveryByte) {
  for (ag_device peer : every_device()) {
    SCOPED_TRACE(testing::Message() << "peer device " << peer);
    DeviceBuffer<uint32_t> source(device, kWords), there(peer, kWords), back(device, kWords);
    const std::vector<uint32_t> words = pattern(0x5eed);
    write(device, source, words);
    ASSERT_AG(agMemcpyPeer(there.get(), peer, source.get(), device, kBytes));
    EXPECT_EQ(words, read(peer, there));
    ASSERT_AG(agMemsetD8(device, back.get(), 0, kBytes));
    // The middle of it, from an offset to an offset.
    const size_t skip = 4;
    ASSERT_AG(agMemcpy(static_cast<char*>(back.get()) + skip,
                       static_cast<const char*>(there.get()) + skip, kBytes - 2 * skip));
    std::vector<uint32_t> expected = words;
    expected.front() = expected.back() = 0;
    EXPECT_EQ(expected, read(device, back));
  }
}

// Ordered after the stream's earlier work and before its later work, on a stream of either side.
TEST_P(PeerCopyTest, AsynchronousCopiesAreOrderedOnEitherDevicesStream) {
  for (ag_device peer : every_device()) {
    SCOPED_TRACE(testing::Message() << "peer device " << peer);
    DeviceBuffer<uint32_t> source(device, kWords), there(peer, kWords);
    ag_stream on_source = nullptr;
    ag_stream on_peer = nullptr;
    ASSERT_AG(agStreamCreate(device, 0, &on_source));
    ASSERT_AG(agStreamCreate(peer, 0, &on_peer));
    // The source's stream fills it, then copies it out.
    ASSERT_AG(agMemsetD32Async(source.get(), 0xa5a5f00du, kWords, on_source));
    ASSERT_AG(agMemcpyPeerAsync(there.get(), peer, source.get(), device, kBytes, on_source));
    ASSERT_AG(agStreamSynchronize(on_source));
    EXPECT_EQ(std::vector<uint32_t>(kWords, 0xa5a5f00du), read(peer, there));
    // The peer's stream copies it in, then reads it back.
    const std::vector<uint32_t> words = pattern(77);
    write(device, source, words);
    std::vector<uint32_t> landed(kWords);
    ASSERT_AG(agMemcpyPeerAsync(there.get(), peer, source.get(), device, kBytes, on_peer));
    ASSERT_AG(agMemcpyDtoHAsync(landed.data(), there.get(), kBytes, on_peer));
    ASSERT_AG(agStreamSynchronize(on_peer));
    EXPECT_EQ(words, landed);
    // agMemcpyAsync infers both devices.
    ASSERT_AG(agMemsetD8(device, source.get(), 0, kBytes));
    ASSERT_AG(agMemcpyAsync(source.get(), there.get(), kBytes, on_source));
    ASSERT_AG(agStreamSynchronize(on_source));
    EXPECT_EQ(words, read(device, source));
    EXPECT_AG(agStreamDestroy(on_source));
    EXPECT_AG(agStreamDestroy(on_peer));
  }
}

TEST_P(PeerCopyTest, BadArgumentsAreRefusedAndChangeNothing) {
  for (ag_device peer : every_device()) {
    SCOPED_TRACE(testing::Message() << "peer device " << peer);
    DeviceBuffer<uint32_t> source(device, kWords), there(peer, kWords);
    const std::vector<uint32_t> before = pattern(3);
    write(peer, there, before);
    write(device, source, pattern(4));
    void* dst = there.get();
    const void* src = source.get();
    EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agMemcpyPeer(dst, nullptr, src, device, kBytes));
    EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agMemcpyPeer(dst, peer, src, nullptr, kBytes));
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, agMemcpyPeer(nullptr, peer, src, device, kBytes));
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, agMemcpyPeer(dst, peer, nullptr, device, kBytes));
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, agMemcpyPeer(dst, peer, src, device, 0));
    EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemcpyPeer(dst, peer, src, device, kBytes + 1));
    EXPECT_NE(std::string::npos, last_detail().find("dst")) << last_detail();
    EXPECT_EQ(AG_ERROR_INVALID_ADDRESS,
              agMemcpyPeer(dst, peer, static_cast<const char*>(src) + 4, device, kBytes));
    EXPECT_NE(std::string::npos, last_detail().find("src")) << last_detail();
    if (peer != device) {
      // Each pointer named with the other's device.
      EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemcpyPeer(dst, device, src, device, kBytes));
      EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemcpyPeer(dst, peer, src, peer, kBytes));
    }
    int can = 0;
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, agDeviceCanAccessPeer(device, peer, nullptr));
    EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agDeviceCanAccessPeer(nullptr, peer, &can));
    EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agDeviceEnablePeerAccess(device, nullptr, 0));
    EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agDeviceDisablePeerAccess(nullptr, peer));
    EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agMemcpyPeerAsync(dst, peer, src, device, kBytes, nullptr));
    // A stream of a third device.
    for (ag_device third : every_device()) {
      if (third == device || third == peer) continue;
      ag_stream stream = nullptr;
      ASSERT_AG(agStreamCreate(third, 0, &stream));
      EXPECT_EQ(AG_ERROR_INVALID_VALUE, agMemcpyPeerAsync(dst, peer, src, device, kBytes, stream));
      EXPECT_NE(std::string::npos, last_detail().find("stream")) << last_detail();
      EXPECT_AG(agStreamDestroy(stream));
    }
    EXPECT_EQ(before, read(peer, there)) << "a refused copy changed the destination";
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, PeerCopyTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
