/* void anygpu_switch_stack(void** save_sp, void* load_sp)
 * Saves the callee-saved registers on the current stack, stores the stack pointer in *save_sp,
 * loads load_sp and restores the same from there (System V ABI). The floating-point control words
 * (MXCSR, x87) are not switched: the fibers of a worker are threads of one kernel launch and share
 * its floating-point environment, and ldmxcsr/fldcw would serialise every switch. */
#if defined(__x86_64__)
  .text
  .globl anygpu_switch_stack
  .hidden anygpu_switch_stack
  .type anygpu_switch_stack, @function
anygpu_switch_stack:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size anygpu_switch_stack, .-anygpu_switch_stack

/* First frame of a new fiber: r12 holds the argument, r13 the function, which never returns. */
  .globl anygpu_fiber_trampoline
  .hidden anygpu_fiber_trampoline
  .type anygpu_fiber_trampoline, @function
anygpu_fiber_trampoline:
  .cfi_startproc
  .cfi_undefined rip
  movq %r12, %rdi
  callq *%r13
  ud2
  .cfi_endproc
  .size anygpu_fiber_trampoline, .-anygpu_fiber_trampoline
#endif
  .section .note.GNU-stack,"",%progbits
