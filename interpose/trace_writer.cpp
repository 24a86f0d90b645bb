#include "interpose/trace_writer.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "interpose/clock.h"
#include "interpose/json_text.h"
#include "interpose/process_ids.h"
#include "interpose/report.h"
#include "interpose/settings.h"
#include "interpose/signal_safe_text.h"

namespace anygpu::intercept {
namespace {

constexpr size_t kBufferBytes = 4 << 20;
constexpr char kFooter[] = "\n],\"displayTimeUnit\":\"ms\"}\n";
constexpr size_t kFooterBytes = sizeof kFooter - 1;

// All but `length` are guarded by g_mutex. The buffer is allocated once and never grows, so that
// a signal handler can write it without the allocator; `length` counts complete events only.
struct TraceFile {
  char* buffer = nullptr;
  std::atomic<size_t> length{0};
  int fd = -1;
  bool failed = false;          // the file could not be written: reported once, events dropped
  bool finished = false;        // finish_trace ran
  bool footer_written = false;  // a signal handler closed the document; the next write replaces it
  std::string path;
};

std::mutex g_mutex;
std::atomic<long> g_owner{0};              // the thread holding g_mutex, 0 when none
TraceFile* const g_trace = new TraceFile;  // never destroyed: calls may come after exit began

struct Lock {
  Lock() {
    g_mutex.lock();
    g_owner.store(current_tid());
  }
  ~Lock() {
    g_owner.store(0);
    g_mutex.unlock();
  }
  Lock(const Lock&) = delete;
  Lock& operator=(const Lock&) = delete;
};

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

void fail_locked(const char* what) {
  TraceFile& trace = *g_trace;
  report("%s the trace file %s: %s; no more of the trace is written", what, trace.path.c_str(),
         strerror(errno));
  trace.failed = true;
  trace.length = 0;
}

// Opens the file and writes the header at the first event, so that a crash handler has only
// write(2) left to do. Called with the mutex held.
bool open_locked() {
  TraceFile& trace = *g_trace;
  if (trace.fd >= 0) return true;
  if (!trace.buffer) trace.buffer = new char[kBufferBytes];
  trace.path = expand_pid(settings().trace_file, getpid());
  trace.fd = open(trace.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const std::string head = header();
  if (trace.fd < 0 || !write_all(trace.fd, head.data(), head.size())) {
    fail_locked("cannot write");
    return false;
  }
  return true;
}

// Writes `size` bytes after what the file holds, over the closing bytes a signal handler wrote.
// Called with the mutex held.
bool append_to_file_locked(const char* data, size_t size) {
  TraceFile& trace = *g_trace;
  if (trace.footer_written && size > 0) {
    if (lseek(trace.fd, -static_cast<off_t>(kFooterBytes), SEEK_CUR) < 0) return false;
    trace.footer_written = false;
  }
  return write_all(trace.fd, data, size);
}

// Called with the mutex held.
void flush_locked() {
  TraceFile& trace = *g_trace;
  if (trace.failed || trace.fd < 0) return;
  if (!append_to_file_locked(trace.buffer, trace.length)) fail_locked("writing");
  trace.length = 0;
}

}  // namespace

void add_trace_event(const std::string& event) {
  Lock lock;
  TraceFile& trace = *g_trace;
  if (trace.finished || trace.failed || !open_locked()) return;
  const size_t size = event.size() + 2;
  if (trace.length + size > kBufferBytes) flush_locked();
  if (trace.failed) return;
  if (size > kBufferBytes) {  // larger than the whole buffer: written at once
    if (!append_to_file_locked(",\n", 2) || !append_to_file_locked(event.data(), event.size()))
      fail_locked("writing");
    return;
  }
  // Not a C string: the buffer holds events back to back, written out by length.
  char* end = trace.buffer + trace.length;
  std::copy_n(",\n", 2, end);
  std::copy(event.begin(), event.end(), end + 2);
  trace.length.store(trace.length + size);  // published once the event is whole
}

void finish_trace() {
  Lock lock;
  TraceFile& trace = *g_trace;
  if (trace.finished) return;
  trace.finished = true;
  if (trace.fd < 0) return;
  flush_locked();
  if (!trace.failed && !trace.footer_written && !write_all(trace.fd, kFooter, kFooterBytes))
    report("writing the trace file %s failed: %s", trace.path.c_str(), strerror(errno));
  close(trace.fd);
  trace.fd = -1;
}

bool checkpoint_trace_from_signal(const char* event_name, bool final) {
  const long me = current_tid();
  if (g_owner.load() == me) return false;  // interrupted inside the writer: its state is torn
  // Another thread holding the lock finishes its event (or its write) shortly.
  bool locked = g_mutex.try_lock();
  for (int waited = 0; !locked && waited < 2000; ++waited) {
    const timespec millisecond = {0, 1000000};
    nanosleep(&millisecond, nullptr);
    locked = g_mutex.try_lock();
  }
  if (!locked) return false;
  g_owner.store(me);
  TraceFile& trace = *g_trace;
  // A file that cannot seek back over the closing bytes written before takes no more.
  if (!trace.finished && !trace.failed && trace.fd >= 0 &&
      (!trace.footer_written ||
       lseek(trace.fd, -static_cast<off_t>(kFooterBytes), SEEK_CUR) >= 0)) {
    const uint64_t now = now_nanoseconds();
    FdText out(trace.fd);
    out.text(trace.buffer, trace.length);
    if (event_name) {
      out.text(",\n{\"name\":\"").text(event_name);
      out.text("\",\"cat\":\"signal\",\"ph\":\"i\",\"s\":\"p\",\"ts\":").fixed(now, 3);
      out.text(",\"pid\":").number(static_cast<uint64_t>(current_pid()));
      out.text(",\"tid\":").number(static_cast<uint64_t>(me)).text("}");
    }
    out.text(kFooter, kFooterBytes);
    if (out.flush()) {
      trace.footer_written = true;
    } else {
      trace.failed = true;
    }
    trace.length = 0;
  }
  if (final) trace.finished = true;  // the process ends: no other thread may reopen the document
  g_owner.store(0);
  g_mutex.unlock();
  return true;
}

void lock_trace() {
  g_mutex.lock();
  g_owner.store(current_tid());
}
void unlock_trace() {
  g_owner.store(0);
  g_mutex.unlock();
}

void reset_trace_in_child() {
  TraceFile& trace = *g_trace;
  if (trace.fd >= 0) close(trace.fd);  // the parent's file: the parent finishes it
  trace.fd = -1;
  trace.failed = trace.finished = trace.footer_written = false;
  trace.length = 0;
  trace.path.clear();
}

}  // namespace anygpu::intercept
