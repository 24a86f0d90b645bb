// Run under `ulimit -v` (tests/api/CMakeLists.txt): creates streams on the CPU device, each with a
// thread of its own, until the system refuses one. No C++ exception may cross the C ABI (issue 15,
// defect 2: std::system_error from std::thread aborted the process): the refusal must come back
// as AG_ERROR_OUT_OF_RESOURCES or AG_ERROR_OUT_OF_MEMORY with a detail naming agStreamCreate.
// Exit 0 then; 1 for any other outcome. `--probe` (run first, without the limit) exits 77 when
// the program is built with a sanitizer, whose runtime cannot even start under ulimit -v.
#include <anygpu/anygpu.h>

#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "--probe") == 0) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    printf(
        "SKIPPED: the sanitizers reserve terabytes of address space at start-up, so the "
        "program cannot run under ulimit -v\n");
    return 77;
#else
    return 0;
#endif
  }
  ag_device device = nullptr;
  if (agDeviceGet(0, &device) != AG_SUCCESS) {
    printf("no device under the limit\n");
    return 1;
  }
  std::vector<ag_stream> streams;
  for (int i = 0; i < 100000; ++i) {
    ag_stream stream = nullptr;
    const ag_result result = agStreamCreate(device, 0, &stream);
    if (result == AG_SUCCESS) {
      streams.push_back(stream);
      continue;
    }
    const char* detail = "";
    agGetLastErrorDetail(&detail);
    printf("stream %d refused: %d, %s\n", i, static_cast<int>(result), detail);
    const bool expected = result == AG_ERROR_OUT_OF_RESOURCES || result == AG_ERROR_OUT_OF_MEMORY;
    const bool named = strstr(detail, "agStreamCreate") != nullptr;
    for (ag_stream created : streams) agStreamDestroy(created);
    return expected && named ? 0 : 1;
  }
  printf("100000 streams and no refusal: the limit did not apply\n");
  return 1;
}
