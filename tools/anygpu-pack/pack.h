// anygpu-pack's commands and the helpers they share. Each command takes the arguments after its
// name and returns the exit status: 0 done, 1 failed (with a message on stderr), 2 bad usage.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "shim/kernel_build/kernel_discovery.h"

namespace anygpu_pack {

int create_command(const std::vector<std::string>& args);
int list_command(const std::vector<std::string>& args);
int extract_command(const std::vector<std::string>& args);
int kernels_command(const std::vector<std::string>& args);
int shared_memory_command(const std::vector<std::string>& args);
int block_order_command(const std::vector<std::string>& args);
int subgroup_size_command(const std::vector<std::string>& args);
int portable_source_command(const std::vector<std::string>& args);

bool read_file(const std::string& path, std::vector<unsigned char>* bytes, std::string* error);
bool write_file(const std::string& path, const unsigned char* data, size_t size,
                std::string* error);
// Reads the discovery object at `path` (shim/kernel_build/kernel_discovery.h) into `found`.
bool discover_kernels(const std::string& path, anygpu::DiscoveredKernels* found,
                      std::string* error);

// Appends every part to `text`, in order: the generated files are built line by line.
inline void append_all(std::string* text, std::initializer_list<std::string_view> parts) {
  for (std::string_view part : parts) text->append(part);
}

// Prints "anygpu-pack: <message>" on stderr; returns 1.
int report(const std::string& message);
// Prints the usage on stderr; returns 2.
int usage();

}  // namespace anygpu_pack
