// Kernels for x86-64-v4 (AVX-512), compiled with -march=x86-64-v4 (see
// CMakeLists.txt). Eigen is renamed here so its AVX-512 template code stays
// apart from the baseline build's identical-looking instantiations.
#define Eigen EigenIsaV4
#define VIT_ISA v4
#define VIT_ISA_NAME "AVX-512 (x86-64-v4)"
#define VIT_ISA_TABLE table_v4
#include "kernel_impl.inc"
