// One token's path through a block, on synthetic models with and without
// layer scale: its parts add up to the next block's input (or, after the last
// block, to what the final LayerNorm normalises); attention's and the MLP's
// outputs match a double-precision recomputation; the MLP works on each token
// alone and attention does not.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "support/random_input.h"
#include "support/synthetic_model.h"
#include "vit/analysis/mlp.h"
#include "vit/base/error.h"

namespace vit {
namespace {

using Eigen::VectorXd;

using testing::random_input;

// Written out in double from the equations, apart from the library.
VectorXd layer_norm(const VectorXd& x, const Vec& w, const Vec& b, double eps) {
    const double mean = x.mean();
    const double var = (x.array() - mean).square().mean();
    return ((x.array() - mean) / std::sqrt(var + eps) * w.cast<double>().array() + b.cast<double>().array()).matrix();
}
VectorXd affine(const Linear& l, const VectorXd& x) { return l.w.cast<double>() * x + l.b.cast<double>(); }
VectorXd times(const Vec& scale, const VectorXd& x) {
    return scale.size() ? VectorXd(scale.cast<double>().cwiseProduct(x)) : x;
}

void check_model(const testing::SyntheticSpec& spec) {
    const Model m = testing::make_synthetic_model(spec);
    const Trace t = forward(m, random_input(spec.image, 8));
    for (int layer = 0; layer < spec.depth; ++layer)
        for (int token : {0, t.token_of(1, 2), t.tokens - 1}) {
            SCOPED_TRACE("layer " + std::to_string(layer) + " token " + std::to_string(token));
            const TokenPath p = token_path(m, t, layer, token);
            const Block& b = m.blocks[layer];
            EXPECT_EQ(p.layer_scale, spec.layer_scale);
            ASSERT_EQ(p.head_outputs.size(), static_cast<size_t>(spec.heads));
            VectorXd concat(m.dim);
            for (int h = 0; h < spec.heads; ++h)
                concat.segment(h * m.head_dim, m.head_dim) = p.head_outputs[h].cast<double>();
            const VectorXd attn = times(b.ls1, affine(b.proj, concat));
            EXPECT_LT((p.attention_output.cast<double>() - attn).cwiseAbs().maxCoeff(), 1e-5);
            const VectorXd mid = p.residual_before.cast<double>() + attn;
            EXPECT_LT((p.residual_after_attention.cast<double>() - mid).cwiseAbs().maxCoeff(), 1e-5);
            VectorXd hidden = affine(b.fc1, layer_norm(mid, b.ln2_w, b.ln2_b, m.config.ln_eps));
            for (double& v : hidden) v = 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
            const VectorXd mlp = times(b.ls2, affine(b.fc2, hidden));
            EXPECT_LT((p.mlp_output.cast<double>() - mlp).cwiseAbs().maxCoeff(), 1e-4);
            // What leaves the block is what the forward pass carried on.
            if (layer + 1 < spec.depth) {
                EXPECT_LT((p.residual_after.transpose() - t.layers[layer + 1].x_in.row(token)).cwiseAbs().maxCoeff(),
                          1e-5f);
            } else {
                const VectorXd final = layer_norm(p.residual_after.cast<double>(), m.norm_w, m.norm_b, m.config.ln_eps);
                EXPECT_LT((final - t.final_tokens.row(token).transpose().cast<double>()).cwiseAbs().maxCoeff(), 1e-4);
            }
            EXPECT_EQ(p.residual_before.transpose(), t.layers[layer].x_in.row(token));
            // The MLP sees one token; attention sees them all.
            EXPECT_LT(p.mlp_alone_max_abs_diff, 1e-5);
            EXPECT_LT(p.mlp_others_zeroed_max_abs_diff, 1e-5);
            EXPECT_GT(p.attention_others_zeroed_max_abs_diff, 1e-2);
            const std::vector<PartNorm> norms = token_path_norms(p);
            ASSERT_EQ(norms.size(), static_cast<size_t>(spec.heads) + 5);
            EXPECT_EQ(norms[0].part, "head_0");
            EXPECT_EQ(norms[spec.heads].part, "attention_output");
            EXPECT_NEAR(norms[spec.heads].norm, attn.norm(), 1e-4);
            EXPECT_EQ(norms.back().part, "residual_after");
            EXPECT_NEAR(norms.back().norm, (mid + mlp).norm(), 1e-4);
        }
}

TEST(TokenPath, PlainModel) { check_model({}); }

TEST(TokenPath, LayerScaleAndRegisters) {
    testing::SyntheticSpec spec;
    spec.layer_scale = true;
    spec.registers = 2;
    spec.depth = 3;
    check_model(spec);
}

TEST(TokenPath, RefusesOutOfRangeAndTracesWithoutStates) {
    const testing::SyntheticSpec spec;
    const Model m = testing::make_synthetic_model(spec);
    const Trace t = forward(m, random_input(spec.image, 9));
    EXPECT_THROW(token_path(m, t, spec.depth, 0), Error);
    EXPECT_THROW(token_path(m, t, 0, t.tokens), Error);
    EXPECT_THROW(token_path(m, forward(m, random_input(spec.image, 9), TraceOptions{true, true, false}), 0, 0), Error);
}

}  // namespace
}  // namespace vit
