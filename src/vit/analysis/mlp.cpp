#include "vit/analysis/mlp.h"

#include <cmath>
#include <string>

#include "vit/base/error.h"
#include "vit/kernels/kernels.h"

namespace vit {
namespace {

double max_abs_diff(const Mat& a, const Mat& b) { return (a - b).cwiseAbs().maxCoeff(); }

// Rows times the layer scale, when the model has one.
Mat scaled(Mat rows, const Vec& layer_scale) {
    if (layer_scale.size()) rows.array().rowwise() *= layer_scale.transpose().array();
    return rows;
}

// fc2(GELU(fc1(h))), the block's MLP on every row of h.
Mat mlp(const Model& m, const Block& b, const Mat& h) {
    Mat hidden, out;
    linear_gelu(h, b.fc1, m.config.gelu_tanh, hidden);
    linear(hidden, b.fc2, out);
    return out;
}

// Row `token` of the block's attention output (W_O of the heads' outputs)
// for the attention input h (after LN1), all tokens as keys and values.
Mat attention_output_of(const Model& m, const Block& b, const Mat& h, int token) {
    Mat q, k, v;
    linear(h, {{&b.q, &q}, {&b.k, &k}, {&b.v, &v}});
    Mat context = Mat::Zero(h.rows(), m.dim), weights(1, h.rows());
    const float scale = 1.0f / std::sqrt(static_cast<float>(m.head_dim));
    for (int hd = 0; hd < m.heads; ++hd)
        head_attention(q, k, v, hd, m.head_dim, scale, token, token + 1, weights.data(), context);
    Mat out;
    linear(context.middleRows(token, 1), b.proj, out);
    return out;
}

// Every row but `token` replaced by zeros.
Mat only_row(const Mat& x, int token) {
    Mat z = Mat::Zero(x.rows(), x.cols());
    z.row(token) = x.row(token);
    return z;
}

}  // namespace

TokenPath token_path(const Model& m, const Trace& t, int layer, int token) {
    if (layer < 0 || layer >= static_cast<int>(t.layers.size()) || layer >= static_cast<int>(m.blocks.size()))
        throw Error("layer " + std::to_string(layer) + " is out of range (0.." + std::to_string(m.blocks.size() - 1) + ")");
    if (token < 0 || token >= t.tokens)
        throw Error("token " + std::to_string(token) + " is out of range (0.." + std::to_string(t.tokens - 1) + ")");
    const LayerTrace& lt = t.layers[layer];
    if (lt.x_in.rows() != t.tokens || lt.x_in.cols() != m.dim)
        throw Error("this trace was run without the token states");
    if (static_cast<int>(lt.heads.size()) != m.heads || lt.heads[0].out.rows() != t.tokens)
        throw Error("this trace was run without the heads' outputs");
    const Block& b = m.blocks[layer];
    const float eps = m.config.ln_eps;

    // The block for every token, as forward.cpp runs it (same kernels, same order).
    Mat context(t.tokens, m.dim);
    for (int hd = 0; hd < m.heads; ++hd) context.middleCols(hd * m.head_dim, m.head_dim) = lt.heads[hd].out;
    Mat attn_branch, mid = lt.x_in, mlp_in;
    linear(context, b.proj, attn_branch);
    add_and_layer_norm(mid, attn_branch, b.ls1, b.ln2_w, b.ln2_b, eps, mlp_in);
    const Mat mlp_all = mlp(m, b, mlp_in);

    TokenPath p;
    p.layer = layer;
    p.token = token;
    p.layer_scale = b.ls1.size() || b.ls2.size();
    for (const HeadTrace& h : lt.heads) p.head_outputs.push_back(h.out.row(token).transpose());
    p.residual_before = lt.x_in.row(token).transpose();
    p.attention_output = scaled(attn_branch.middleRows(token, 1), b.ls1).transpose();
    p.residual_after_attention = mid.row(token).transpose();
    p.mlp_output = scaled(mlp_all.middleRows(token, 1), b.ls2).transpose();
    p.residual_after = p.residual_after_attention + p.mlp_output;

    // The MLP of this token from its row alone.
    p.mlp_alone_max_abs_diff = max_abs_diff(mlp(m, b, mlp_in.middleRows(token, 1)), mlp_all.middleRows(token, 1));
    // What-ifs: the other tokens zeroed at the MLP's input, then at attention's.
    p.mlp_others_zeroed_max_abs_diff =
        max_abs_diff(mlp(m, b, only_row(mlp_in, token)).middleRows(token, 1), mlp_all.middleRows(token, 1));
    Mat attn_in;
    layer_norm(lt.x_in, b.ln1_w, b.ln1_b, eps, attn_in);
    p.attention_others_zeroed_max_abs_diff =
        max_abs_diff(scaled(attention_output_of(m, b, only_row(attn_in, token), token), b.ls1),
                     scaled(attention_output_of(m, b, attn_in, token), b.ls1));
    return p;
}

std::vector<PartNorm> token_path_norms(const TokenPath& p) {
    std::vector<PartNorm> parts;
    // Filled in place: moving a braced PartNorm into the vector trips GCC 12's
    // false -Warray-bounds on std::string (GCC bug 105329).
    const auto add = [&parts](std::string name, const Vec& v) {
        PartNorm& part = parts.emplace_back();
        part.part = std::move(name);
        part.norm = v.cast<double>().norm();
    };
    for (size_t h = 0; h < p.head_outputs.size(); ++h) add("head_" + std::to_string(h), p.head_outputs[h]);
    add("attention_output", p.attention_output);
    add("residual_before", p.residual_before);
    add("residual_after_attention", p.residual_after_attention);
    add("mlp_output", p.mlp_output);
    add("residual_after", p.residual_after);
    return parts;
}

}  // namespace vit
