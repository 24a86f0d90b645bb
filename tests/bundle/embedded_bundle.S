/* The bundle EMBEDDED_BUNDLE_PATH, embedded as anygpu_add_kernels embeds one. */
  .section .rodata.embedded_bundle,"a"
  .balign 64
  .globl embedded_bundle
embedded_bundle:
  .incbin EMBEDDED_BUNDLE_PATH
embedded_bundle_end:
  .balign 8
  .globl embedded_bundle_size
embedded_bundle_size:
  .quad embedded_bundle_end - embedded_bundle
  .section .note.GNU-stack,"",%progbits
