// Spins until *flag becomes non-zero, then sets *done. Lets a test hold a stream busy for as long
// as it wants, to show what other streams do meanwhile. Launch with one thread.
#include <anygpu/kernel.h>

AG_KERNEL(wait_flag, (const int* flag, int* done)) {
  while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0) {
  }
  __atomic_store_n(done, 1, __ATOMIC_RELEASE);
}
