// Kernels for x86-64-v3 (AVX2 + FMA): the build's baseline target.
#define VIT_ISA v3
#define VIT_ISA_NAME "AVX2+FMA (x86-64-v3)"
#define VIT_ISA_TABLE table_v3
#include "kernel_impl.inc"
