// Properties of the what-if rows: temperature 1 is the real model, no scaling is
// the softmax of the raw scores, every softmax row sums to one and the
// no-softmax row does not. A small synthetic trace (seeded, test-only random
// values) covers the algebra; the real model covers the claim
// that T = 1 reproduces exactly what the forward pass stored.
#include <cmath>

#include <gtest/gtest.h>

#include "support/default_model.h"
#include "support/synthetic_trace.h"

#include "vit/analysis/whatif.h"
#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/model/model.h"

namespace {

using vit::testing::kDim;
using vit::testing::kHeads;
using vit::testing::kLayers;
using vit::testing::kTokens;
using vit::testing::reference_softmax;

class WhatIfTest : public ::testing::Test {
protected:
    vit::Trace t = vit::testing::synthetic_trace();
};

TEST_F(WhatIfTest, TemperatureOneIsTheRealRow) {
    for (int l = 0; l < kLayers; ++l)
        for (int h = 0; h < kHeads; ++h)
            for (int q = 0; q < kTokens; ++q) {
                const vit::Vec w = vit::whatif_row(t, l, h, q, vit::WhatIf::Temperature, 1.f);
                const vit::Vec real = t.layers[l].heads[h].attn.row(q).transpose();
                EXPECT_LT((w - real).cwiseAbs().maxCoeff(), 1e-6f) << "layer " << l << " head " << h << " query " << q;
            }
}

TEST_F(WhatIfTest, NoScalingIsSoftmaxOfRawScores) {
    const auto& hd = t.layers[1].heads[0];
    for (int q = 0; q < kTokens; ++q) {
        Eigen::VectorXd raw = hd.k.cast<double>() * hd.q.row(q).transpose().cast<double>();
        const vit::Vec w = vit::whatif_row(t, 1, 0, q, vit::WhatIf::NoScaling);
        EXPECT_LT((w - reference_softmax(raw)).cwiseAbs().maxCoeff(), 1e-6f);
    }
}

TEST_F(WhatIfTest, NoScalingIsPeakierThanTheRealRow) {
    // Dividing by sqrt(d_k) = 2 flattens the distribution, so removing it sharpens it.
    for (int q = 0; q < kTokens; ++q) {
        const auto real = vit::summarize_row(vit::whatif_row(t, 0, 1, q, vit::WhatIf::Temperature, 1.f));
        const auto sharp = vit::summarize_row(vit::whatif_row(t, 0, 1, q, vit::WhatIf::NoScaling));
        EXPECT_LE(sharp.effective_keys, real.effective_keys + 1e-9);
    }
}

TEST_F(WhatIfTest, SoftmaxRowsSumToOneAndNoSoftmaxDoesNot) {
    for (int q = 0; q < kTokens; ++q) {
        for (vit::WhatIf kind : vit::kAllWhatIfs) {
            for (float temp : {0.1f, 1.f, 7.f}) {
                const vit::Vec w = vit::whatif_row(t, 1, 1, q, kind, temp);
                ASSERT_EQ(w.size(), kTokens);
                const auto s = vit::summarize_row(w);
                if (vit::whatif_is_distribution(kind)) {
                    EXPECT_NEAR(s.sum, 1.0, 1e-5) << vit::whatif_name(kind);
                    EXPECT_GE(s.min, 0.0);
                } else {
                    const auto& hd = t.layers[1].heads[1];
                    const double raw_sum = (hd.k.cast<double>() * hd.q.row(q).transpose().cast<double>()).sum();
                    EXPECT_NEAR(s.sum, raw_sum, 1e-4);
                    EXPECT_GT(std::abs(s.sum - 1.0), 1e-3) << "the raw scores happen to sum to one";
                }
            }
        }
    }
}

TEST_F(WhatIfTest, TemperatureExtremes) {
    const auto& hd = t.layers[0].heads[0];
    Eigen::Index best = 0;
    (hd.k * hd.q.row(3).transpose()).maxCoeff(&best);
    const auto cold = vit::summarize_row(vit::whatif_row(t, 0, 0, 3, vit::WhatIf::Temperature, 1e-3f));
    EXPECT_EQ(cold.argmax, best);
    EXPECT_NEAR(cold.max, 1.0, 1e-4);
    const auto hot = vit::summarize_row(vit::whatif_row(t, 0, 0, 3, vit::WhatIf::Temperature, 1e4f));
    EXPECT_NEAR(hot.effective_keys, kTokens, 1e-2);
}

TEST_F(WhatIfTest, ValueSimilarityUsesValues) {
    const auto& hd = t.layers[0].heads[1];
    Eigen::VectorXd s = hd.v.cast<double>() * hd.q.row(5).transpose().cast<double>() / std::sqrt(kDim);
    const vit::Vec w = vit::whatif_row(t, 0, 1, 5, vit::WhatIf::ValueSimilarity);
    EXPECT_LT((w - reference_softmax(s)).cwiseAbs().maxCoeff(), 1e-6f);
}

TEST_F(WhatIfTest, WeightedSumOfRealWeightsIsTheHeadOutput) {
    for (int q = 0; q < kTokens; ++q) {
        const auto& hd = t.layers[1].heads[0];
        const vit::Vec o = vit::weighted_sum_of_values(t, 1, 0, hd.attn.row(q).transpose());
        EXPECT_LT((o - hd.out.row(q).transpose()).cwiseAbs().maxCoeff(), 1e-5f);
    }
}

TEST_F(WhatIfTest, TopContributionsAreOrderedProducts) {
    const auto& hd = t.layers[0].heads[0];
    const vit::Vec w = hd.attn.row(2).transpose();
    const auto top = vit::top_contributions(t, 0, 0, w, 4);
    ASSERT_EQ(top.size(), 4u);
    for (size_t i = 0; i < top.size(); ++i) {
        const auto& c = top[i];
        EXPECT_FLOAT_EQ(c.weight, w[c.token]);
        EXPECT_NEAR(c.value_norm, hd.v.row(c.token).norm(), 1e-5f);
        EXPECT_NEAR(c.amount, c.weight * c.value_norm, 1e-6f);
        if (i) {
            EXPECT_GE(top[i - 1].amount, c.amount);
        }
    }
    // Nothing left out is larger than the smallest kept.
    for (int j = 0; j < kTokens; ++j) EXPECT_LE(w[j] * hd.v.row(j).norm(), top.front().amount + 1e-6f);
    EXPECT_EQ(vit::top_contributions(t, 0, 0, w, 100).size(), static_cast<size_t>(kTokens));
}

TEST(WhatIfSummary, EffectiveKeys) {
    vit::Vec uniform = vit::Vec::Constant(8, 1.f / 8);
    EXPECT_NEAR(vit::summarize_row(uniform).effective_keys, 8.0, 1e-5);
    vit::Vec one_hot = vit::Vec::Zero(8);
    one_hot[5] = 1;
    const auto s = vit::summarize_row(one_hot);
    EXPECT_NEAR(s.effective_keys, 1.0, 1e-9);
    EXPECT_EQ(s.argmax, 5);
    vit::Vec signed_row(3);
    signed_row << -1.f, 2.f, 0.5f;
    EXPECT_EQ(vit::summarize_row(signed_row).effective_keys, 0.0);
}

TEST_F(WhatIfTest, RefusesBadArguments) {
    EXPECT_THROW(vit::whatif_row(t, 0, 0, 0, vit::WhatIf::Temperature, 0.f), vit::Error);
    EXPECT_THROW(vit::whatif_row(t, 0, 0, kTokens, vit::WhatIf::NoScaling), vit::Error);
    EXPECT_THROW(vit::whatif_row(t, kLayers, 0, 0, vit::WhatIf::ValueSimilarity), vit::Error);
    EXPECT_THROW(vit::whatif_row(t, 0, kHeads, 0, vit::WhatIf::NoSoftmax), vit::Error);
    EXPECT_THROW(vit::weighted_sum_of_values(t, 0, 0, vit::Vec::Zero(3)), vit::Error);
}

TEST(WhatIfRealModel, TemperatureOneMatchesTheForwardPass) {
    const vit::Model model = vit::load_model(vit::testing::default_model_dir());
    const vit::Image image = vit::load_image(std::string(VITSCOPE_SOURCE_DIR) + "/assets/dog.jpg");
    const vit::Trace t = vit::forward(model, vit::preprocess(image, model.config.pre));
    for (int l : {0, 8, 11})
        for (int q : {0, t.token_of(5, 7)}) {
            const vit::Vec real = t.layers[l].heads[1].attn.row(q).transpose();
            const vit::Vec w = vit::whatif_row(t, l, 1, q, vit::WhatIf::Temperature, 1.f);
            EXPECT_LT((w - real).cwiseAbs().maxCoeff(), 2e-6f) << "layer " << l << " query " << q;
            EXPECT_NEAR(vit::summarize_row(vit::whatif_row(t, l, 1, q, vit::WhatIf::NoScaling)).sum, 1.0, 1e-5);
        }
}

}  // namespace
