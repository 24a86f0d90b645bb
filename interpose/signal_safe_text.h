// Text written from a signal handler: no allocation, no stdio, no lock, only write(2). A fixed
// buffer collects the text and is written out when full and by flush(); numbers are formatted by
// hand. Used for the outputs the interposer writes when the program crashes (crash_handler.h) and,
// so that there is one formatter, for the statistics at a normal exit too.
#pragma once

#include <cstddef>
#include <cstdint>

namespace anygpu::intercept {

class FdText {
 public:
  explicit FdText(int fd) : fd_(fd) {}
  FdText(const FdText&) = delete;
  FdText& operator=(const FdText&) = delete;
  ~FdText() { flush(); }

  FdText& text(const char* text);
  FdText& text(const char* text, size_t length);
  // `text` left-aligned in `width` columns (longer text is written whole).
  FdText& left(const char* text, int width);
  FdText& number(uint64_t value, int width = 0);  // right-aligned in `width` columns
  FdText& signed_number(int64_t value);
  // `scaled` / 10^decimals with that many decimals ("12.345"), right-aligned in `width` columns.
  FdText& fixed(uint64_t scaled, int decimals, int width = 0);
  // Writes what is buffered; false once any write failed.
  bool flush();

 private:
  void put(char c);
  void spaces(int count);

  int fd_;
  bool failed_ = false;
  size_t length_ = 0;
  char buffer_[1024];
};

// `pattern` with each %p replaced by `pid` and %% by %, into `out` (NUL-terminated); false when
// it does not fit.
bool expand_pid_into(char* out, size_t capacity, const char* pattern, long pid);

}  // namespace anygpu::intercept
