// The kernels behind kernels.h on raw row-major float arrays, in three builds:
//   - Eigen (kernels_eigen.cpp, the build's own -march): the reference the
//     tests compare against, and the path for CPUs without AVX2;
//   - x86-64-v3, AVX2 + FMA (kernels_v3.cpp) and x86-64-v4, AVX-512
//     (kernels_v4.cpp): vitscope's own GEMM micro-kernels on weights packed
//     once (kernel_fast.inc), and a softmax with its own vectorised exp;
//   - WebAssembly SIMD128 (kernels_simd128.cpp), the browser build's.
// kernels.cpp uses the table pick_table chose at start-up from what the CPU
// supports (kernel_choice_x86.cpp, kernel_choice_wasm.cpp: one per platform).
#pragma once

namespace vit::isa {

struct KernelTable {
    const char* name;
    // c[m x n] = alpha * a[m x k] * b[n x k]^T (+ bias[n] when not null). ld* are row strides.
    void (*gemm_nt)(const float* a, int lda, const float* b, int ldb, const float* bias, float alpha, float* c, int ldc,
                    int m, int n, int k);
    void (*layer_norm_rows)(const float* x, int rows, int cols, const float* w, const float* b, float eps, float* y);
    // In place on rows x cols of x (row stride ld).
    void (*gelu)(float* x, int rows, int cols, int ld, bool tanh_form);
    void (*softmax_rows)(float* x, int rows, int cols, int ld);
    // One head's attention for query rows [begin, end): softmax(q k^T * scale)
    // into weights ((end - begin) x n, row stride n; null: not kept) and
    // weights * v into context. q, k, v and context are n x ld, the head's
    // columns [col, col + head_dim).
    void (*attention_rows)(const float* q, const float* k, const float* v, int ld, int n, int col, int head_dim,
                           float scale, int begin, int end, float* weights, float* context);
    // y = exp(x), element by element, as softmax_rows computes it (for the tests).
    void (*exp)(const float* x, float* y, int n);
    // dst = src, rows x cols (row strides lds, ldd), stores that bypass the
    // cache where the set has them: copies into the trace, read much later.
    void (*copy_rows)(const float* src, int lds, int rows, int cols, float* dst, int ldd);

    // Weights packed once (null and 0 in the Eigen table, which packs on every product):
    // panel_width output columns per panel, each panel k rows of panel_width floats.
    int panel_width;
    // out[panels_size(n, k)] = b[n x k] in panels, zero-padded.
    long (*panels_size)(int n, int k);
    void (*pack_nt)(const float* b, int ldb, int n, int k, float* out);
    // a[m x k]'s rows as the GEMM tiles read them, tile_rows rows per tile:
    // tiles [tile_begin, tile_end) of tiles_size(m, k) floats at out, so that
    // threads can each pack a share.
    int tile_rows;
    long (*tiles_size)(int m, int k);
    void (*pack_tiles)(const float* a, int lda, int m, int k, int tile_begin, int tile_end, float* out);
    // c[m x n] = a[m x k] * B^T + bias[n] (bias may be null): a packed by
    // pack_tiles, B by pack_nt (from its first panel on).
    void (*gemm_packed)(const float* a_tiles, int m, int k, const float* panels, const float* bias, float* c, int ldc,
                        int n);
};

const KernelTable& table_eigen();
const KernelTable& table_v3();
const KernelTable& table_v4();
const KernelTable& table_simd128();
// Whether this CPU has the instructions the table's kernels use.
bool runs_here(const KernelTable& table);
// The fastest table this CPU runs, or a slower one VITSCOPE_ISA names.
const KernelTable& pick_table();

}  // namespace vit::isa
