/* void anygpu_switch_stack(void** save_sp, void* load_sp)
 * Saves x19-x30 and d8-d15 in a 160-byte frame on the current stack, stores sp in *save_sp, loads
 * load_sp and restores the same from there (AAPCS64). FPCR is not switched: the fibers of a worker
 * share one kernel launch's floating-point environment. */
#if defined(__aarch64__)
  .text
  .globl anygpu_switch_stack
  .hidden anygpu_switch_stack
  .type anygpu_switch_stack, %function
anygpu_switch_stack:
  sub sp, sp, #160
  stp x19, x20, [sp, #0]
  stp x21, x22, [sp, #16]
  stp x23, x24, [sp, #32]
  stp x25, x26, [sp, #48]
  stp x27, x28, [sp, #64]
  stp x29, x30, [sp, #80]
  stp d8, d9, [sp, #96]
  stp d10, d11, [sp, #112]
  stp d12, d13, [sp, #128]
  stp d14, d15, [sp, #144]
  mov x9, sp
  str x9, [x0]
  mov sp, x1
  ldp x19, x20, [sp, #0]
  ldp x21, x22, [sp, #16]
  ldp x23, x24, [sp, #32]
  ldp x25, x26, [sp, #48]
  ldp x27, x28, [sp, #64]
  ldp x29, x30, [sp, #80]
  ldp d8, d9, [sp, #96]
  ldp d10, d11, [sp, #112]
  ldp d12, d13, [sp, #128]
  ldp d14, d15, [sp, #144]
  add sp, sp, #160
  ret
  .size anygpu_switch_stack, .-anygpu_switch_stack

/* First frame of a new fiber: x19 holds the argument, x20 the function, which never returns. */
  .globl anygpu_fiber_trampoline
  .hidden anygpu_fiber_trampoline
  .type anygpu_fiber_trampoline, %function
anygpu_fiber_trampoline:
  mov x0, x19
  blr x20
  brk #0
  .size anygpu_fiber_trampoline, .-anygpu_fiber_trampoline
#endif
  .section .note.GNU-stack,"",%progbits
