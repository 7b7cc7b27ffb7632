// Row-wise kernels of the forward pass, vectorised through Eigen's packet math
// (AVX2/AVX-512 as the build target allows).
#pragma once
#include "model.h"
#include "tensor.h"

namespace vit {

// y = x W^T + b, the rows of x split across the worker threads.
void linear(const Mat& x, const Linear& layer, Mat& y);
// Row-wise LayerNorm with affine weight and bias.
void layer_norm(const Mat& x, const Vec& weight, const Vec& bias, float eps, Mat& y);
// In place: exact GELU 0.5 x (1 + erf(x / sqrt 2)), or the tanh form.
void gelu(Mat& x, bool tanh_form);
// In place: numerically stable softmax of every row.
void softmax_rows(Mat& x);

}  // namespace vit
