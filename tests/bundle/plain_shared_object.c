/* A shared object that is not an anygpu host code object (no anygpu_host_abi). Its constructor
 * writes the file that ANYGPU_TEST_CONSTRUCTOR_FILE names and, where ANYGPU_TEST_CONSTRUCTOR_ABORTS
 * is set, aborts: host_image_test checks that loading it is refused before it is mapped, so
 * neither happens. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void plain_shared_object_constructor(void) {
  const char* path = getenv("ANYGPU_TEST_CONSTRUCTOR_FILE");
  if (path) {
    FILE* file = fopen(path, "w");
    if (file) {
      fputs("the constructor ran\n", file);
      fclose(file);
    }
  }
  if (getenv("ANYGPU_TEST_CONSTRUCTOR_ABORTS")) abort();
}

int plain_shared_object_function(int x) {
  return x + 1;
}
