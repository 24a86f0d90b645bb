// What the run-time compilers read from a compiler's log.
#pragma once

#include <string>

namespace anygpu {

// The first line of a compiler's log that holds `marker`, else its first line (with
// `skip_blank`, its first line with more than blanks), else `none`.
std::string first_error_line(const std::string& log, const char* marker, bool skip_blank,
                             const char* none);

}  // namespace anygpu
