// How CLS aggregates: its weights on itself and the prefix, attention rollout
// (hand-made attention with closed-form answers), and the logit lens on a
// synthetic model (checked against the LayerNorm and classifier written out here).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "support/hand_made_trace.h"
#include "support/random_input.h"
#include "support/synthetic_model.h"
#include "vit/analysis/cls.h"
#include "vit/analysis/logit_lens.h"
#include "vit/analysis/rollout.h"
#include "vit/base/error.h"

namespace vit {
namespace {

// Row-stochastic n x n with random positive entries.
Mat random_attention(int n, std::mt19937& rng) {
    std::uniform_real_distribution<float> u(0.01f, 1.0f);
    Mat a(n, n);
    for (int i = 0; i < a.size(); ++i) a.data()[i] = u(rng);
    return a.array().colwise() / a.rowwise().sum().array();
}

TEST(Rollout, IdentityAttentionIsTheIdentity) {
    const Trace t = testing::hand_made_trace(3, 1, 4, 2, [](int, int) { return Mat(Mat::Identity(10, 10)); });
    EXPECT_LT((attention_rollout(t) - Eigen::MatrixXd::Identity(10, 10)).cwiseAbs().maxCoeff(), 1e-15);
    EXPECT_LT((rollout_row(t, 0) - Eigen::VectorXd::Unit(10, 0)).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(Rollout, UniformAttentionHasAClosedForm) {
    // A~ = (U + I) / 2 with U = 11^T / n idempotent, so A~^L = 2^-L I + (1 - 2^-L) U.
    const int n = 10, layers = 3;
    const Trace t = testing::hand_made_trace(3, 1, layers, 3, [](int, int) { return testing::uniform_rows(n); });
    const double k = std::pow(0.5, layers);
    const Eigen::MatrixXd expected = k * Eigen::MatrixXd::Identity(n, n) + Eigen::MatrixXd::Constant(n, n, (1 - k) / n);
    EXPECT_LT((attention_rollout(t) - expected).cwiseAbs().maxCoeff(), 1e-7);
    // Through layer 0 only: one factor.
    const Eigen::MatrixXd one = 0.5 * Eigen::MatrixXd::Identity(n, n) + Eigen::MatrixXd::Constant(n, n, 0.5 / n);
    EXPECT_LT((attention_rollout(t, 0) - one).cwiseAbs().maxCoeff(), 1e-7);
}

TEST(Rollout, ProductRunsFromTheFirstLayerUpAndRowsMatch) {
    std::mt19937 rng(5);
    std::vector<Mat> a;  // layer-major, 2 heads each
    for (int i = 0; i < 6; ++i) a.push_back(random_attention(10, rng));
    const Trace t = testing::hand_made_trace(3, 1, 3, 2, [&](int l, int h) { return a[2 * l + h]; });
    auto mixing = [&](int l) {
        Eigen::MatrixXd m = 0.25 * (a[2 * l] + a[2 * l + 1]).cast<double>() + 0.5 * Eigen::MatrixXd::Identity(10, 10);
        return m;  // rows already sum to one
    };
    const Eigen::MatrixXd expected = mixing(2) * mixing(1) * mixing(0);
    const Eigen::MatrixXd r = attention_rollout(t);
    EXPECT_LT((r - expected).cwiseAbs().maxCoeff(), 1e-7);
    EXPECT_GT((r - mixing(0) * mixing(1) * mixing(2)).cwiseAbs().maxCoeff(), 1e-4);  // the order matters here
    for (int q : {0, 4, 9}) EXPECT_LT((rollout_row(t, q) - r.row(q).transpose()).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((r.rowwise().sum().array() - 1).abs().maxCoeff(), 1e-12);
    EXPECT_THROW(rollout_row(t, 10), Error);
    EXPECT_THROW(attention_rollout(t, 3), Error);
}

TEST(ClsWeights, SelfAndPrefixPerHead) {
    // Prefix 2 (CLS + a register), grid 2: 6 tokens. CLS row of head h: self 0.1 (h + 1), register 0.2.
    const Trace t = testing::hand_made_trace(2, 2, 2, 2, [](int l, int h) {
        Mat a = testing::uniform_rows(6);
        const float self = 0.1f * (h + 1), reg = 0.2f, rest = (1 - self - reg) / 4;
        a.row(0) << self, reg, rest, rest, rest, rest;
        if (l == 1) a.row(0) << 1, 0, 0, 0, 0, 0;
        return a;
    });
    const ClsWeights w = cls_weights(t);
    EXPECT_NEAR(w.self(0, 0), 0.1, 1e-7);
    EXPECT_NEAR(w.self(0, 1), 0.2, 1e-7);
    EXPECT_NEAR(w.prefix(0, 0), 0.3, 1e-7);
    EXPECT_NEAR(w.prefix(0, 1), 0.4, 1e-7);
    EXPECT_NEAR(w.self_mean[0], 0.15, 1e-7);
    EXPECT_NEAR(w.prefix_mean[0], 0.35, 1e-7);
    EXPECT_EQ(w.self_mean[1], 1.0);  // layer 1: every head's CLS row is one-hot on itself
    EXPECT_EQ(w.self(1, 1), 1.0);
    EXPECT_EQ(w.prefix(1, 0), 1.0);

    // Read off a row: a head's CLS row gives that head's numbers, the mean of
    // two heads' rows their mean; a row of the wrong length is refused.
    const PrefixWeights one = prefix_weights(t, t.layers[0].heads[1].attn.row(0).transpose());
    EXPECT_NEAR(one.self, 0.2, 1e-7);
    EXPECT_NEAR(one.prefix, 0.4, 1e-7);
    const Vec mean = 0.5f * (t.layers[0].heads[0].attn.row(0) + t.layers[0].heads[1].attn.row(0)).transpose();
    const PrefixWeights both = prefix_weights(t, mean);
    EXPECT_NEAR(both.self, w.self_mean[0], 1e-7);
    EXPECT_NEAR(both.prefix, w.prefix_mean[0], 1e-7);
    EXPECT_THROW(prefix_weights(t, Vec::Zero(5)), Error);
}

// LayerNorm and the classifier written out in double.
Eigen::VectorXd lens_probabilities(const Model& m, const RowVec& token) {
    const Eigen::RowVectorXd x = token.cast<double>();
    const double mean = x.mean(), var = (x.array() - mean).square().mean();
    const Eigen::VectorXd normed =
        (((x.array() - mean) / std::sqrt(var + 1e-6)).transpose() * m.norm_w.cast<double>().array() +
         m.norm_b.cast<double>().array())
            .matrix();
    const Eigen::VectorXd logits = m.head.w.cast<double>() * normed + m.head.b.cast<double>();
    const Eigen::VectorXd e = (logits.array() - logits.maxCoeff()).exp();
    return e / e.sum();
}

struct LensFixture : ::testing::Test {
    testing::SyntheticSpec spec;
    Model model;
    Input input;
    void SetUp() override {
        spec.depth = 3;
        spec.classes = 7;
        model = testing::make_synthetic_model(spec);
        input = testing::random_input(spec.image, 3);
    }
};

TEST_F(LensFixture, EachLayerIsTheFinalNormAndHeadOnTheTokenLeavingIt) {
    const Trace t = forward(model, input);
    ASSERT_EQ(t.last_block_out.rows(), t.tokens);
    const LogitLens lens = logit_lens(model, t, 3);
    ASSERT_EQ(lens.layers.size(), 3u);
    int final_top1 = 0;
    t.logits.maxCoeff(&final_top1);
    EXPECT_EQ(lens.final_top1, final_top1);
    for (int l = 0; l < 3; ++l) {
        const RowVec token = l < 2 ? RowVec(t.layers[l + 1].x_in.row(0)) : RowVec(t.last_block_out.row(0));
        const Eigen::VectorXd p = lens_probabilities(model, token);
        const LensLayer& layer = lens.layers[l];
        EXPECT_EQ(layer.layer, l);
        ASSERT_EQ(layer.top.size(), 3u);
        int best = 0;
        p.maxCoeff(&best);
        EXPECT_EQ(layer.top[0].index, best);
        EXPECT_NEAR(layer.top[0].probability, p[best], 1e-5);
        EXPECT_GE(layer.top[0].probability, layer.top[1].probability);
        EXPECT_GE(layer.top[1].probability, layer.top[2].probability);
        EXPECT_NEAR(layer.final_top1_probability, p[final_top1], 1e-5);
    }
    // After the last block the lens is the model's own prediction.
    const Eigen::VectorXd model_p = (t.logits.cast<double>().array() - t.logits.maxCoeff()).exp();
    EXPECT_NEAR(lens.layers[2].final_top1_probability, model_p[final_top1] / model_p.sum(), 1e-5);
}

TEST_F(LensFixture, LastBlockOutputIsWhatTheFinalNormReads) {
    const Trace t = forward(model, input);
    const Eigen::VectorXd p = lens_probabilities(model, t.last_block_out.row(0));
    const Eigen::VectorXd logits = t.logits.cast<double>();
    const Eigen::VectorXd e = (logits.array() - logits.maxCoeff()).exp();
    EXPECT_LT((p - e / e.sum()).cwiseAbs().maxCoeff(), 1e-5);
    TraceOptions plain;
    plain.keep_states = false;
    EXPECT_EQ(forward(model, input, plain).last_block_out.size(), 0);
    EXPECT_THROW(logit_lens(model, forward(model, input, plain)), Error);
}

TEST_F(LensFixture, DistilledModelsLensEndsAtTheirPrediction) {
    spec.dist_token = true;
    model = testing::make_synthetic_model(spec);
    const Trace t = forward(model, input);
    const LogitLens lens = logit_lens(model, t, 1);
    const Eigen::VectorXd e = (t.logits.cast<double>().array() - t.logits.maxCoeff()).exp();
    EXPECT_NEAR(lens.layers.back().final_top1_probability, e[lens.final_top1] / e.sum(), 1e-5);
}

TEST_F(LensFixture, ModelWithoutAClassifierIsRefused) {
    spec.classes = 0;
    model = testing::make_synthetic_model(spec);
    try {
        logit_lens(model, forward(model, input));
        FAIL() << "expected a refusal";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "this model has no classifier head");
    }
}

}  // namespace
}  // namespace vit
