// Properties the explanation rests on, checked on the real default model:
// softmax rows are distributions, scaled = raw / sqrt(d_k), each head's output
// is the weighted sum of values, attention is global, and without position
// embeddings the layer is permutation-equivariant.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "support/real_model_fixture.h"
#include "vit/analysis/attention_rows.h"
#include "vit/base/error.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/model/model.h"

namespace vit {
namespace {

struct RealModel : testing::RealModelFixture {};

TEST_F(RealModel, TraceHasEveryLayerHeadAndToken) {
    EXPECT_EQ(trace->grid, 14);
    EXPECT_EQ(trace->tokens, 197);
    ASSERT_EQ(trace->layers.size(), 12u);
    for (const auto& layer : trace->layers) {
        ASSERT_EQ(layer.heads.size(), 3u);
        for (const auto& h : layer.heads) {
            EXPECT_EQ(h.attn.rows(), 197);
            EXPECT_EQ(h.attn.cols(), 197);
            EXPECT_EQ(h.q.cols(), 64);
        }
    }
}

TEST_F(RealModel, EverySoftmaxRowIsADistribution) {
    for (const auto& layer : trace->layers)
        for (const auto& h : layer.heads) {
            EXPECT_GE(h.attn.minCoeff(), 0.0f);
            const Eigen::VectorXd sums = h.attn.cast<double>().rowwise().sum();
            EXPECT_LT((sums.array() - 1.0).abs().maxCoeff(), 1e-6);
        }
}

TEST_F(RealModel, ScaledScoresAreRawOverSqrtDkAndGiveTheWeights) {
    for (int layer : {0, 5, 11})
        for (int head = 0; head < 3; ++head)
            for (int query : {0, trace->token_of(5, 7), trace->tokens - 1}) {
                const Vec raw = raw_scores(*trace, layer, head, query);
                const Vec scaled = scaled_scores(*trace, layer, head, query);
                // Raw score j is the dot product of q_i and k_j, in double.
                const auto& h = trace->layers[layer].heads[head];
                for (int j : {0, 17, 196}) {
                    const double dot = h.q.row(query).cast<double>().dot(h.k.row(j).cast<double>());
                    EXPECT_NEAR(raw[j], dot, 1e-4 * std::max(1.0, std::abs(dot)));
                }
                EXPECT_LT((scaled - raw / 8.0f).cwiseAbs().maxCoeff(), 1e-5f);
                const Vec weights = attention_row(*trace, layer, head, query);
                EXPECT_LT((softmax(scaled) - weights).cwiseAbs().maxCoeff(), 1e-6f);
            }
}

TEST_F(RealModel, HeadOutputIsTheWeightedSumOfValues) {
    for (int layer : {0, 8, 11})
        for (int head = 0; head < 3; ++head) {
            const auto& h = trace->layers[layer].heads[head];
            for (int query : {0, 82, 196}) {
                Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(h.v.cols());
                for (int j = 0; j < trace->tokens; ++j)
                    sum += static_cast<double>(h.attn(query, j)) * h.v.row(j).cast<double>();
                EXPECT_LT((h.out.row(query).cast<double>() - sum).cwiseAbs().maxCoeff(), 1e-4);
            }
        }
}

TEST_F(RealModel, AttentionIsGlobalNotLocal) {
    // A convolution or windowed attention would give the far corner nothing.
    const int corner = trace->token_of(0, 0), far = trace->token_of(13, 13);
    double best_far_quadrant = 0;
    for (const auto& layer : trace->layers)
        for (const auto& h : layer.heads) {
            EXPECT_GT(h.attn(corner, far), 0.0f);
            double quadrant = 0;
            for (int r = 7; r < 14; ++r)
                for (int c = 7; c < 14; ++c) quadrant += h.attn(corner, trace->token_of(r, c));
            best_far_quadrant = std::max(best_far_quadrant, quadrant);
        }
    EXPECT_GT(best_far_quadrant, 0.1);
}

TEST_F(RealModel, PermutingPatchesPermutesOutputsWithoutPositionEmbeddings) {
    Model no_pos = *model;
    no_pos.pos.setZero();
    const Trace base = forward(no_pos, *input);
    // Move whole 16 x 16 patches of the input to new places.
    std::vector<int> perm(196);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), std::mt19937(7));
    Input shuffled = *input;
    for (int src = 0; src < 196; ++src) {
        const int dst = perm[src];
        for (int c = 0; c < 3; ++c)
            for (int y = 0; y < 16; ++y)
                for (int x = 0; x < 16; ++x)
                    shuffled.chw[(c * 224 + (dst / 14) * 16 + y) * 224 + (dst % 14) * 16 + x] =
                        input->at(c, (src / 14) * 16 + y, (src % 14) * 16 + x);
    }
    const Trace moved = forward(no_pos, shuffled);
    for (int src = 0; src < 196; ++src) {
        const int a = 1 + src, b = 1 + perm[src];
        EXPECT_LT((base.final_tokens.row(a) - moved.final_tokens.row(b)).cwiseAbs().maxCoeff(), 2e-3f);
        EXPECT_NEAR(base.layers[11].heads[0].attn(a, 0), moved.layers[11].heads[0].attn(b, 0), 1e-5f);
    }
    EXPECT_LT((base.logits - moved.logits).cwiseAbs().maxCoeff(), 2e-3f);
}

TEST_F(RealModel, LargerInputInterpolatesPositionEmbeddings) {
    const Input big = preprocess(load_image(testing::asset("dog.jpg")), model->config.pre, 448);
    const Trace t = forward(*model, big, TraceOptions{false, true, false});
    EXPECT_EQ(t.grid, 28);
    EXPECT_EQ(t.tokens, 785);
    EXPECT_EQ(t.layers[0].heads[0].attn.rows(), 785);
    const Mat pos = interpolate_pos_embed(*model, 28);
    EXPECT_EQ(pos.rows(), 785);
    EXPECT_EQ(pos.row(0), model->pos.row(0));  // CLS keeps its embedding
}

TEST(PositionEmbedding, SameGridIsUnchangedAndConstantsStayConstant) {
    Model m;
    m.dim = 2;
    m.pos_grid = 4;
    m.pos = Mat::Constant(1 + 16, 2, 0.25f);
    m.pos.row(0) << 9.0f, -9.0f;
    EXPECT_EQ(interpolate_pos_embed(m, 4), m.pos);
    const Mat up = interpolate_pos_embed(m, 7);
    EXPECT_EQ(up.rows(), 1 + 49);
    EXPECT_EQ(up.row(0), m.pos.row(0));
    EXPECT_LT((up.bottomRows(49).array() - 0.25f).abs().maxCoeff(), 1e-6f);
}

TEST(Forward, RefusesAnInputThatIsNotAMultipleOfThePatch) {
    Model m;
    m.patch = 16;
    Input in;
    in.size = 30;
    in.chw.assign(3 * 30 * 30, 0.f);
    EXPECT_THROW(forward(m, in), Error);
}

}  // namespace
}  // namespace vit

namespace vit {
namespace {

TEST_F(RealModel, TraceMemoryIsComputedBeforeRunningAndBounded) {
    // 12 layers x 3 heads x 197^2 weights, plus Q/K/V/out and states.
    const size_t bytes = trace_bytes(*model, 224, TraceOptions{});
    EXPECT_GE(bytes, 12u * 3 * 197 * 197 * 4);
    EXPECT_LT(bytes, 64u << 20);
    // At 2240 px the trace (19,601 tokens) would need about 55 GiB: refused, not attempted.
    TraceOptions opt;
    opt.memory_budget = size_t{2} << 30;
    EXPECT_GT(trace_bytes(*model, 2240, opt), opt.memory_budget);
    Input huge;
    huge.size = 2240;
    huge.chw.assign(size_t{3} * 2240 * 2240, 0.f);
    try {
        forward(*model, huge, opt);
        FAIL() << "expected the budget to refuse";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("memory budget"), std::string::npos) << e.what();
    }
    // A tight budget refuses even the normal size; a plain forward fits.
    opt.memory_budget = 1 << 20;
    EXPECT_THROW(forward(*model, *input, opt), Error);
}

}  // namespace
}  // namespace vit
