// vitscope's kernels for WebAssembly SIMD128 (4 lanes: tiles of 4 rows x 8
// columns, as many rows as a vector has lanes, which packing the tiles needs),
// the browser build's (-msimd128, see CMakeLists.txt).
#define Eigen EigenIsaSimd128
#define VIT_ISA simd128
#define VIT_ISA_NAME "WebAssembly SIMD128"
#define VIT_ISA_TABLE table_simd128
#define VIT_LANES 4
#define VIT_ROWS 4
#include "vit/kernels/kernel_norms.inc"
#include "vit/kernels/kernel_fast.inc"
