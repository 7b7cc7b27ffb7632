#include "vit/analysis/mlp.h"

#include <cmath>
#include <string>

#include "vit/analysis/block_parts.h"
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
    if (token < 0 || token >= t.tokens)
        throw Error("token " + std::to_string(token) + " is out of range (0.." + std::to_string(t.tokens - 1) + ")");
    // The block for every token, as forward.cpp runs it (checks the layer and the trace's states).
    const BlockParts parts = block_parts(m, t, layer);
    const LayerTrace& lt = t.layers[layer];
    const Block& b = m.blocks[layer];
    const Mat& mlp_in = parts.ln2;
    const Mat mlp_all = mlp(m, b, mlp_in);  // before the layer scale: the what-ifs compare it

    TokenPath p;
    p.layer = layer;
    p.token = token;
    p.layer_scale = b.ls1.size() || b.ls2.size();
    for (const HeadTrace& h : lt.heads) p.head_outputs.push_back(h.out.row(token).transpose());
    p.residual_before = lt.x_in.row(token).transpose();
    p.attention_output = parts.attn_branch.row(token).transpose();
    p.residual_after_attention = parts.mid.row(token).transpose();
    p.mlp_output = scaled(mlp_all.middleRows(token, 1), b.ls2).transpose();
    p.residual_after = p.residual_after_attention + p.mlp_output;

    // The MLP of this token from its row alone.
    p.mlp_alone_max_abs_diff = max_abs_diff(mlp(m, b, mlp_in.middleRows(token, 1)), mlp_all.middleRows(token, 1));
    // What-ifs: the other tokens zeroed at the MLP's input, then at attention's.
    p.mlp_others_zeroed_max_abs_diff =
        max_abs_diff(mlp(m, b, only_row(mlp_in, token)).middleRows(token, 1), mlp_all.middleRows(token, 1));
    const Mat& attn_in = parts.ln1;
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
