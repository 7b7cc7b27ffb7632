#include "kernels.h"

#include <algorithm>
#include <cmath>

#include <omp.h>
#include <unsupported/Eigen/SpecialFunctions>

namespace vit {

void linear(const Mat& x, const Linear& layer, Mat& y) {
    const Eigen::Index rows = x.rows();
    y.resize(rows, layer.w.rows());
    // Row blocks per thread: each block is one Eigen GEMM, so both cores work
    // even though Eigen's own threading is off (it would split too finely here).
    const int threads = std::max(1, std::min<int>(omp_get_max_threads(), static_cast<int>(rows / 16)));
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int t = 0; t < threads; ++t) {
        const Eigen::Index begin = rows * t / threads, end = rows * (t + 1) / threads;
        auto out = y.middleRows(begin, end - begin);
        out.noalias() = x.middleRows(begin, end - begin) * layer.w.transpose();
        out.rowwise() += layer.b.transpose();
    }
}

void layer_norm(const Mat& x, const Vec& weight, const Vec& bias, float eps, Mat& y) {
    y.resize(x.rows(), x.cols());
    const float inv_n = 1.0f / static_cast<float>(x.cols());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const auto row = x.row(i).array();
        const float mean = row.sum() * inv_n;
        const float var = (row - mean).square().sum() * inv_n;
        const float inv_std = 1.0f / std::sqrt(var + eps);
        y.row(i).array() = (row - mean) * inv_std * weight.transpose().array() + bias.transpose().array();
    }
}

void gelu(Mat& x, bool tanh_form) {
    auto a = x.array();
    if (tanh_form) {
        const float c = std::sqrt(2.0f / static_cast<float>(M_PI));
        a = 0.5f * a * (1.0f + (c * (a + 0.044715f * a.cube())).tanh());
    } else {
        a = 0.5f * a * (1.0f + (a * static_cast<float>(M_SQRT1_2)).erf());
    }
}

void softmax_rows(Mat& x) {
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        auto row = x.row(i).array();
        row = (row - row.maxCoeff()).exp();
        row /= row.sum();
    }
}

}  // namespace vit
