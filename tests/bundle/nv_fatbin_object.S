/* A stand-in for what nvcc writes (nvcc -c, or a program nvcc links): an ELF file whose
 * .nv_fatbin section holds a fatbin, NV_FATBIN_PATH. host_image_test checks that the CPU device's
 * refusal names the code inside. */
  .section .nv_fatbin,"a"
  .balign 8
  .incbin NV_FATBIN_PATH
  .section .note.GNU-stack,"",%progbits
