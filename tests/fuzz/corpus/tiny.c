/* Source of elf/tiny.o (make_seeds.sh): an object file with symbols, as a kernel would name them.
 */
int anygpu_kernel_tiny(int x) {
  return x + 1;
}
int tiny_data = 3;
/* The parameter record AG_KERNEL emits (docs/kernel-dialect.md): one 8-byte pointer. */
const unsigned int anygpu_params_tiny[6] = {0x50475941, 1, 1, 8, 8, 3};
