// The forward pass's compute kernels on Eigen matrices. Each call goes to the
// fastest SIMD build the CPU supports (see kernel_table.h).
#pragma once
#include <initializer_list>

#include "vit/model/model.h"
#include "vit/base/tensor.h"

namespace vit {

// Which kernel build runs: "AVX-512 (x86-64-v4)", "AVX2+FMA (x86-64-v3)" or
// "Eigen (reference)", the fastest the CPU supports. VITSCOPE_ISA=v3 or
// VITSCOPE_ISA=eigen in the environment forces a slower one (for comparisons
// and tests).
const char* kernel_isa();

// Packs the weights of the model's linear layers once, into the layout the
// chosen kernels read (nothing for the Eigen ones). load_model does it; the
// weights must not change afterwards (a copied model is packed on the fly).
void pack_weights(Linear& layer);
void pack_weights(Model& m);

// y = x W^T + b, the output columns split across the cores.
void linear(const Mat& x, const Linear& layer, Mat& y);
// Several layers on the same x in one pass over the cores (Q, K and V), so
// the threads meet once instead of once per layer.
struct LinearOut {
    const Linear* layer;
    Mat* y;
};
void linear(const Mat& x, std::initializer_list<LinearOut> outputs);
// y = GELU(x W^T + b) (exact: 0.5 x (1 + erf(x / sqrt 2)), or the tanh form), the activation applied by the thread that
// made the rows.
void linear_gelu(const Mat& x, const Linear& layer, bool tanh_form, Mat& y);
// Row-wise LayerNorm with affine weight and bias, the rows split across the cores.
void layer_norm(const Mat& x, const Vec& weight, const Vec& bias, float eps, Mat& y);
// The residual step and the norm after it in one pass over the rows:
// x += branch (each column times layer_scale, when that is not empty), then
// y = LayerNorm(x).
void add_and_layer_norm(Mat& x, const Mat& branch, const Vec& layer_scale, const Vec& weight, const Vec& bias,
                        float eps, Mat& y);
// One head's attention for query rows [begin, end): the softmax(q k^T * scale)
// rows go to weights ((end - begin) x N, contiguous; null: not kept) and
// weights * v to the head's columns of context. q, k, v and context are
// N x dim, head h owning columns [h * head_dim, (h + 1) * head_dim).
void head_attention(const Mat& q, const Mat& k, const Mat& v, int head, int head_dim, float scale, int begin, int end,
                    float* weights, Mat& context);
// dst's rows [begin, end) = those rows of src's columns [col, col + dst.cols()),
// with stores that bypass the cache: copies into the trace, read much later.
void copy_to_trace(const Mat& src, int col, int begin, int end, Mat& dst);

}  // namespace vit
