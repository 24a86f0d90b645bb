// anygpu-info: the backends anygpu knows (available or why not) and the devices it found.
//   anygpu-info [--json]
//   anygpu-info --cache [--json]   the compile cache: where, enabled or why not, size, limit
//   anygpu-info --clear-cache      removes the compile cache's entries
//   anygpu-info --compilers [--json]  each backend's run-time compiler, or what to install
#include <anygpu/anygpu.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

namespace {

std::string json_string(const char* text) {
  std::string out = "\"";
  for (const char* c = text; *c; ++c) {
    const unsigned char ch = static_cast<unsigned char>(*c);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += *c;
    } else if (ch < 0x20) {
      char escaped[8];
      snprintf(escaped, sizeof escaped, "\\u%04x", ch);
      out += escaped;
    } else {
      out += *c;
    }
  }
  return out + "\"";
}

int fail(const char* what, ag_result result) {
  const char* detail = "";
  agGetLastErrorDetail(&detail);
  fprintf(stderr, "anygpu-info: %s failed: %s\n", what, detail);
  return 1;
}

std::string mebibytes(uint64_t bytes) {
  char text[64];
  snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / 1048576.0);
  return text;
}

// --cache: the compile cache, as agCompileCacheGetInfo reports it.
int print_cache(bool json) {
  ag_compile_cache_info info{};
  info.struct_size = sizeof info;
  if (ag_result r = agCompileCacheGetInfo(&info)) return fail("agCompileCacheGetInfo", r);
  if (json) {
    printf(
        "{\n  \"compile_cache\": {\"directory\": %s, \"enabled\": %s, \"reason\": %s, "
        "\"entries\": %llu, \"bytes\": %llu, \"max_bytes\": %llu}\n}\n",
        json_string(info.directory).c_str(), info.enabled ? "true" : "false",
        json_string(info.reason).c_str(), (unsigned long long)info.entries,
        (unsigned long long)info.bytes, (unsigned long long)info.max_bytes);
    return 0;
  }
  printf("Compile cache:\n");
  printf("  location  %s\n", info.directory[0] ? info.directory : "(none)");
  if (info.enabled)
    printf("  enabled   yes\n");
  else
    printf("  enabled   no: %s\n", info.reason);
  printf("  size      %s (%llu bytes)\n", mebibytes(info.bytes).c_str(),
         (unsigned long long)info.bytes);
  printf("  entries   %llu\n", (unsigned long long)info.entries);
  printf("  limit     %s (ANYGPU_CACHE_MAX_MB)\n", mebibytes(info.max_bytes).c_str());
  return 0;
}

// --clear-cache: removes the entries and says how many there were.
int clear_cache() {
  ag_compile_cache_info before{};
  before.struct_size = sizeof before;
  if (ag_result r = agCompileCacheGetInfo(&before)) return fail("agCompileCacheGetInfo", r);
  if (ag_result r = agCompileCacheClear()) return fail("agCompileCacheClear", r);
  ag_compile_cache_info after{};
  after.struct_size = sizeof after;
  if (ag_result r = agCompileCacheGetInfo(&after)) return fail("agCompileCacheGetInfo", r);
  const unsigned long long removed =
      before.entries > after.entries ? before.entries - after.entries : 0;
  printf("Removed %llu compile cache entr%s (%s) from %s\n", removed, removed == 1 ? "y" : "ies",
         mebibytes(before.bytes > after.bytes ? before.bytes - after.bytes : 0).c_str(),
         before.directory[0] ? before.directory : "(none)");
  if (after.entries) {
    fprintf(stderr, "anygpu-info: %llu entries remain (not removable, or written since)\n",
            (unsigned long long)after.entries);
    return 1;
  }
  return 0;
}

// --compilers: each backend's run-time compiler, as agBackendGetCompilerInfo reports it.
int print_compilers(bool json) {
  int count = 0;
  if (ag_result r = agBackendGetCount(&count)) return fail("agBackendGetCount", r);
  printf(json ? "{\n  \"compilers\": [" : "Run-time compilers:\n");
  for (int i = 0; i < count; ++i) {
    ag_backend_info backend{};
    backend.struct_size = sizeof backend;
    if (ag_result r = agBackendGetInfo(i, &backend)) return fail("agBackendGetInfo", r);
    ag_compiler_info info{};
    info.struct_size = sizeof info;
    if (ag_result r = agBackendGetCompilerInfo(i, &info))
      return fail("agBackendGetCompilerInfo", r);
    if (json)
      printf("%s\n    {\"backend\": %s, \"available\": %s, \"compiler\": %s, \"reason\": %s}",
             i ? "," : "", json_string(backend.name).c_str(), info.available ? "true" : "false",
             json_string(info.compiler).c_str(), json_string(info.reason).c_str());
    else if (info.available)
      printf("  %-11s %s\n", backend.label, info.compiler);
    else
      printf("  %-11s none: %s\n", backend.label, info.reason);
  }
  if (json) printf("\n  ]\n}\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false, cache = false, clear = false, compilers = false;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (strcmp(argv[i], "--cache") == 0) {
      cache = true;
    } else if (strcmp(argv[i], "--clear-cache") == 0) {
      clear = true;
    } else if (strcmp(argv[i], "--compilers") == 0) {
      compilers = true;
    } else {
      fprintf(stderr,
              "usage: anygpu-info [--json] | --cache [--json] | --clear-cache | "
              "--compilers [--json]\n");
      return strcmp(argv[i], "--help") == 0 ? 0 : 2;
    }
  }
  if (clear) return clear_cache();
  if (cache) return print_cache(json);
  if (compilers) return print_compilers(json);
  int version = 0, backend_count = 0, device_count = 0;
  if (ag_result r = agGetVersion(&version)) return fail("agGetVersion", r);
  if (ag_result r = agBackendGetCount(&backend_count)) return fail("agBackendGetCount", r);
  if (ag_result r = agDeviceGetCount(&device_count)) return fail("agDeviceGetCount", r);

  if (json)
    printf("{\n  \"version\": \"%d.%d.%d\",\n  \"backends\": [", version / 10000,
           version / 100 % 100, version % 100);
  else
    printf("anygpu %d.%d.%d\n\nBackends:\n", version / 10000, version / 100 % 100, version % 100);
  std::map<int, std::string> labels;  // backend kind -> "Level Zero", for the devices below
  for (int i = 0; i < backend_count; ++i) {
    ag_backend_info info{};
    info.struct_size = sizeof info;
    if (ag_result r = agBackendGetInfo(i, &info)) return fail("agBackendGetInfo", r);
    labels[info.kind] = info.label;
    if (json) {
      printf(
          "%s\n    {\"name\": %s, \"available\": %s, \"devices\": %d, \"library\": %s, "
          "\"reason\": %s}",
          i ? "," : "", json_string(info.name).c_str(), info.available ? "true" : "false",
          info.device_count, json_string(info.library).c_str(), json_string(info.reason).c_str());
    } else if (info.available) {
      printf("  %-11s available, %d device(s)%s%s\n", info.label, info.device_count,
             info.library[0] ? ", " : "", info.library);
    } else {
      printf("  %-11s unavailable: %s\n", info.label, info.reason);
    }
  }
  if (json)
    printf("\n  ],\n  \"devices\": [");
  else
    printf("\nDevices:%s\n", device_count ? "" : " none");
  for (int i = 0; i < device_count; ++i) {
    ag_device device;
    ag_device_properties p{};
    p.struct_size = sizeof p;
    if (ag_result r = agDeviceGet(i, &device)) return fail("agDeviceGet", r);
    if (ag_result r = agDeviceGetProperties(device, &p)) return fail("agDeviceGetProperties", r);
    if (json) {
      printf(
          "%s\n    {\"ordinal\": %d, \"name\": %s, \"vendor\": %s, \"backend\": %s, "
          "\"architecture\": %s, \"total_memory\": %llu, \"compute_units\": %d, "
          "\"max_threads_per_block\": %d, \"max_block_dim\": [%d, %d, %d], "
          "\"max_grid_dim\": [%d, %d, %d], \"shared_memory_per_block\": %llu, "
          "\"warp_size\": %d, \"shared_memory_per_block_optin\": %llu, "
          "\"compute_capability\": [%d, %d], \"pci\": [%d, %d, %d], \"clock_rate_khz\": %d, "
          "\"l2_cache_bytes\": %llu, \"driver_version\": %d}",
          i ? "," : "", p.ordinal, json_string(p.name).c_str(), json_string(p.vendor).c_str(),
          json_string(labels[p.backend].c_str()).c_str(), json_string(p.architecture).c_str(),
          (unsigned long long)p.total_memory, p.compute_units, p.max_threads_per_block,
          p.max_block_dim[0], p.max_block_dim[1], p.max_block_dim[2], p.max_grid_dim[0],
          p.max_grid_dim[1], p.max_grid_dim[2], (unsigned long long)p.shared_memory_per_block,
          p.warp_size, (unsigned long long)p.shared_memory_per_block_optin,
          p.compute_capability_major, p.compute_capability_minor, p.pci_domain_id, p.pci_bus_id,
          p.pci_device_id, p.clock_rate_khz, (unsigned long long)p.l2_cache_bytes,
          p.driver_version);
    } else {
      printf("  [%d] %s (%s, %s backend)\n", p.ordinal, p.name, p.vendor,
             labels[p.backend].c_str());
      printf("      architecture        %s\n", p.architecture);
      printf("      memory              %.1f GiB\n",
             static_cast<double>(p.total_memory) / 1073741824.0);
      printf("      compute units       %d\n", p.compute_units);
      printf("      threads per block   %d (block %d x %d x %d, grid %d x %d x %d)\n",
             p.max_threads_per_block, p.max_block_dim[0], p.max_block_dim[1], p.max_block_dim[2],
             p.max_grid_dim[0], p.max_grid_dim[1], p.max_grid_dim[2]);
      printf("      shared memory       %llu bytes per block (opt-in up to %llu)\n",
             (unsigned long long)p.shared_memory_per_block,
             (unsigned long long)p.shared_memory_per_block_optin);
      printf("      warp size           %d\n", p.warp_size);
      if (p.compute_capability_major)
        printf("      compute capability  %d.%d\n", p.compute_capability_major,
               p.compute_capability_minor);
      if (p.pci_bus_id >= 0)
        printf("      PCI                 %04x:%02x:%02x\n", p.pci_domain_id, p.pci_bus_id,
               p.pci_device_id);
      if (p.clock_rate_khz) printf("      clock               %d MHz\n", p.clock_rate_khz / 1000);
      if (p.l2_cache_bytes)
        printf("      L2 cache            %llu KiB\n", (unsigned long long)p.l2_cache_bytes >> 10);
      printf("      driver version      %d\n", p.driver_version);
    }
  }
  if (json) printf("\n  ]\n}\n");
  return 0;
}
