// The reference kernels: Eigen, compiled for the build's own -march. The
// tests compare vitscope's own kernels with these; a CPU without AVX2 runs them.
#define VIT_ISA eigen
#include <algorithm>
#include "vit/kernels/kernel_norms.inc"

namespace vit::isa::eigen {
namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Strided = Eigen::OuterStride<>;
using ConstView = Eigen::Map<const RowMajor, 0, Strided>;
using View = Eigen::Map<RowMajor, 0, Strided>;

void gemm_nt(const float* a, int lda, const float* b, int ldb, const float* bias, float alpha, float* c, int ldc, int m,
             int n, int k) {
    ConstView A(a, m, k, Strided(lda)), B(b, n, k, Strided(ldb));
    View C(c, m, n, Strided(ldc));
    // Eigen folds alpha into the product, and accumulates onto the bias put
    // there first: no zero fill and no second pass over C.
    if (bias) {
        C.rowwise() = Eigen::Map<const Eigen::RowVectorXf>(bias, n);
        C.noalias() += alpha * A * B.transpose();
    } else {
        C.noalias() = alpha * A * B.transpose();
    }
}

void gemm_nn(const float* a, int lda, const float* b, int ldb, float* c, int ldc, int m, int n, int k) {
    ConstView A(a, m, k, Strided(lda)), B(b, k, n, Strided(ldb));
    View C(c, m, n, Strided(ldc));
    C.noalias() = A * B;
}

void softmax_rows(float* x, int rows, int cols, int ld) {
    for (int i = 0; i < rows; ++i) {
        Eigen::Map<Eigen::ArrayXf> row(x + static_cast<long>(i) * ld, cols);
        row = (row - row.maxCoeff()).exp();
        row *= 1.0f / row.sum();
    }
}

void exp_values(const float* x, float* y, int n) {
    Eigen::Map<Eigen::ArrayXf>(y, n) = Eigen::Map<const Eigen::ArrayXf>(x, n).exp();
}

void copy_rows(const float* src, int lds, int rows, int cols, float* dst, int ldd) {
    for (int r = 0; r < rows; ++r)
        std::copy_n(src + static_cast<long>(r) * lds, cols, dst + static_cast<long>(r) * ldd);
}

void attention_rows(const float* q, const float* k, const float* v, int ld, int n, int col, int head_dim, float scale,
                    int begin, int end, float* weights, float* context) {
    const int rows = end - begin;
    RowMajor scratch;  // the weights' home when they are not kept
    if (!weights) weights = (scratch.resize(rows, n), scratch.data());
    gemm_nt(q + static_cast<long>(begin) * ld + col, ld, k + col, ld, nullptr, scale, weights, n, rows, n, head_dim);
    softmax_rows(weights, rows, n, n);
    gemm_nn(weights, n, v + col, ld, context + static_cast<long>(begin) * ld + col, ld, rows, head_dim, n);
}

}  // namespace
}  // namespace vit::isa::eigen

namespace vit::isa {

const KernelTable& table_eigen() {
    static const KernelTable table{"Eigen (reference)",
                                   eigen::gemm_nt,
                                   eigen::layer_norm_rows,
                                   eigen::gelu,
                                   eigen::softmax_rows,
                                   eigen::attention_rows,
                                   eigen::exp_values,
                                   eigen::copy_rows,
                                   0,
                                   nullptr,
                                   nullptr,
                                   0,
                                   nullptr,
                                   nullptr,
                                   nullptr};
    return table;
}

}  // namespace vit::isa
