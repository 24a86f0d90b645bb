// The run-time compilers' temporary directories (loaders/compile_workspace.h): a process's
// directory names its process id, and the directories of this user's ended processes (a crash
// leaves one) are removed once old enough; a live process's, a recent one, another name, and a
// file are left.
#include "loaders/compile_workspace.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

namespace {

// A process id that no process has now: a child that has ended and been waited for.
pid_t ended_process() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  int status = 0;
  waitpid(child, &status, 0);
  return child;
}

void make_directory(const std::string& path, double age_seconds) {
  ASSERT_EQ(0, mkdir(path.c_str(), 0700)) << path;
  std::ofstream(path + "/inside.h") << "int x;\n";
  struct timeval times[2];
  gettimeofday(&times[0], nullptr);
  times[0].tv_sec -= static_cast<time_t>(age_seconds);
  times[1] = times[0];
  ASSERT_EQ(0, utimes(path.c_str(), times)) << path;
}

std::set<std::string> entries(const std::string& directory) {
  std::set<std::string> names;
  DIR* listing = opendir(directory.c_str());
  while (const dirent* entry = listing ? readdir(listing) : nullptr)
    if (entry->d_name[0] != '.') names.insert(entry->d_name);
  if (listing) closedir(listing);
  return names;
}

TEST(CompileWorkspace, DirectoriesOfEndedProcessesAreRemovedOnceOld) {
  std::string root = "/tmp/anygpu-workspace-test-XXXXXX";
  ASSERT_NE(nullptr, mkdtemp(root.data()));
  const std::string ended = std::to_string(ended_process());
  const std::string two_days_old = "anygpu-compile-" + ended + "-abcdef";
  const std::string recent = "anygpu-compile-" + ended + "-ghijkl";
  const std::string live = "anygpu-compile-" + std::to_string(getppid()) + "-mnopqr";
  const std::string other_name = "anygpu-compile-" + ended + "-toolongname";
  const std::string signed_pid = "anygpu-compile-+" + ended + "-abcdef";
  const std::string huge_pid = "anygpu-compile-99999999999999999999-abcdef";
  make_directory(root + "/" + signed_pid, 2 * 24 * 3600);
  make_directory(root + "/" + huge_pid, 2 * 24 * 3600);
  make_directory(root + "/" + two_days_old, 2 * 24 * 3600);
  make_directory(root + "/" + recent, 60);
  make_directory(root + "/" + live, 2 * 24 * 3600);
  make_directory(root + "/" + other_name, 2 * 24 * 3600);
  std::ofstream(root + "/anygpu-compile-" + ended + "-stuvwx") << "a file, not a directory\n";

  EXPECT_EQ(1,
            anygpu::remove_stale_compile_directories(root, anygpu::kStaleCompileDirectorySeconds));
  const std::set<std::string> left = entries(root);
  EXPECT_EQ(0u, left.count(two_days_old));
  for (const std::string& kept :
       {recent, live, other_name, signed_pid, huge_pid, "anygpu-compile-" + ended + "-stuvwx"})
    EXPECT_EQ(1u, left.count(kept)) << kept << " was removed";
  EXPECT_EQ(0, anygpu::remove_stale_compile_directories(root, 3600)) << "nothing more";
  EXPECT_EQ(0, anygpu::remove_stale_compile_directories(root + "/missing", 0));
  EXPECT_EQ(0, system(("rm -rf '" + root + "'").c_str()));
}

TEST(CompileWorkspace, TheProcessDirectoryNamesItsProcessAndComesBackWhenRemoved) {
  std::string directory, error;
  ASSERT_TRUE(anygpu::compile_include_directory(&directory, &error)) << error;
  const std::string expected = "/anygpu-compile-" + std::to_string(getpid()) + "-";
  EXPECT_NE(std::string::npos, directory.find(expected)) << directory;
  struct stat status{};
  EXPECT_EQ(0, stat((directory + "/anygpu/kernel.h").c_str(), &status)) << directory;
  // A /tmp cleaner removed it: the next compile makes a new one.
  const std::string root = directory.substr(0, directory.rfind('/'));
  ASSERT_EQ(0, system(("rm -rf '" + root + "'").c_str()));
  std::string again;
  ASSERT_TRUE(anygpu::compile_include_directory(&again, &error)) << error;
  EXPECT_EQ(0, stat((again + "/anygpu/kernel.h").c_str(), &status)) << again;
}

}  // namespace
