/* Source of elf/tiny.o (make_seeds.sh): an object file with symbols, as a kernel would name them. */
int anygpu_kernel_tiny(int x) { return x + 1; }
int tiny_data = 3;
