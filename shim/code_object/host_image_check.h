// The check a host code object passes before the dynamic loader sees it. ld.so trusts what it
// maps: a program header, a dynamic entry or a hash table that points past the image's end is a
// SIGBUS, a SIGSEGV or an ld.so assertion, and any shared object's constructors run when it is
// opened. So the image's ELF structure is checked against its length here, every range ld.so
// reads or writes while it maps, relocates and opens the object (docs/architecture.md), and the
// image must export the marker every host code object has: a defined function
// `anygpu_host_abi` (AGK_HOST_ABI_SYMBOL, emitted by anygpu/kernel.h), found through the
// dynamic section's own symbol table as ld.so finds it.
#pragma once

#include <cstdint>
#include <string>

#include "shim/code_object/byte_reader.h"

namespace anygpu {

// True when `image` is an ELF64 shared object for `machine` (EM_X86_64 or EM_AARCH64) whose
// structure lies inside the image and which exports the anygpu marker. Otherwise false, with
// `error` naming the first thing that is out of range or missing.
bool check_host_image(ByteReader image, uint16_t machine, std::string* error);

}  // namespace anygpu
