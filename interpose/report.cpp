#include "interpose/report.h"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>

namespace anygpu::intercept {

// Formatted into one buffer and written with one write(), so that lines of threads and of
// processes sharing stderr do not interleave.
void report(const char* format, ...) {
  char line[1024];
  int prefix = snprintf(line, sizeof line, "anygpu-intercept: ");
  va_list arguments;
  va_start(arguments, format);
  int length = vsnprintf(line + prefix, sizeof line - prefix - 1, format, arguments);
  va_end(arguments);
  if (length < 0) return;
  size_t total =
      prefix + (static_cast<size_t>(length) < sizeof line - prefix - 1 ? static_cast<size_t>(length)
                                                                       : sizeof line - prefix - 2);
  line[total++] = '\n';
  ssize_t ignored = write(STDERR_FILENO, line, total);
  (void)ignored;
}

}  // namespace anygpu::intercept
