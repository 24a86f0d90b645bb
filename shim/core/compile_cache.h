// The on-disk cache of run-time compiles (issue 18): a compile's output under a key that covers
// everything that changes it, one file per entry, shared by every process of the user.
//
// Layout: <directory>/v1/<first two hex digits of the key>/<key>.agc, directories made 0700.
// Only names of that form are ever read, counted or removed, so clear and eviction touch nothing
// else in the directory. An entry is written to a temporary file in its own directory
// (.<key>.<pid>.<random>.tmp) and renamed into place, so a reader sees a whole entry or none;
// eviction and clear tolerate files that other processes remove at the same time, and remove
// temporary files an hour old (their writer died).
//
// An entry file (integers little-endian):
//   magic "AGCCACHE" (8) | format version u32 (1) | key length u32 (64) | key (64, hex) |
//   image size u64 | log size u64 | SHA-256 of the two sizes, image and log (32) | image | log
// A reader checks the magic, the version, the key (the one it asked for), the sizes (bounded,
// and with the header exactly the file's length) and the checksum before handing anything back;
// an entry failing any of it is removed.
//
// Environment (read once, by instance()): ANYGPU_CACHE=0 disables it; ANYGPU_CACHE_DIR, else
// $XDG_CACHE_HOME/anygpu, else $HOME/.cache/anygpu; ANYGPU_CACHE_MAX_MB (default 1024): least
// recently used entries (by access time, refreshed on each hit) go beyond it.
#pragma once

#include <anygpu/anygpu.h>

#include <cstdint>
#include <string>

#include "shim/core/runtime_compiler.h"

namespace anygpu {

// The key: hex SHA-256 over every part that changes the result, each part length-prefixed:
// source name+text, each header name+text, defines, optimization, fast_math, vendor options,
// target architecture and max_ir_version, the compiler identity, the driver version text, and
// anygpu's version (AG_VERSION_* plus a build id of the library such as its GNU build-id or
// the compile date/time of compile_cache.cpp, so a rebuilt anygpu never reuses old entries).
std::string compile_cache_key(const CompileRequest& request, const std::string& compiler_identity,
                              const std::string& driver_version);

// What a cache is made with: instance() reads it from the environment; tests give their own.
struct CompileCacheConfig {
  bool enabled = true;
  std::string reason;     // why not enabled ("ANYGPU_CACHE=0")
  std::string directory;  // the cache's directory (v1/ goes under it)
  uint64_t max_bytes = 1024ull << 20;

  static CompileCacheConfig from_environment();
};

class CompileCache {
 public:
  static CompileCache& instance();  // configured from the environment on first use, then fixed

  // Makes <directory>/v1 (0700) when `config` is enabled; a directory that cannot be made or
  // written disables the cache, with the reason.
  explicit CompileCache(CompileCacheConfig config);

  bool enabled() const { return config_.enabled; }
  const std::string& directory() const { return config_.directory; }
  const std::string& reason() const { return config_.reason; }
  uint64_t max_bytes() const { return config_.max_bytes; }
  // Where the entry of `key` lives (whether or not it exists).
  std::string entry_path(const std::string& key) const;

  // true with `output` filled when a valid entry exists (its access time refreshed for LRU);
  // a corrupt, truncated or foreign entry is removed and false returned (logged at warn level).
  bool lookup(const std::string& key, CompileOutput& output);
  // Writes atomically (temporary file in the same directory, fsync not needed, rename), then
  // evicts least recently used entries beyond max_bytes. Failures are logged, never returned.
  void store(const std::string& key, const CompileOutput& output);
  void info(
      ag_compile_cache_info& info);  // fills entries/bytes by scanning; struct_size left alone
  void clear();

 private:
  void evict();

  CompileCacheConfig config_;
  std::string entries_;  // <directory>/v1
};

namespace compile_cache_detail {
// anygpu's version and the build id of the library (or program) this code is in.
const std::string& build_identity();
// compile_cache_key with the build identity given: how a test proves it is part of the key.
std::string key_with_build(const CompileRequest& request, const std::string& compiler_identity,
                           const std::string& driver_version, const std::string& build_identity);
}  // namespace compile_cache_detail

}  // namespace anygpu
