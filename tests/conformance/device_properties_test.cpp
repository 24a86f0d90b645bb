// The device properties every backend reports alike, on every device: the fields appended after
// the first version of ag_device_properties included.
#include <anygpu/anygpu.h>

#include <cstring>

#include "test_support.h"

using namespace anygpu_test;

namespace {

class DevicePropertiesTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    p.struct_size = sizeof p;
    ASSERT_AG(agDeviceGetProperties(device, &p));
  }
  ag_device device = device_at(GetParam());
  ag_device_properties p{};
};

TEST_P(DevicePropertiesTest, AppendedFieldsAreConsistent) {
  EXPECT_EQ(1, p.host_functions);  // agLaunchHostFunc works on every backend
  EXPECT_GE(p.shared_memory_per_block_optin, p.shared_memory_per_block);
  for (int id : {p.pci_domain_id, p.pci_bus_id, p.pci_device_id}) EXPECT_GE(id, -1);
  EXPECT_GE(p.clock_rate_khz, 0);
  EXPECT_GE(p.memory_bus_width_bits, 0);
  EXPECT_GE(p.registers_per_block, 0);
  for (int flag : {p.managed_memory, p.concurrent_managed_access, p.stream_ordered_allocation})
    EXPECT_TRUE(flag == 0 || flag == 1) << flag;
  if (p.backend == AG_BACKEND_CUDA) {
    // The architecture is the compute capability's name.
    EXPECT_EQ("sm_" + std::to_string(p.compute_capability_major) +
                  std::to_string(p.compute_capability_minor),
              std::string(p.architecture));
  }
  if (p.backend == AG_BACKEND_CPU) {
    int version = 0;
    ASSERT_AG(agGetVersion(&version));
    EXPECT_EQ(version, p.driver_version);
    EXPECT_EQ(-1, p.pci_bus_id);
    EXPECT_EQ(1, p.managed_memory);  // all of its memory is the host's
    EXPECT_EQ(0, p.registers_per_block);
    const unsigned char zero[16] = {};
    EXPECT_EQ(0, memcmp(zero, p.uuid, sizeof zero));
  } else {
    EXPECT_GT(p.driver_version, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, DevicePropertiesTest,
                         ::testing::ValuesIn(all_device_ordinals()), device_test_name);

}  // namespace
