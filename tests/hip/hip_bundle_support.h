// AMD code objects and bundles made in a test, for selection by target id end to end: the test
// kernels' code object for a processor, taken from the bundle embedded in the test program, with
// its xnack setting restated, packed into bundles with the ids ROCm uses.
#pragma once

#include <string>
#include <vector>

namespace anygpu_test {

// The embedded test kernels' code object for `processor` ("gfx90a"), empty when this build has no
// AMD code objects (then the test skips). `xnack` is '+', '-' or 0 (unstated: any), written into
// its ELF header's e_flags.
std::vector<unsigned char> test_kernels_code_object(const std::string& processor, char xnack = 0);

// A clang offload bundle of the code objects, ids "hipv4-amdgcn-amd-amdhsa--<target id>" in the
// order given, with an empty host entry first, as hipcc writes.
std::vector<unsigned char> amd_bundle(const std::vector<std::vector<unsigned char>>& code_objects);

}  // namespace anygpu_test
