// Spins until *flag becomes non-zero, then sets *done. Lets a test hold a stream busy for as long
// as it wants, to show what other streams do meanwhile. Launch with one thread.
#include <anygpu/kernel.h>

AG_KERNEL(wait_flag, (const AG_GLOBAL int* flag, AG_GLOBAL int* done)) {
  while (atomicLoad(flag) == 0) {
  }
  atomicStore(done, 1);
}
