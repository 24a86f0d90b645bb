// JSON string escaping for the trace: every byte a JSON parser would refuse is escaped.
#pragma once

#include <string>
#include <string_view>

namespace anygpu::intercept {

// Appends `text` as a quoted JSON string.
void append_json_string(std::string* out, std::string_view text);

}  // namespace anygpu::intercept
