#include "vit/analysis/block_parts.h"

#include <string>

#include "vit/base/error.h"
#include "vit/kernels/kernels.h"

namespace vit {
namespace {

// Rows times the layer scale, when the model has one.
Mat scaled(Mat rows, const Vec& layer_scale) {
    if (layer_scale.size()) rows.array().rowwise() *= layer_scale.transpose().array();
    return rows;
}

}  // namespace

BlockParts block_parts(const Model& m, const Trace& t, int layer) {
    if (layer < 0 || layer >= static_cast<int>(t.layers.size()) || layer >= static_cast<int>(m.blocks.size()))
        throw Error("layer " + std::to_string(layer) + " is out of range (0.." + std::to_string(m.blocks.size() - 1) +
                    ")");
    const LayerTrace& lt = t.layers[layer];
    if (lt.x_in.rows() != t.tokens || lt.x_in.cols() != m.dim)
        throw Error("this trace was run without the token states");
    if (static_cast<int>(lt.heads.size()) != m.heads || lt.heads[0].out.rows() != t.tokens)
        throw Error("this trace was run without the heads' outputs");
    const Block& b = m.blocks[layer];
    const float eps = m.config.ln_eps;
    BlockParts p;
    layer_norm(lt.x_in, b.ln1_w, b.ln1_b, eps, p.ln1);
    Mat context(t.tokens, m.dim);
    for (int hd = 0; hd < m.heads; ++hd) context.middleCols(hd * m.head_dim, m.head_dim) = lt.heads[hd].out;
    Mat attn_branch;
    linear(context, b.proj, attn_branch);
    p.mid = lt.x_in;
    add_and_layer_norm(p.mid, attn_branch, b.ls1, b.ln2_w, b.ln2_b, eps, p.ln2);
    p.attn_branch = scaled(std::move(attn_branch), b.ls1);
    Mat hidden, mlp;
    linear_gelu(p.ln2, b.fc1, m.config.gelu_tanh, hidden);
    linear(hidden, b.fc2, mlp);
    p.mlp_branch = scaled(std::move(mlp), b.ls2);
    return p;
}

}  // namespace vit
