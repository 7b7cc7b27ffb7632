// The SIMD kernels behind kernels.h on raw row-major float arrays, compiled
// twice: for x86-64-v3 (AVX2 + FMA) and x86-64-v4 (AVX-512). kernels.cpp picks
// one table at start-up from what the CPU supports, so one binary runs on any
// x86-64-v3 machine and uses AVX-512 where there is one.
#pragma once

namespace vit::isa {

struct KernelTable {
    const char* name;
    // c[m x n] = alpha * a[m x k] * b[n x k]^T (+ bias[n] when not null). ld* are row strides.
    void (*gemm_nt)(const float* a, int lda, const float* b, int ldb, const float* bias, float alpha, float* c,
                    int ldc, int m, int n, int k);
    // c[m x n] = a[m x k] * b[k x n].
    void (*gemm_nn)(const float* a, int lda, const float* b, int ldb, float* c, int ldc, int m, int n, int k);
    void (*layer_norm_rows)(const float* x, int rows, int cols, const float* w, const float* b, float eps, float* y);
    // In place on rows x cols of x (row stride ld).
    void (*gelu)(float* x, int rows, int cols, int ld, bool tanh_form);
    void (*softmax_rows)(float* x, int rows, int cols, int ld);
};

const KernelTable& table_v3();
const KernelTable& table_v4();

}  // namespace vit::isa
