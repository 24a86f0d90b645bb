// The notes of a host code object's PT_NOTE and PT_GNU_PROPERTY segments. ld.so walks them up to
// the segment's memory size and trusts each note's name and descriptor sizes, and, in the GNU
// property note (-fcf-protection, x86 ISA levels), each property's data size: a size that points
// past the segment makes it read unmapped memory before anything is refused.
#include <elf.h>

#include <cinttypes>

#include "shim/code_object/host_image_checker.h"
#include "shim/support/string_format.h"

namespace anygpu::host_image {
namespace {

uint64_t align_up(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

// The GNU property array of a NT_GNU_PROPERTY_TYPE_0 descriptor: (type, size, data padded to 8).
bool properties_fit(ByteReader descriptor) {
  uint64_t at = 0;
  while (at < descriptor.size()) {
    uint32_t type = 0, size = 0;
    if (!descriptor.read(at, &type) || !descriptor.read(at + 4, &size)) return false;
    const uint64_t end = at + 8 + align_up(size, 8);  // no overflow: size < 2^32, at < 2^40
    if (end > descriptor.size()) return false;
    at = end;
  }
  return true;
}

}  // namespace

bool HostImageChecker::notes(const Elf64_Phdr& ph, ByteReader bytes) {
  const char* kind = ph.p_type == PT_NOTE ? "PT_NOTE" : "PT_GNU_PROPERTY";
  if (ph.p_memsz != ph.p_filesz)
    return fail(strprintf("its %s at address 0x%" PRIx64 " has a memory size (%" PRIu64
                          ") other than its file size (%" PRIu64 ")",
                          kind, ph.p_vaddr, ph.p_memsz, ph.p_filesz));
  if (ph.p_align > 1 && ph.p_align != 4 && ph.p_align != 8)
    return fail(strprintf("its %s at address 0x%" PRIx64 " is aligned to %" PRIu64
                          " (notes are aligned to 4 or 8)",
                          kind, ph.p_vaddr, ph.p_align));
  const uint64_t alignment = ph.p_align == 8 ? 8 : 4;
  uint64_t at = 0;
  while (bytes.size() - at >= sizeof(Elf64_Nhdr)) {
    Elf64_Nhdr note{};
    if (!bytes.read(at, &note)) break;  // cannot fail: the loop condition checked the size
    // As ld.so's ELF_NOTE_DESC_OFFSET and ELF_NOTE_NEXT_OFFSET: the alignment is of offsets
    // from the note's start (the segment's start is aligned), not of the sizes.
    const uint64_t name_at = at + sizeof note;
    const uint64_t descriptor_at = at + align_up(sizeof note + note.n_namesz, alignment);
    const uint64_t end = at + align_up(descriptor_at - at + note.n_descsz, alignment);
    if (end > bytes.size())  // no overflow: each size < 2^32, the segment < 2^40
      return fail(strprintf("its %s at address 0x%" PRIx64 " has a note at byte %" PRIu64
                            " whose name (%u bytes) and descriptor (%u bytes) run past the "
                            "segment's %zu bytes",
                            kind, ph.p_vaddr, at, note.n_namesz, note.n_descsz, bytes.size()));
    const ByteReader name = bytes.slice(name_at, note.n_namesz);
    if (note.n_type == NT_GNU_PROPERTY_TYPE_0 && name.size() == 4 && name.starts_with("GNU", 4) &&
        !properties_fit(bytes.slice(descriptor_at, note.n_descsz)))
      return fail(strprintf("its %s at address 0x%" PRIx64 " has a GNU property note whose "
                            "properties run past its descriptor (%u bytes)",
                            kind, ph.p_vaddr, note.n_descsz));
    at = end;
  }
  return true;
}

}  // namespace anygpu::host_image
