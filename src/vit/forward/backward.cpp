#include "vit/forward/backward.h"

#include <chrono>
#include <cmath>
#include <string>

#include "vit/base/error.h"
#include "vit/base/memory_budget.h"

namespace vit {
namespace {

// Double precision throughout: twelve layers of float rounding in the
// gradient would eat most of the 1e-4 agreement with PyTorch's float64.
using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using VecD = Eigen::VectorXd;

MatD to_double(const Mat& m) { return m.cast<double>(); }

// y = x W^T + b (b may be empty: a layer without bias).
MatD linear_d(const MatD& x, const Linear& layer) {
    MatD y = x * layer.w.cast<double>().transpose();
    if (layer.b.size()) y.rowwise() += layer.b.cast<double>().transpose();
    return y;
}

// What LayerNorm's backward needs from its forward: the normalised rows and 1/sigma.
struct NormSaved {
    MatD xhat;
    VecD inv_std;
};

MatD layer_norm_d(const MatD& x, const Vec& w, const Vec& b, double eps, NormSaved& saved) {
    const VecD mean = x.rowwise().mean();
    saved.xhat = x.colwise() - mean;
    saved.inv_std = (saved.xhat.array().square().rowwise().mean() + eps).rsqrt().matrix();
    saved.xhat = (saved.xhat.array().colwise() * saved.inv_std.array()).matrix();
    MatD y = (saved.xhat.array().rowwise() * w.cast<double>().transpose().array()).matrix();
    y.rowwise() += b.cast<double>().transpose();
    return y;
}

// dx = (1/sigma) (g - mean(g) - xhat mean(g xhat)), g = dy * w, per row.
MatD layer_norm_back(const NormSaved& s, const Vec& w, const MatD& dy) {
    const MatD g = (dy.array().rowwise() * w.cast<double>().transpose().array()).matrix();
    const VecD g_mean = g.rowwise().mean();
    const VecD gx_mean = (g.array() * s.xhat.array()).rowwise().mean();
    MatD dx = g.colwise() - g_mean;
    dx -= (s.xhat.array().colwise() * gx_mean.array()).matrix();
    return (dx.array().colwise() * s.inv_std.array()).matrix();
}

// GELU's derivative, exact (erf) or tanh form as the model's config says
// (the backward needs no GELU values: fc2's weights are not differentiated).
double gelu_derivative(double x, bool tanh_form) {
    if (!tanh_form)
        return 0.5 * (1.0 + std::erf(x / std::sqrt(2.0))) + x * std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI);
    const double c = std::sqrt(2.0 / M_PI), t = std::tanh(c * (x + 0.044715 * x * x * x));
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * c * (1.0 + 3.0 * 0.044715 * x * x);
}

// Multiplies each column by the layer scale (nothing when the model has none).
MatD scaled(const MatD& m, const Vec& layer_scale) {
    if (layer_scale.size() == 0) return m;
    return (m.array().rowwise() * layer_scale.cast<double>().transpose().array()).matrix();
}

// One block, forward in double from its input and back from d(output):
// returns d(input) and writes d(attention weights) per head.
MatD block_backward(const Model& m, const Block& b, const MatD& x_in, const MatD& d_out, std::vector<Mat>& d_attn) {
    const double eps = m.config.ln_eps;
    const bool tanh_form = m.config.gelu_tanh;
    const int heads = m.heads, dh = m.head_dim;
    const Eigen::Index n = x_in.rows();
    const double scale = 1.0 / std::sqrt(static_cast<double>(dh));
    // Forward, keeping what the backward reads.
    NormSaved norm1, norm2;
    const MatD h1 = layer_norm_d(x_in, b.ln1_w, b.ln1_b, eps, norm1);
    const MatD q = linear_d(h1, b.q), k = linear_d(h1, b.k), v = linear_d(h1, b.v);
    std::vector<MatD> attn(heads);
    MatD context(n, m.dim);
    for (int h = 0; h < heads; ++h) {
        MatD s = q.middleCols(h * dh, dh) * k.middleCols(h * dh, dh).transpose() * scale;
        s = (s.colwise() - s.rowwise().maxCoeff()).array().exp().matrix();
        attn[h] = (s.array().colwise() / s.rowwise().sum().array()).matrix();
        context.middleCols(h * dh, dh) = attn[h] * v.middleCols(h * dh, dh);
    }
    const MatD x_mid = x_in + scaled(linear_d(context, b.proj), b.ls1);
    const MatD h2 = layer_norm_d(x_mid, b.ln2_w, b.ln2_b, eps, norm2);
    const MatD pre = linear_d(h2, b.fc1);

    // Backward: the MLP branch (x_out = x_mid + ls2 * fc2(gelu(fc1(LN2(x_mid)))))...
    const MatD d_branch2 = scaled(d_out, b.ls2);
    const MatD d_hidden = d_branch2 * b.fc2.w.cast<double>();
    const MatD d_pre =
        (d_hidden.array() * pre.unaryExpr([&](double x) { return gelu_derivative(x, tanh_form); }).array()).matrix();
    MatD d_mid = d_out + layer_norm_back(norm2, b.ln2_w, d_pre * b.fc1.w.cast<double>());
    // ...then attention (x_mid = x_in + ls1 * proj(concat_h A_h v_h)).
    const MatD d_context = scaled(d_mid, b.ls1) * b.proj.w.cast<double>();
    MatD dq(n, m.dim), dk(n, m.dim), dv(n, m.dim);
    d_attn.resize(heads);
    for (int h = 0; h < heads; ++h) {
        const auto dc = d_context.middleCols(h * dh, dh);
        const MatD da = dc * v.middleCols(h * dh, dh).transpose();
        d_attn[h] = da.cast<float>();
        dv.middleCols(h * dh, dh) = attn[h].transpose() * dc;
        // Softmax backward, row by row: dS = A (dA - sum_j A dA).
        const VecD row_dot = (da.array() * attn[h].array()).rowwise().sum();
        const MatD ds = (attn[h].array() * (da.colwise() - row_dot).array()).matrix() * scale;
        dq.middleCols(h * dh, dh) = ds * k.middleCols(h * dh, dh);
        dk.middleCols(h * dh, dh) = ds.transpose() * q.middleCols(h * dh, dh);
    }
    const MatD d_h1 = dq * b.q.w.cast<double>() + dk * b.k.w.cast<double>() + dv * b.v.w.cast<double>();
    return d_mid + layer_norm_back(norm1, b.ln1_w, d_h1);
}

}  // namespace

size_t gradient_bytes(const Trace& t) {
    const size_t n = t.tokens, layers = t.layers.size();
    const size_t heads = layers ? t.layers[0].heads.size() : 0;
    const size_t dim = layers && t.layers[0].x_in.size() ? t.layers[0].x_in.cols() : 0;
    return (layers * heads * n * n + (layers + 1) * n * dim) * sizeof(float);
}

Gradients class_gradients(const Model& m, const Trace& t, int target_class) {
    if (m.head.w.size() == 0) throw Error("this model has no classifier: there is no class logit to differentiate");
    if (target_class < 0 || target_class >= m.num_classes())
        throw Error("class " + std::to_string(target_class) + " is out of range (0.." +
                    std::to_string(m.num_classes() - 1) + ")");
    if (t.layers.size() != m.blocks.size() || t.last_block_out.size() == 0 || t.layers.empty() ||
        t.layers[0].x_in.size() == 0)
        throw Error("the backward pass needs a trace run with its token states kept");
    if (const size_t need = gradient_bytes(t), budget = default_memory_budget(); need > budget)
        throw Error("the gradients at " + std::to_string(t.tokens) + " tokens would take " + byte_size(need) +
                    ", over the memory budget of " + byte_size(budget));
    const auto start = std::chrono::steady_clock::now();
    Gradients g;
    g.target_class = target_class;

    // The classifier: logit = w_c . LN(x)[CLS] + b_c, or DeiT's mean of the
    // CLS head and the distillation head.
    NormSaved final_norm;
    const MatD last = to_double(t.last_block_out);
    const MatD tokens = layer_norm_d(last, m.norm_w, m.norm_b, m.config.ln_eps, final_norm);
    MatD d_tokens = MatD::Zero(tokens.rows(), tokens.cols());
    const VecD w_cls = m.head.w.row(target_class).cast<double>().transpose();
    const bool distilled = m.has_dist_token && m.head_dist.w.size();
    const double share = distilled ? 0.5 : 1.0;
    d_tokens.row(0) = share * w_cls.transpose();
    g.logit = share * (tokens.row(0).dot(w_cls) + m.head.b[target_class]);
    if (distilled) {
        const VecD w_dist = m.head_dist.w.row(target_class).cast<double>().transpose();
        d_tokens.row(1) = share * w_dist.transpose();
        g.logit += share * (tokens.row(1).dot(w_dist) + m.head_dist.b[target_class]);
    }
    MatD d_x = layer_norm_back(final_norm, m.norm_w, d_tokens);
    g.x_out = d_x.cast<float>();

    const int layers = static_cast<int>(m.blocks.size());
    g.attn.resize(layers);
    g.x_in.resize(layers);
    for (int l = layers - 1; l >= 0; --l) {
        d_x = block_backward(m, m.blocks[l], to_double(t.layers[l].x_in), d_x, g.attn[l]);
        g.x_in[l] = d_x.cast<float>();
        // Gradients in double can still exceed float32 once stored: a map of NaN must never be drawn as one.
        bool finite = g.x_in[l].allFinite();
        for (const Mat& a : g.attn[l]) finite = finite && a.allFinite();
        if (!finite)
            throw Error("layer " + std::to_string(l) + ": the gradients are not finite (they overflow float32)");
    }
    g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return g;
}

}  // namespace vit
