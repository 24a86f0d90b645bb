// Bounds-checked reads from an untrusted byte range. Every reader of code-object formats goes
// through this: a read that does not fit says so instead of touching memory outside the range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the code-object readers read little-endian fields with memcpy");

namespace anygpu {

class ByteReader {
 public:
  ByteReader() = default;
  ByteReader(const void* data, size_t size)
      : data_(static_cast<const unsigned char*>(data)), size_(data ? size : 0) {}

  const unsigned char* data() const { return data_; }
  size_t size() const { return size_; }

  // True when [offset, offset + length) lies inside the range; written so that no sum overflows.
  bool contains(uint64_t offset, uint64_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }

  template <typename T>
  bool read(uint64_t offset, T* value) const {
    if (!contains(offset, sizeof(T))) return false;
    memcpy(value, data_ + offset, sizeof(T));
    return true;
  }

  // The sub-range [offset, offset + length), or an empty reader when it does not fit.
  ByteReader slice(uint64_t offset, uint64_t length) const {
    if (!contains(offset, length)) return ByteReader();
    return ByteReader(data_ + offset, static_cast<size_t>(length));
  }

  bool starts_with(const char* prefix, size_t length) const {
    return size_ >= length && memcmp(data_, prefix, length) == 0;
  }

 private:
  const unsigned char* data_ = nullptr;
  size_t size_ = 0;
};

// a + b, or false when the sum does not fit in 64 bits.
inline bool checked_add(uint64_t a, uint64_t b, uint64_t* sum) {
  return !__builtin_add_overflow(a, b, sum);
}

}  // namespace anygpu
