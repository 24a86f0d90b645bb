#include "interpose/signal_safe_text.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace anygpu::intercept {
namespace {

// The decimal digits of `value`, most significant first, into `digits`; returns how many.
int format_unsigned(uint64_t value, char (&digits)[24]) {
  char reversed[24];
  int count = 0;
  do {
    reversed[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  for (int i = 0; i < count; ++i) digits[i] = reversed[count - 1 - i];
  return count;
}

}  // namespace

void FdText::put(char c) {
  if (length_ == sizeof buffer_) flush();
  buffer_[length_++] = c;
}

void FdText::spaces(int count) {
  for (int i = 0; i < count; ++i) put(' ');
}

FdText& FdText::text(const char* text, size_t length) {
  for (size_t i = 0; i < length; ++i) put(text[i]);
  return *this;
}

FdText& FdText::text(const char* text) {
  return this->text(text, strlen(text));
}

FdText& FdText::left(const char* text, int width) {
  const size_t length = strlen(text);
  this->text(text, length);
  spaces(width - static_cast<int>(length));
  return *this;
}

FdText& FdText::number(uint64_t value, int width) {
  char digits[24];
  const int count = format_unsigned(value, digits);
  spaces(width - count);
  return text(digits, static_cast<size_t>(count));
}

FdText& FdText::signed_number(int64_t value) {
  if (value >= 0) return number(static_cast<uint64_t>(value));
  put('-');
  return number(0 - static_cast<uint64_t>(value));
}

FdText& FdText::fixed(uint64_t scaled, int decimals, int width) {
  uint64_t unit = 1;
  for (int i = 0; i < decimals; ++i) unit *= 10;
  char digits[24];
  const int whole = format_unsigned(scaled / unit, digits);
  spaces(width - whole - (decimals > 0 ? decimals + 1 : 0));
  text(digits, static_cast<size_t>(whole));
  if (decimals == 0) return *this;
  put('.');
  uint64_t fraction = scaled % unit;
  for (unit /= 10; unit > 0; unit /= 10) {
    put(static_cast<char>('0' + fraction / unit));
    fraction %= unit;
  }
  return *this;
}

bool FdText::flush() {
  const char* data = buffer_;
  size_t left = length_;
  length_ = 0;
  while (left > 0 && !failed_) {
    const ssize_t written = write(fd_, data, left);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      failed_ = true;
      break;
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  return !failed_;
}

bool expand_pid_into(char* out, size_t capacity, const char* pattern, long pid) {
  size_t length = 0;
  auto add = [&](const char* text, size_t count) {
    if (length + count >= capacity) return false;
    memcpy(out + length, text, count);
    length += count;
    return true;
  };
  for (const char* p = pattern; *p; ++p) {
    bool fits = true;
    if (p[0] == '%' && p[1] == 'p') {
      char digits[24];
      fits = add(digits, static_cast<size_t>(format_unsigned(static_cast<uint64_t>(pid), digits)));
      ++p;
    } else if (p[0] == '%' && p[1] == '%') {
      fits = add("%", 1);
      ++p;
    } else {
      fits = add(p, 1);
    }
    if (!fits) return false;
  }
  out[length] = '\0';
  return true;
}

}  // namespace anygpu::intercept
