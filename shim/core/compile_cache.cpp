#include "shim/core/compile_cache.h"

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "shim/core/environment.h"
#include "shim/core/log.h"
#include "shim/support/sha256.h"
#include "shim/support/string_format.h"

namespace anygpu {
namespace {

constexpr char kMagic[8] = {'A', 'G', 'C', 'C', 'A', 'C', 'H', 'E'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kKeyLength = 64;
constexpr size_t kHeaderSize = 8 + 4 + 4 + kKeyLength + 8 + 8 + 32;  // 128
// Bounds on what a reader believes of a header before it allocates anything.
constexpr uint64_t kMaxImageBytes = 1ull << 30;
constexpr uint64_t kMaxLogBytes = 64ull << 20;
constexpr const char* kEntrySuffix = ".agc";
// A temporary file this old is a writer's that died; clear() removes it.
constexpr time_t kStaleTemporarySeconds = 3600;

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

bool valid_key(const std::string& key) {
  return key.size() == kKeyLength && std::all_of(key.begin(), key.end(), is_hex);
}

// "<64 hex>.agc" in the shard directory named by its first two digits.
bool is_entry_name(const char* name, const char* shard) {
  const size_t length = strlen(name);
  if (length != kKeyLength + 4 || strcmp(name + kKeyLength, kEntrySuffix) != 0) return false;
  if (name[0] != shard[0] || name[1] != shard[1]) return false;
  return std::all_of(name, name + kKeyLength, is_hex);
}

bool is_shard_name(const char* name) {
  return is_hex(name[0]) && is_hex(name[1]) && name[2] == '\0';
}

// ".<64 hex>.<pid>.<random>.tmp": a writer's temporary file.
bool is_temporary_name(const char* name) {
  const size_t length = strlen(name);
  return name[0] == '.' && length > kKeyLength + 5 && strcmp(name + length - 4, ".tmp") == 0 &&
         std::all_of(name + 1, name + 1 + kKeyLength, is_hex);
}

void put_u32(unsigned char* out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}
void put_u64(unsigned char* out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}
uint32_t get_u32(const unsigned char* in) {
  uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = value << 8 | in[i];
  return value;
}
uint64_t get_u64(const unsigned char* in) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = value << 8 | in[i];
  return value;
}

// Reads exactly `size` bytes at `offset`; false on an error or an early end of file.
bool read_exact(int fd, void* data, size_t size, off_t offset) {
  char* out = static_cast<char*>(data);
  while (size) {
    const ssize_t n = pread(fd, out, size, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    out += n;
    size -= static_cast<size_t>(n);
    offset += n;
  }
  return true;
}

bool write_all(int fd, const void* data, size_t size) {
  const char* in = static_cast<const char*>(data);
  while (size) {
    const ssize_t n = write(fd, in, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    in += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// mkdir -p with `mode` for the directories it makes; "" or what failed.
std::string make_directories(const std::string& path, mode_t mode) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    const std::string prefix = path.substr(0, slash);
    if (!prefix.empty() && mkdir(prefix.c_str(), mode) != 0 && errno != EEXIST)
      return strprintf("cannot make %s: %s", prefix.c_str(), strerror(errno));
    if (slash == std::string::npos) break;
  }
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return strprintf("cannot make %s: %s", path.c_str(), strerror(errno));
  if (!S_ISDIR(st.st_mode)) return strprintf("%s is not a directory", path.c_str());
  if (access(path.c_str(), W_OK | X_OK) != 0)
    return strprintf("cannot write to %s: %s", path.c_str(), strerror(errno));
  return "";
}

// "" when `path` is a directory (not a link to one) of this user that others cannot write to:
// an entry may be a host library that gets loaded, so nobody else may put one there.
std::string check_owned(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0)
    return strprintf("cannot check %s: %s", path.c_str(), strerror(errno));
  if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022) != 0)
    return path + " is not owned by this user or is writable by others";
  return "";
}

struct EntryFile {
  std::string path;
  uint64_t bytes;
  struct timespec accessed;
};

// Every entry under `entries` (<directory>/v1); `temporaries` (if given) gets the writers'
// temporary files older than kStaleTemporarySeconds. Files that vanish while it looks are skipped.
std::vector<EntryFile> scan(const std::string& entries,
                            std::vector<std::string>* temporaries = nullptr) {
  std::vector<EntryFile> found;
  DIR* top = opendir(entries.c_str());
  if (!top) return found;
  const time_t now = time(nullptr);
  while (const dirent* shard = readdir(top)) {
    if (!is_shard_name(shard->d_name)) continue;
    const std::string shard_path = entries + "/" + shard->d_name;
    DIR* dir = opendir(shard_path.c_str());
    if (!dir) continue;
    while (const dirent* file = readdir(dir)) {
      const bool entry = is_entry_name(file->d_name, shard->d_name);
      if (!entry && !(temporaries && is_temporary_name(file->d_name))) continue;
      std::string path = shard_path + "/" + file->d_name;
      struct stat st;
      if (lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
      if (entry)
        found.push_back({std::move(path), static_cast<uint64_t>(st.st_size), st.st_atim});
      else if (now - st.st_mtime > kStaleTemporarySeconds)
        temporaries->push_back(std::move(path));
    }
    closedir(dir);
  }
  closedir(top);
  return found;
}

// The entry's checksum: over the two sizes (the header's 16 bytes after the key), so that a
// payload split differently between image and log does not pass, then the image and the log.
Sha256Digest payload_checksum(const unsigned char* header, const std::vector<unsigned char>& image,
                              const std::string& log) {
  Sha256 hash;
  hash.update(header + 16 + kKeyLength, 16);
  hash.update(image.data(), image.size());
  hash.update(log);
  return hash.finish();
}

bool earlier(const struct timespec& a, const struct timespec& b) {
  return a.tv_sec != b.tv_sec ? a.tv_sec < b.tv_sec : a.tv_nsec < b.tv_nsec;
}

// A name no other writer (process or thread) uses at the same time.
std::string temporary_suffix() {
  static std::atomic<uint64_t> counter{0};
  thread_local std::mt19937_64 generator = [] {
    std::random_device device;
    return std::mt19937_64((uint64_t(device()) << 32) ^ device() ^
                           uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
  }();
  return strprintf(".%ld.%016llx%llx.tmp", static_cast<long>(getpid()),
                   static_cast<unsigned long long>(generator()),
                   static_cast<unsigned long long>(counter.fetch_add(1)));
}

// The GNU build-id of the loaded object (libanygpu.so, or the program libanygpu.a is linked into)
// that holds this function, in hex; "" where it has none.
std::string gnu_build_id() {
  struct Search {
    uintptr_t address;
    std::string id;
  } search{reinterpret_cast<uintptr_t>(&gnu_build_id), ""};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) -> int {
        Search& s = *static_cast<Search*>(data);
        bool here = false;
        for (int i = 0; i < info->dlpi_phnum && !here; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          const uintptr_t start = info->dlpi_addr + ph.p_vaddr;
          here = ph.p_type == PT_LOAD && s.address >= start && s.address < start + ph.p_memsz;
        }
        if (!here) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE) continue;
          const unsigned char* note =
              reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
          const unsigned char* end = note + ph.p_memsz;
          while (note + sizeof(ElfW(Nhdr)) <= end) {
            ElfW(Nhdr) header;
            memcpy(&header, note, sizeof header);
            const unsigned char* name = note + sizeof header;
            const unsigned char* desc = name + ((header.n_namesz + 3) & ~3u);
            const unsigned char* next = desc + ((header.n_descsz + 3) & ~3u);
            if (next > end || next <= note) break;
            if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
                memcmp(name, "GNU", 4) == 0) {
              s.id = to_hex(desc, header.n_descsz);
              return 1;
            }
            note = next;
          }
        }
        return 1;
      },
      &search);
  return search.id;
}

// One part of the key: its length (8 bytes, little-endian), then its bytes.
void key_part(Sha256& hash, const std::string& part) {
  unsigned char length[8];
  put_u64(length, part.size());
  hash.update(length, sizeof length);
  hash.update(part);
}

void key_list(Sha256& hash, const std::vector<std::string>& parts) {
  key_part(hash, std::to_string(parts.size()));
  for (const std::string& part : parts) key_part(hash, part);
}

}  // namespace

namespace compile_cache_detail {

const std::string& build_identity() {
  static const std::string identity =
      strprintf("anygpu %d.%d.%d build-id %s compiled %s %s", AG_VERSION_MAJOR, AG_VERSION_MINOR,
                AG_VERSION_PATCH, gnu_build_id().c_str(), __DATE__, __TIME__);
  return identity;
}

std::string key_with_build(const CompileRequest& request, const std::string& compiler_identity,
                           const std::string& driver_version, const std::string& build_identity) {
  Sha256 hash;
  key_part(hash, "anygpu compile cache key 1");
  key_part(hash, request.source.name);
  key_part(hash, request.source.text);
  key_part(hash, std::to_string(request.more_sources.size()));
  for (const SourceFile& source : request.more_sources) {
    key_part(hash, source.name);
    key_part(hash, source.text);
  }
  key_part(hash, request.from_portable_source ? "portable" : "");
  key_part(hash, std::to_string(request.headers.size()));
  for (const SourceFile& header : request.headers) {
    key_part(hash, header.name);
    key_part(hash, header.text);
  }
  key_list(hash, request.options.defines);
  key_part(hash, std::to_string(request.options.optimization));
  key_part(hash, request.options.fast_math ? "fast_math" : "");
  key_list(hash, request.options.vendor);
  key_part(hash, request.target.architecture);
  key_part(hash, std::to_string(request.target.max_ir_version));
  key_part(hash, compiler_identity);
  key_part(hash, driver_version);
  key_part(hash, build_identity);
  return to_hex(hash.finish());
}

}  // namespace compile_cache_detail

std::string compile_cache_key(const CompileRequest& request, const std::string& compiler_identity,
                              const std::string& driver_version) {
  return compile_cache_detail::key_with_build(request, compiler_identity, driver_version,
                                              compile_cache_detail::build_identity());
}

CompileCacheConfig CompileCacheConfig::from_environment() {
  CompileCacheConfig config;
  const std::string max_mb = environment("ANYGPU_CACHE_MAX_MB");
  if (!max_mb.empty()) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long value = strtoull(max_mb.c_str(), &end, 10);
    if (errno || *end || max_mb[0] == '-' || value > (UINT64_MAX >> 20))
      log(LogLevel::warn, "ANYGPU_CACHE_MAX_MB=%s is not a number of MiB; using %llu",
          max_mb.c_str(), static_cast<unsigned long long>(config.max_bytes >> 20));
    else
      config.max_bytes = static_cast<uint64_t>(value) << 20;
  }
  const std::string directory = environment("ANYGPU_CACHE_DIR");
  const std::string xdg = environment("XDG_CACHE_HOME");
  const std::string home = environment("HOME");
  if (!directory.empty())
    config.directory = directory;
  else if (!xdg.empty() && xdg[0] == '/')  // the XDG spec ignores a relative one
    config.directory = xdg + "/anygpu";
  else if (!home.empty())
    config.directory = home + "/.cache/anygpu";
  while (config.directory.size() > 1 && config.directory.back() == '/') config.directory.pop_back();

  const std::string switch_value = environment("ANYGPU_CACHE");
  if (switch_value == "0" || switch_value == "off" || switch_value == "false" ||
      switch_value == "no") {
    config.enabled = false;
    config.reason = "ANYGPU_CACHE=" + switch_value;
  } else if (config.directory.empty()) {
    config.enabled = false;
    config.reason = "no directory: none of ANYGPU_CACHE_DIR, XDG_CACHE_HOME and HOME is set";
  } else if (config.max_bytes == 0) {
    config.enabled = false;
    config.reason = "ANYGPU_CACHE_MAX_MB=0";
  }
  return config;
}

CompileCache& CompileCache::instance() {
  // Never destroyed: other threads may still compile while the process exits.
  static CompileCache* cache = new CompileCache(CompileCacheConfig::from_environment());
  return *cache;
}

CompileCache::CompileCache(CompileCacheConfig config)
    : config_(std::move(config)), entries_(config_.directory + "/v1") {
  if (!config_.enabled) {
    log(LogLevel::info, "compile cache disabled: %s", config_.reason.c_str());
    return;
  }
  std::string failure = make_directories(entries_, 0700);
  if (failure.empty()) failure = check_owned(config_.directory);
  if (failure.empty()) failure = check_owned(entries_);
  if (!failure.empty()) {
    config_.enabled = false;
    config_.reason = std::move(failure);
    log(LogLevel::warn, "compile cache disabled: %s", config_.reason.c_str());
  }
}

std::string CompileCache::entry_path(const std::string& key) const {
  return entries_ + "/" + key.substr(0, 2) + "/" + key + kEntrySuffix;
}

bool CompileCache::lookup(const std::string& key, CompileOutput& output) {
  if (!config_.enabled || !valid_key(key)) return false;
  const std::string path = entry_path(key);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno != ENOENT)
      log(LogLevel::warn, "compile cache: cannot open %s: %s", path.c_str(), strerror(errno));
    return false;
  }
  struct stat st{};
  const char* problem = nullptr;
  unsigned char header[kHeaderSize];
  CompileOutput read;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    problem = "not a readable file";
  } else if (static_cast<uint64_t>(st.st_size) < kHeaderSize) {
    problem = "shorter than an entry's header";
  } else if (!read_exact(fd, header, kHeaderSize, 0)) {
    problem = "its header cannot be read";
  } else if (memcmp(header, kMagic, sizeof kMagic) != 0) {
    problem = "not an anygpu cache entry (magic)";
  } else if (get_u32(header + 8) != kFormatVersion) {
    problem = "an entry of another format version";
  } else if (get_u32(header + 12) != kKeyLength ||
             memcmp(header + 16, key.data(), kKeyLength) != 0) {
    problem = "the entry of another key";
  } else {
    const uint64_t image_size = get_u64(header + 16 + kKeyLength);
    const uint64_t log_size = get_u64(header + 24 + kKeyLength);
    if (image_size > kMaxImageBytes || log_size > kMaxLogBytes) {
      problem = "sizes out of bounds";
    } else if (kHeaderSize + image_size + log_size != static_cast<uint64_t>(st.st_size)) {
      problem = "its length does not match its header (truncated or extended)";
    } else {
      read.image.resize(image_size);
      read.log.resize(log_size);
      if (!read_exact(fd, read.image.data(), image_size, kHeaderSize) ||
          !read_exact(fd, &read.log[0], log_size, static_cast<off_t>(kHeaderSize + image_size))) {
        problem = "its payload cannot be read";
      } else {
        const Sha256Digest digest = payload_checksum(header, read.image, read.log);
        if (memcmp(digest.data(), header + 32 + kKeyLength, digest.size()) != 0)
          problem = "its checksum does not match its payload";
      }
    }
  }
  if (problem) {
    log(LogLevel::warn, "compile cache: removing %s: %s", path.c_str(), problem);
    // Only the file read: another process may have renamed a good entry into place since.
    struct stat now;
    if (stat(path.c_str(), &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino &&
        unlink(path.c_str()) != 0 && errno != ENOENT)
      log(LogLevel::warn, "compile cache: cannot remove %s: %s", path.c_str(), strerror(errno));
    close(fd);
    return false;
  }
  // The access time is what eviction orders by; set it whatever the mount's atime policy.
  const struct timespec times[2] = {{0, UTIME_NOW}, {0, UTIME_OMIT}};
  futimens(fd, times);
  close(fd);
  output = std::move(read);
  return true;
}

void CompileCache::store(const std::string& key, const CompileOutput& output) {
  if (!config_.enabled) return;
  if (!valid_key(key)) {
    log(LogLevel::warn, "compile cache: not storing under \"%s\", which is not a key", key.c_str());
    return;
  }
  const uint64_t total = kHeaderSize + output.image.size() + output.log.size();
  if (output.image.size() > kMaxImageBytes || output.log.size() > kMaxLogBytes ||
      total > config_.max_bytes) {
    log(LogLevel::info,
        "compile cache: not storing %s: %llu bytes, more than an entry may hold or the cache's "
        "limit (%llu)",
        key.c_str(), static_cast<unsigned long long>(total),
        static_cast<unsigned long long>(config_.max_bytes));
    return;
  }
  const std::string shard = entries_ + "/" + key.substr(0, 2);
  // The whole path again where the directory was removed since (a user's rm -r).
  if (mkdir(shard.c_str(), 0700) != 0 && errno != EEXIST) {
    const std::string failure = make_directories(shard, 0700);
    if (!failure.empty()) {
      log(LogLevel::warn, "compile cache: %s", failure.c_str());
      return;
    }
  }
  const std::string temporary = shard + "/." + key + temporary_suffix();
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    log(LogLevel::warn, "compile cache: cannot create %s: %s", temporary.c_str(), strerror(errno));
    return;
  }
  unsigned char header[kHeaderSize];
  memcpy(header, kMagic, sizeof kMagic);
  put_u32(header + 8, kFormatVersion);
  put_u32(header + 12, kKeyLength);
  memcpy(header + 16, key.data(), kKeyLength);
  put_u64(header + 16 + kKeyLength, output.image.size());
  put_u64(header + 24 + kKeyLength, output.log.size());
  const Sha256Digest digest = payload_checksum(header, output.image, output.log);
  memcpy(header + 32 + kKeyLength, digest.data(), digest.size());
  const bool written = write_all(fd, header, kHeaderSize) &&
                       write_all(fd, output.image.data(), output.image.size()) &&
                       write_all(fd, output.log.data(), output.log.size());
  const int saved_errno = errno;
  if (close(fd) != 0 || !written) {
    log(LogLevel::warn, "compile cache: cannot write %s: %s", temporary.c_str(),
        strerror(written ? errno : saved_errno));
    unlink(temporary.c_str());
    return;
  }
  const std::string path = entry_path(key);
  if (rename(temporary.c_str(), path.c_str()) != 0) {
    log(LogLevel::warn, "compile cache: cannot rename %s to %s: %s", temporary.c_str(),
        path.c_str(), strerror(errno));
    unlink(temporary.c_str());
    return;
  }
  evict();
}

void CompileCache::evict() {
  std::vector<std::string> stale;
  std::vector<EntryFile> entries = scan(entries_, &stale);
  for (const std::string& path : stale) unlink(path.c_str());
  uint64_t total = 0;
  for (const EntryFile& entry : entries) total += entry.bytes;
  if (total <= config_.max_bytes) return;
  std::sort(entries.begin(), entries.end(),
            [](const EntryFile& a, const EntryFile& b) { return earlier(a.accessed, b.accessed); });
  for (const EntryFile& entry : entries) {
    if (total <= config_.max_bytes) break;
    // Gone already (another process evicted or cleared it) counts as removed.
    if (unlink(entry.path.c_str()) != 0 && errno != ENOENT) {
      log(LogLevel::warn, "compile cache: cannot remove %s: %s", entry.path.c_str(),
          strerror(errno));
      continue;
    }
    log(LogLevel::debug, "compile cache: evicted %s", entry.path.c_str());
    total -= entry.bytes;
  }
}

void CompileCache::info(ag_compile_cache_info& info) {
  info.enabled = config_.enabled ? 1 : 0;
  info.directory = config_.directory.c_str();
  info.reason = config_.reason.c_str();
  info.max_bytes = config_.max_bytes;
  info.entries = 0;
  info.bytes = 0;
  if (config_.directory.empty()) return;
  for (const EntryFile& entry : scan(entries_)) {
    ++info.entries;
    info.bytes += entry.bytes;
  }
}

void CompileCache::clear() {
  if (config_.directory.empty()) return;
  std::vector<std::string> stale;
  for (const EntryFile& entry : scan(entries_, &stale))
    if (unlink(entry.path.c_str()) != 0 && errno != ENOENT)
      log(LogLevel::warn, "compile cache: cannot remove %s: %s", entry.path.c_str(),
          strerror(errno));
  for (const std::string& path : stale) unlink(path.c_str());
}

}  // namespace anygpu
