// vitscope's kernels for x86-64-v4 (AVX-512, 32 vector registers: tiles of
// 12 rows x 32 columns), compiled with -march=x86-64-v4 (see CMakeLists.txt).
#define Eigen EigenIsaV4
#define VIT_ISA v4
#define VIT_ISA_NAME "AVX-512 (x86-64-v4)"
#define VIT_ISA_TABLE table_v4
#define VIT_LANES 16
#define VIT_ROWS 12
#include "vit/kernels/kernel_norms.inc"
#include "vit/kernels/kernel_fast.inc"
