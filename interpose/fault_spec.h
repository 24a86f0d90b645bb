// ANYGPU_INTERCEPT_FAULT: which calls fail, with which error, before or after the driver sees them.
//   FUNCTION[:nth=N | :p=P[:seed=S]][:error=NAME|NUMBER][:when=before|after] ; ...
// Parsed here for the interposer and for anygpu-trace, which refuses a bad spec before the
// program starts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace anygpu::intercept {

struct FaultSpec {
  std::string function;       // a wrapped symbol, or a base name selecting all its versions
  int nth = 0;                // fail the nth matching call only; 0: not by count
  double probability = -1.0;  // fail each matching call with this chance; < 0: not by chance
  uint64_t seed = 0;          // for `probability`: the same seed fails the same calls
  int error = 999;            // CUDA_ERROR_UNKNOWN / hipErrorUnknown unless error= says otherwise
  bool after = false;         // when=after: the driver runs the call, then the error is returned
};

// Parses `;`-separated specs: each good one is added to `specs`, each bad one adds a message
// naming it and what is wrong to `errors`. Empty specs (a trailing `;`) are ignored.
void parse_fault_specs(const std::string& text, std::vector<FaultSpec>* specs,
                       std::vector<std::string>* errors);

}  // namespace anygpu::intercept
