/* Embeds the probe images of tests/kernels_build; never run. */
int main(void) {
  return 0;
}
