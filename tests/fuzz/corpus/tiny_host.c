/* Source of host_image/tiny_host.so (make_seeds.sh): the smallest shared object the host-image
 * check accepts, exporting the marker and one kernel entry as anygpu/kernel.h would name them. */
unsigned anygpu_host_abi(void) {
  return 2;
}
static int calls;
int anygpu_kernel_tiny(int x) {
  return x + ++calls;
}
