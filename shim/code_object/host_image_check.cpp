#include "shim/code_object/host_image_check.h"

#include <cinttypes>

#include "shim/code_object/elf_reader.h"
#include "shim/code_object/host_image_checker.h"

namespace anygpu::host_image {
namespace {

// More would make ld.so copy the table to its stack (alloca); real objects have about a dozen.
constexpr uint16_t kMaxProgramHeaders = 64;
// Beyond any real object; keeps every address sum far from overflowing.
constexpr uint64_t kMaxAddress = uint64_t{1} << 40;

const char* segment_name(uint32_t type) {
  switch (type) {
    case PT_LOAD:
      return "PT_LOAD";
    case PT_DYNAMIC:
      return "PT_DYNAMIC";
    case PT_TLS:
      return "PT_TLS";
    case PT_NOTE:
      return "PT_NOTE";
    case PT_GNU_RELRO:
      return "PT_GNU_RELRO";
    case PT_GNU_PROPERTY:
      return "PT_GNU_PROPERTY";
    default:
      return "segment";
  }
}

}  // namespace

bool HostImageChecker::run() {
  return header() && program_headers() && sections() && dynamic_entries() && strings() &&
         hash_tables() && symbols() && versions() && relocations() && init_arrays() && marker();
}

bool HostImageChecker::header() {
  ElfHeader header;
  if (!read_elf_header(image_, &header, error_)) return false;
  image_.read(0, &ehdr_);
  if (ehdr_.e_ident[EI_VERSION] != EV_CURRENT || ehdr_.e_version != EV_CURRENT)
    return fail("its ELF version is not 1");
  if (ehdr_.e_type != ET_DYN)
    return fail(strprintf("it is not a shared object (ELF type %u)", ehdr_.e_type));
  if (ehdr_.e_machine != machine_)
    return fail(strprintf("it is for ELF machine %u, not %u", ehdr_.e_machine, machine_));
  if (ehdr_.e_phentsize != sizeof(Elf64_Phdr))
    return fail(
        strprintf("its program header size is %u, not %zu", ehdr_.e_phentsize, sizeof(Elf64_Phdr)));
  if (ehdr_.e_phnum == 0 || ehdr_.e_phnum > kMaxProgramHeaders)
    return fail(strprintf("it has %u program headers (1 to %u expected)", ehdr_.e_phnum,
                          kMaxProgramHeaders));
  const uint64_t bytes = uint64_t{ehdr_.e_phnum} * sizeof(Elf64_Phdr);
  if (!image_.contains(ehdr_.e_phoff, bytes))
    return fail(strprintf("its program header table (bytes %" PRIu64 "..%" PRIu64
                          ") lies past the image's end (%zu bytes)",
                          ehdr_.e_phoff, ehdr_.e_phoff + bytes, image_.size()));
  return true;
}

bool HostImageChecker::segment(unsigned index, const Elf64_Phdr& ph) {
  const char* name = segment_name(ph.p_type);
  if (!image_.contains(ph.p_offset, ph.p_filesz))
    return fail(strprintf("program header %u (%s) bytes %" PRIu64 "..%" PRIu64
                          " lie past the image's end (%zu bytes)",
                          index, name, ph.p_offset, ph.p_offset + ph.p_filesz, image_.size()));
  if (ph.p_filesz > ph.p_memsz)
    return fail(strprintf("program header %u (%s) has more file bytes (%" PRIu64
                          ") than memory bytes (%" PRIu64 ")",
                          index, name, ph.p_filesz, ph.p_memsz));
  if (ph.p_vaddr > kMaxAddress || ph.p_memsz > kMaxAddress)
    return fail(strprintf("program header %u (%s) is at address 0x%" PRIx64 " with %" PRIu64
                          " bytes, beyond any host code object",
                          index, name, ph.p_vaddr, ph.p_memsz));
  if (!power_of_two_or_zero(ph.p_align) ||
      (ph.p_align > 1 && (ph.p_vaddr - ph.p_offset) % ph.p_align != 0))
    return fail(strprintf("program header %u (%s) has alignment %" PRIu64
                          " that its address 0x%" PRIx64 " and offset %" PRIu64 " do not keep",
                          index, name, ph.p_align, ph.p_vaddr, ph.p_offset));
  return true;
}

bool HostImageChecker::program_headers() {
  std::vector<Elf64_Phdr> others;
  for (unsigned i = 0; i < ehdr_.e_phnum; ++i) {
    Elf64_Phdr ph{};
    image_.read(ehdr_.e_phoff + uint64_t{i} * sizeof ph, &ph);  // header() checked the table
    if (!segment(i, ph)) return false;
    if (ph.p_type == PT_LOAD) {
      // ld.so maps the span from the first PT_LOAD to the last: they must ascend, apart.
      if (!loads_.empty() && ph.p_vaddr < loads_.back().p_vaddr + loads_.back().p_memsz)
        return fail(strprintf("program header %u (PT_LOAD) at 0x%" PRIx64
                              " overlaps or precedes the PT_LOAD before it",
                              i, ph.p_vaddr));
      if (!(ph.p_flags & PF_R))
        return fail(strprintf("program header %u (PT_LOAD) is not readable", i));
      if (!loads_.empty() && ph.p_filesz != 0 &&
          ph.p_offset < loads_.back().p_offset + loads_.back().p_filesz)
        return fail(strprintf("program header %u (PT_LOAD) maps file bytes from %" PRIu64
                              ", inside the PT_LOAD before it",
                              i, ph.p_offset));
      loads_.push_back(ph);
    } else if (ph.p_type == PT_DYNAMIC || ph.p_type == PT_TLS) {
      Elf64_Phdr& slot = ph.p_type == PT_DYNAMIC ? dynamic_ : tls_;
      if (slot.p_type != PT_NULL)
        return fail(strprintf("program header %u is a second %s", i, segment_name(ph.p_type)));
      slot = ph;
    }
    if (ph.p_type == PT_NOTE || ph.p_type == PT_GNU_PROPERTY || ph.p_type == PT_GNU_RELRO)
      others.push_back(ph);
  }
  if (loads_.empty()) return fail("it has no PT_LOAD program header");
  if (dynamic_.p_type == PT_NULL) return fail("it has no PT_DYNAMIC program header");
  // ld.so reads these from the mapped image (notes, TLS template) or protects them (RELRO).
  ByteReader bytes;
  for (const Elf64_Phdr& ph : others) {
    const bool ok = ph.p_type == PT_GNU_RELRO ? writable(ph.p_vaddr, ph.p_memsz)
                                              : mapped_bytes(ph.p_vaddr, ph.p_filesz, &bytes);
    if (!ok)
      return fail(strprintf("its %s at address 0x%" PRIx64 " is not inside a (writable) PT_LOAD",
                            segment_name(ph.p_type), ph.p_vaddr));
    if (ph.p_type != PT_GNU_RELRO && !notes(ph, bytes)) return false;
  }
  if (tls_.p_type == PT_TLS &&
      (!mapped_bytes(tls_.p_vaddr, tls_.p_filesz, &bytes) || tls_.p_align > 4096))
    return fail("its PT_TLS template is not inside a PT_LOAD or is aligned beyond 4096");
  if (!table("PT_DYNAMIC", dynamic_.p_vaddr, dynamic_.p_filesz, &dynamic_bytes_)) return false;
  return true;
}

// ld.so does not read sections, but a section table or a section that lies past the end says
// the image was cut short (the linker writes the section table last).
// Each allocated section must also be where the PT_LOADs map it: a program header whose
// offset, address or size disagrees with the sections would map other bytes as code.
bool HostImageChecker::sections() {
  std::vector<ElfSection> all;
  std::string problem;
  if (!read_elf_sections(image_, &all, &problem))
    return fail("it is cut short or corrupt: " + problem);
  for (size_t i = 0; i < all.size(); ++i) {
    const ElfSection& section = all[i];
    if (!(section.flags & SHF_ALLOC) || section.size == 0 || (section.flags & SHF_TLS)) continue;
    const bool nobits = section.type == SHT_NOBITS;
    ByteReader mapped;
    const bool ok = nobits ? load_holding(section.address, section.size) != nullptr
                           : mapped_bytes(section.address, section.size, &mapped) &&
                                 mapped.data() == image_.data() + section.offset;
    if (!ok)
      return fail(strprintf("its section %zu ('%.*s', %" PRIu64 " bytes at 0x%" PRIx64
                            ") is not where its program headers map it",
                            i, static_cast<int>(section.name.size()), section.name.data(),
                            section.size, section.address));
  }
  return true;
}

}  // namespace anygpu::host_image

namespace anygpu {

bool check_host_image(ByteReader image, uint16_t machine, std::string* error) {
  if (machine != EM_X86_64 && machine != EM_AARCH64) {
    *error = strprintf("ELF machine %u is not a host anygpu runs on", machine);
    return false;
  }
  return host_image::HostImageChecker(image, machine, error).run();
}

}  // namespace anygpu
