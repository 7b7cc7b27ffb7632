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

namespace {

// Row blocks of x, one per core: each block is one GEMM per layer. (Eigen's
// own threading splits these small products too finely to pay off.)
template <typename Each>
void over_row_blocks(int rows, Each&& each) {
    WorkerPool& pool = WorkerPool::shared();
    const int parts = std::max(1, std::min(pool.threads(), rows / 16));
    pool.run(parts, [&](int t) { each(rows * t / parts, rows * (t + 1) / parts); });
}

void gemm_rows(const Mat& x, const Linear& layer, Mat& y, int begin, int end) {
    const int in = static_cast<int>(x.cols()), out = static_cast<int>(layer.w.rows());
    table().gemm_nt(x.data() + static_cast<long>(begin) * in, in, layer.w.data(), in, layer.b.data(), 1.0f,
                    y.data() + static_cast<long>(begin) * out, out, end - begin, out, in);
}

}  // namespace

void linear(const Mat& x, std::initializer_list<LinearOut> outputs) {
    for (const LinearOut& o : outputs) o.y->resize(x.rows(), o.layer->w.rows());
    over_row_blocks(static_cast<int>(x.rows()), [&](int begin, int end) {
        for (const LinearOut& o : outputs) gemm_rows(x, *o.layer, *o.y, begin, end);
    });
}

void linear(const Mat& x, const Linear& layer, Mat& y) { linear(x, {LinearOut{&layer, &y}}); }

void linear_gelu(const Mat& x, const Linear& layer, bool tanh_form, Mat& y) {
    y.resize(x.rows(), layer.w.rows());
    over_row_blocks(static_cast<int>(x.rows()), [&](int begin, int end) {
        gemm_rows(x, layer, y, begin, end);
        table().gelu(y.data() + static_cast<long>(begin) * y.cols(), static_cast<long>(end - begin) * y.cols(), tanh_form);
    });
}

void layer_norm(const Mat& x, const Vec& weight, const Vec& bias, float eps, Mat& y) {
    y.resize(x.rows(), x.cols());
    table().layer_norm_rows(x.data(), static_cast<int>(x.rows()), static_cast<int>(x.cols()), weight.data(),
                            bias.data(), eps, y.data());
}

void softmax_rows(Mat& x) {
    table().softmax_rows(x.data(), static_cast<int>(x.rows()), static_cast<int>(x.cols()), static_cast<int>(x.cols()));
}

void head_attention(const Mat& q, const Mat& k, const Mat& v, int head, int head_dim, float scale, int begin, int end,
                    float* weights, Mat& context) {
    const isa::KernelTable& t = table();
    const int n = static_cast<int>(k.rows()), ld = static_cast<int>(q.cols()), rows = end - begin;
    const long column = static_cast<long>(head) * head_dim;
    t.gemm_nt(q.data() + static_cast<long>(begin) * ld + column, ld, k.data() + column, ld, nullptr, scale, weights, n,
              rows, n, head_dim);
    t.softmax_rows(weights, rows, n, n);
    t.gemm_nn(weights, n, v.data() + column, ld, context.data() + static_cast<long>(begin) * context.cols() + column,
              static_cast<int>(context.cols()), rows, head_dim, n);
}

}  // namespace vit
