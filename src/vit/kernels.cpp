#include "kernels.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "kernel_table.h"
#include "worker_pool.h"

namespace vit {
namespace {

const isa::KernelTable& pick_table() {
    const char* forced = std::getenv("VITSCOPE_ISA");
    const bool want_v3 = forced && std::strcmp(forced, "v3") == 0;
    __builtin_cpu_init();
    const bool has_v4 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    return has_v4 && !want_v3 ? isa::table_v4() : isa::table_v3();
}

const isa::KernelTable& table() {
    static const isa::KernelTable& chosen = pick_table();
    return chosen;
}

}  // namespace

const char* kernel_isa() { return table().name; }

void linear(const Mat& x, const Linear& layer, Mat& y) {
    const int rows = static_cast<int>(x.rows()), in = static_cast<int>(x.cols()), out = static_cast<int>(layer.w.rows());
    y.resize(rows, out);
    // One GEMM per core on a block of rows: Eigen's own threading splits these
    // small products too finely to pay off.
    WorkerPool& pool = WorkerPool::shared();
    const int parts = std::max(1, std::min(pool.threads(), rows / 16));
    const isa::KernelTable& k = table();
    pool.run(parts, [&](int t) {
        const int begin = rows * t / parts, end = rows * (t + 1) / parts;
        k.gemm_nt(x.data() + static_cast<long>(begin) * in, in, layer.w.data(), in, layer.b.data(), 1.0f,
                  y.data() + static_cast<long>(begin) * out, out, end - begin, out, in);
    });
}

void layer_norm(const Mat& x, const Vec& weight, const Vec& bias, float eps, Mat& y) {
    y.resize(x.rows(), x.cols());
    table().layer_norm_rows(x.data(), static_cast<int>(x.rows()), static_cast<int>(x.cols()), weight.data(),
                            bias.data(), eps, y.data());
}

void gelu(Mat& x, bool tanh_form) { table().gelu(x.data(), static_cast<long>(x.size()), tanh_form); }

void softmax_rows(Mat& x) {
    table().softmax_rows(x.data(), static_cast<int>(x.rows()), static_cast<int>(x.cols()), static_cast<int>(x.cols()));
}

namespace detail {

void head_attention_raw(const float* q, const float* k, const float* v, int ld_in, int n, int head_dim, float scale,
                        int begin, int end, float* weights, float* out, int ld_out) {
    const isa::KernelTable& t = table();
    const int rows = end - begin;
    t.gemm_nt(q + static_cast<long>(begin) * ld_in, ld_in, k, ld_in, nullptr, scale, weights, n, rows, n, head_dim);
    t.softmax_rows(weights, rows, n, n);
    t.gemm_nn(weights, n, v, ld_in, out + static_cast<long>(begin) * ld_out, ld_out, rows, head_dim, n);
}

}  // namespace detail
}  // namespace vit
