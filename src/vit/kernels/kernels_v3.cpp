// vitscope's kernels for x86-64-v3 (AVX2 + FMA, 16 vector registers: tiles of
// 6 rows x 16 columns), compiled with -march=x86-64-v3 (see CMakeLists.txt).
#define Eigen EigenIsaV3
#define VIT_ISA v3
#define VIT_ISA_NAME "AVX2+FMA (x86-64-v3)"
#define VIT_ISA_TABLE table_v3
#define VIT_LANES 8
#define VIT_ROWS 6
#include "vit/kernels/kernel_norms.inc"
#include "vit/kernels/kernel_fast.inc"
