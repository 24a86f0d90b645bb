/* A program that embeds a bundle as applications do (in .rodata), for anygpu-pack to find. It also
 * holds the bundle magic as an ordinary string, which the scan must skip. */
#include <stdio.h>

extern const unsigned char embedded_bundle[];
extern const unsigned long embedded_bundle_size;

static const char decoy[] = "__CLANG_OFFLOAD_BUNDLE__ is only a string here";

int main(void) {
  printf("%s; the bundle has %lu bytes\n", decoy, embedded_bundle_size);
  return embedded_bundle[0] == '_' ? 0 : 1;
}
