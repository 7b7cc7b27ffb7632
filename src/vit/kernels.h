// The forward pass's compute kernels on Eigen matrices. Each call goes to the
// fastest SIMD build the CPU supports (see kernel_table.h).
#pragma once
#include "model.h"
#include "tensor.h"

namespace vit {

// Which kernel build runs: "AVX-512 (x86-64-v4)" or "AVX2+FMA (x86-64-v3)".
// VITSCOPE_ISA=v3 in the environment forces the baseline (for comparisons).
const char* kernel_isa();

// y = x W^T + b, the rows of x split across the cores.
void linear(const Mat& x, const Linear& layer, Mat& y);
// Row-wise LayerNorm with affine weight and bias.
void layer_norm(const Mat& x, const Vec& weight, const Vec& bias, float eps, Mat& y);
// In place: exact GELU 0.5 x (1 + erf(x / sqrt 2)), or the tanh form.
void gelu(Mat& x, bool tanh_form);
// In place: numerically stable softmax of every row.
void softmax_rows(Mat& x);

// One head's attention for query rows [begin, end): weights = softmax(q k^T * scale)
// written to weights (end-begin x N), and weights * v written to out rows.
// q, k, v, out are column blocks (head_dim wide) of N x dim matrices.
template <typename Q, typename K, typename V, typename O>
void head_attention(const Q& q, const K& k, const V& v, float scale, Eigen::Index begin, Eigen::Index end, Mat& weights,
                    O&& out);

namespace detail {
void head_attention_raw(const float* q, const float* k, const float* v, int ld_in, int n, int head_dim, float scale,
                        int begin, int end, float* weights, float* out, int ld_out);
}

template <typename Q, typename K, typename V, typename O>
void head_attention(const Q& q, const K& k, const V& v, float scale, Eigen::Index begin, Eigen::Index end, Mat& weights,
                    O&& out) {
    weights.resize(end - begin, k.rows());
    detail::head_attention_raw(q.data(), k.data(), v.data(), static_cast<int>(q.outerStride()),
                               static_cast<int>(k.rows()), static_cast<int>(q.cols()), scale, static_cast<int>(begin),
                               static_cast<int>(end), weights.data(), out.data(), static_cast<int>(out.outerStride()));
}

}  // namespace vit
