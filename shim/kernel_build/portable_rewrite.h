// The text of a portable source (shim/code_object/portable_source.h) from clang's
// `-E -frewrite-includes` output of a kernel source: the application's headers stay inlined,
// while anygpu's headers and the system's go back to being #include lines (the run-time compiler
// has its own: anygpu's are built into libanygpu), and the conditions clang evaluated for the
// build's target (`#if __AMDGCN_WAVEFRONT_SIZE__ == 64` became `#if 1`) are restored, so that
// the text compiles for any target of the family.
#pragma once

#include <string>
#include <vector>

namespace anygpu {

// `rewritten`: clang's output for the source (with or without -include). `library_directories`:
// directories whose headers are left as #include lines besides the system's (clang marks those),
// such as anygpu's include directory. Line markers name only the file, not its directory. False
// with `error` when the output is not what clang writes (an unbalanced block).
bool make_portable_text(const std::string& rewritten,
                        const std::vector<std::string>& library_directories, std::string* text,
                        std::string* error);

}  // namespace anygpu
