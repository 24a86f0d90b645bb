// Reading a test driver's environment: whole numbers in a range, comma- and colon-separated lists,
// and a warning on stderr for a value that is ignored.
#pragma once

#include <string>
#include <vector>

namespace anygpu::test_driver {

// "<driver>: ignoring <variable>=<value>: <why>" on stderr, where <driver> names the driver
// ("anygpu HIP test driver").
void warn(const char* driver, const char* variable, const std::string& value, const char* why);

// A whole decimal number in [low, high]; false for anything else.
bool parse_int(const std::string& text, long low, long high, long* value);

// "a,b,,c" split at `separator`: {"a", "b", "", "c"}; "" gives {""}.
std::vector<std::string> split(const std::string& text, char separator);

}  // namespace anygpu::test_driver
