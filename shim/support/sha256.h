// SHA-256 (FIPS 180-4): the compile cache's keys and its entries' checksums. The x86 SHA
// extensions are used where the processor has them (checked once, at run time), the portable
// rounds elsewhere; both give the same digest.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace anygpu {

using Sha256Digest = std::array<unsigned char, 32>;

class Sha256 {
 public:
  // `allow_hardware` false keeps to the portable rounds (for tests of both).
  explicit Sha256(bool allow_hardware = true);
  void update(const void* data, size_t size);
  void update(const std::string& text) { update(text.data(), text.size()); }
  // The digest of everything given; the object is spent after it.
  Sha256Digest finish();

  // Whether this processor has the SHA extensions that Sha256(true) uses.
  static bool hardware_available();

 private:
  void blocks(const unsigned char* data, size_t count);

  uint32_t state_[8];
  unsigned char buffer_[64];
  size_t buffered_ = 0;
  uint64_t total_ = 0;
  bool hardware_;
};

Sha256Digest sha256(const void* data, size_t size);
// Lower-case hex, two digits a byte.
std::string to_hex(const unsigned char* data, size_t size);
inline std::string to_hex(const Sha256Digest& digest) {
  return to_hex(digest.data(), digest.size());
}

}  // namespace anygpu
