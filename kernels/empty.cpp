// Does nothing: measures launch overhead.
#include <anygpu/kernel.h>

AG_KERNEL(empty, ()) {}
