// The process runner of the run-time compilers (shim/support/subprocess.h): exit status, killing
// signal and time limit told apart, output captured and bounded, the whole process group stopped
// at the limit, and no descriptor or child left behind, from many threads at once.
#include "shim/support/subprocess.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace {

using anygpu::run_subprocess;
using anygpu::SubprocessOptions;
using anygpu::SubprocessResult;
using Outcome = anygpu::SubprocessResult::Outcome;

SubprocessResult shell(const std::string& script, double timeout = 30) {
  SubprocessOptions options;
  options.timeout_seconds = timeout;
  return run_subprocess({"/bin/sh", "-c", script}, options);
}

int open_descriptors() {
  int count = 0;
  DIR* directory = opendir("/proc/self/fd");
  if (!directory) return -1;
  while (dirent* entry = readdir(directory))
    if (entry->d_name[0] != '.') ++count;
  closedir(directory);
  return count;
}

// The state letter of process `pid` in /proc ('Z' for a zombie), or 0 when it is gone.
char process_state(long pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return 0;
  const size_t paren = text.rfind(')');
  return paren == std::string::npos || paren + 2 >= text.size() ? 0 : text[paren + 2];
}

TEST(Subprocess, ExitStatusAndBothStreams) {
  const SubprocessResult r = shell("echo out; echo err >&2; exit 3");
  EXPECT_EQ(Outcome::exited, r.outcome);
  EXPECT_EQ(3, r.exit_status);
  EXPECT_FALSE(r.succeeded());
  EXPECT_EQ("out\nerr\n", r.output);
  EXPECT_FALSE(r.output_truncated);
  EXPECT_EQ("exited with status 3", r.describe(30));
  EXPECT_TRUE(shell("exit 0").succeeded());
}

TEST(Subprocess, KilledBySignal) {
  const SubprocessResult r = shell("echo before; kill -SEGV $$; echo after");
  EXPECT_EQ(Outcome::signaled, r.outcome);
  EXPECT_EQ(SIGSEGV, r.signal_number);
  EXPECT_EQ("before\n", r.output);
  EXPECT_EQ("was killed by signal 11 (SIGSEGV)", r.describe(30));
}

TEST(Subprocess, TimeLimitStopsTheWholeGroup) {
  // The shell starts a second sleeper in the background, which also holds the output pipe.
  const SubprocessResult r = shell("sleep 60 & echo $!; sleep 60", 1);
  EXPECT_EQ(Outcome::timed_out, r.outcome);
  EXPECT_GE(r.seconds, 0.9);
  EXPECT_LT(r.seconds, 5.0);
  EXPECT_EQ("did not finish within 1 s", r.describe(1));
  const long background = std::stol(r.output);
  char state = process_state(background);
  for (int i = 0; i < 100 && state != 0 && state != 'Z'; ++i) {
    usleep(10000);
    state = process_state(background);
  }
  EXPECT_TRUE(state == 0 || state == 'Z')
      << "the background sleeper " << background << " still runs (state " << state << ")";
}

TEST(Subprocess, LargeOutputIsTruncatedAndDrained) {
  SubprocessOptions options;
  options.max_output_bytes = 1 << 20;
  const SubprocessResult r =
      run_subprocess({"/bin/sh", "-c", "head -c 3000000 /dev/zero; echo done >&2"}, options);
  EXPECT_TRUE(r.succeeded()) << r.describe(300);
  EXPECT_EQ(size_t{1} << 20, r.output.size());
  EXPECT_TRUE(r.output_truncated);
}

TEST(Subprocess, ProgramNotFound) {
  const SubprocessResult r = run_subprocess({"/nonexistent/program", "x"});
  EXPECT_EQ(Outcome::not_run, r.outcome);
  EXPECT_EQ(ENOENT, r.spawn_error);
  EXPECT_NE(std::string::npos, r.describe(1).find("/nonexistent/program")) << r.describe(1);
  const SubprocessResult searched = run_subprocess({"anygpu-no-such-program-on-path"});
  EXPECT_EQ(Outcome::not_run, searched.outcome);
  EXPECT_TRUE(run_subprocess({"sh", "-c", "exit 0"}).succeeded());  // found on the PATH
  EXPECT_EQ(Outcome::not_run, run_subprocess({}).outcome);
}

// With SIGCHLD ignored, the kernel reaps the child itself and waitpid fails with ECHILD: the
// result says the status was lost, not that the program failed. In a child process of the test,
// so the test's own SIGCHLD disposition is left alone.
TEST(Subprocess, IgnoredSigchldLosesTheStatus) {
  const pid_t child = fork();
  ASSERT_NE(-1, child);
  if (child == 0) {
    signal(SIGCHLD, SIG_IGN);
    const SubprocessResult r = run_subprocess({"/bin/sh", "-c", "exit 0"});
    const bool lost = r.outcome == Outcome::status_lost && !r.succeeded() &&
                      r.describe(30).find("unknown exit status") != std::string::npos;
    _exit(lost ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(child, waitpid(child, &status, 0));
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(0, WEXITSTATUS(status)) << "the outcome was not status_lost";
}

TEST(Subprocess, EnvironmentOverrides) {
  SubprocessOptions options;
  options.environment_overrides = {"ANYGPU_SUBPROCESS_TEST=42", "HOME=/anygpu-home"};
  const SubprocessResult r = run_subprocess(
      {"/bin/sh", "-c", "echo $ANYGPU_SUBPROCESS_TEST $HOME; test -n \"$PATH\""}, options);
  EXPECT_TRUE(r.succeeded()) << r.output;
  EXPECT_EQ("42 /anygpu-home\n", r.output);
}

TEST(Subprocess, NoDescriptorOrChildLeftFromManyThreads) {
  const int before = open_descriptors();
  std::vector<std::thread> threads;
  std::vector<int> failures(8, 0);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < 10; ++i) {
        const std::string word = std::to_string(t * 100 + i);
        const SubprocessResult r = run_subprocess({"/bin/echo", word});
        if (!r.succeeded() || r.output != word + "\n") ++failures[t];
      }
    });
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(0, failures[t]) << "thread " << t;
  EXPECT_EQ(before, open_descriptors());
  errno = 0;
  EXPECT_EQ(-1, waitpid(-1, nullptr, WNOHANG)) << "a child was left unreaped";
  EXPECT_EQ(ECHILD, errno);
  // The child's only descriptors on the output pipe are its stdout and stderr: the read end (the
  // same pipe) stayed with us.
  const SubprocessResult r = shell(
      "p=$(readlink /proc/$$/fd/1); n=0; for f in /proc/$$/fd/*; do "
      "[ \"$(readlink $f)\" = \"$p\" ] && n=$((n+1)); done; echo $n");
  EXPECT_TRUE(r.succeeded()) << r.output;
  EXPECT_EQ("2\n", r.output);
}

}  // namespace
