#include "interpose/trace_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "interpose/json_text.h"
#include "interpose/report.h"
#include "interpose/settings.h"

namespace anygpu::intercept {
namespace {

constexpr size_t kFlushBytes = 4 << 20;

struct TraceFile {
  std::string buffer;
  int fd = -1;
  bool failed = false;    // the file could not be written: reported once, events dropped
  bool finished = false;  // finish_trace ran
  long events = 0;
  std::string path;
};

std::mutex g_mutex;
TraceFile* const g_trace = new TraceFile;  // never destroyed: calls may come after exit began

bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t written = write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

// The header names the process, so a timeline of several processes tells them apart.
std::string header() {
  char name[256] = "";
  // Reading procfs does not block, so this may run under the trace lock.
  // NOLINTBEGIN(clang-analyzer-unix.BlockInCriticalSection)
  int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t length = read(fd, name, sizeof name - 1);
    // NOLINTEND(clang-analyzer-unix.BlockInCriticalSection)
    name[length > 0 ? length : 0] = '\0';
    close(fd);
    name[strcspn(name, "\n")] = '\0';
  }
  std::string text = "{\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":";
  text += std::to_string(getpid()) + ",\"tid\":0,\"args\":{\"name\":";
  append_json_string(&text, name);
  text += "}}";
  return text;
}

// Called with the mutex held.
void flush_locked() {
  TraceFile& trace = *g_trace;
  if (trace.failed || trace.buffer.empty()) return;
  if (trace.fd < 0) {
    trace.path = expand_pid(settings().trace_file, getpid());
    trace.fd = open(trace.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const std::string head = header();
    if (trace.fd < 0 || !write_all(trace.fd, head.data(), head.size())) {
      report("cannot write the trace file %s: %s; no trace is written", trace.path.c_str(),
             strerror(errno));
      trace.failed = true;
      trace.buffer.clear();
      return;
    }
  }
  if (!write_all(trace.fd, trace.buffer.data(), trace.buffer.size())) {
    report("writing the trace file %s failed: %s", trace.path.c_str(), strerror(errno));
    trace.failed = true;
  }
  trace.buffer.clear();
}

}  // namespace

void add_trace_event(const std::string& event) {
  std::lock_guard<std::mutex> lock(g_mutex);
  TraceFile& trace = *g_trace;
  if (trace.finished || trace.failed) return;
  trace.buffer += ",\n";
  trace.buffer += event;
  ++trace.events;
  if (trace.buffer.size() >= kFlushBytes) flush_locked();
}

void finish_trace() {
  std::lock_guard<std::mutex> lock(g_mutex);
  TraceFile& trace = *g_trace;
  if (trace.finished) return;
  trace.finished = true;
  if (trace.events == 0) return;
  flush_locked();
  if (trace.fd < 0) return;
  static const char kFooter[] = "\n],\"displayTimeUnit\":\"ms\"}\n";
  if (!trace.failed && !write_all(trace.fd, kFooter, sizeof kFooter - 1))
    report("writing the trace file %s failed: %s", trace.path.c_str(), strerror(errno));
  close(trace.fd);
  trace.fd = -1;
}

void lock_trace() {
  g_mutex.lock();
}
void unlock_trace() {
  g_mutex.unlock();
}

void reset_trace_in_child() {
  TraceFile& trace = *g_trace;
  if (trace.fd >= 0) close(trace.fd);  // the parent's file: the parent finishes it
  trace = TraceFile();
}

}  // namespace anygpu::intercept
