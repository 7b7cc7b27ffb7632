// explain_step: every number of the step-by-step tab, checked against sums
// written out here in double on the synthetic trace, and the check "the
// recomputed a_ij equals the model's" failing when the stored weight is wrong.
#include <cmath>

#include <gtest/gtest.h>

#include "support/synthetic_trace.h"
#include "vit/analysis/step_explanation.h"
#include "vit/analysis/whatif.h"
#include "vit/base/error.h"

namespace {

using vit::testing::kDim;
using vit::testing::kTokens;

class StepExplanationTest : public ::testing::Test {
protected:
    vit::Trace t = vit::testing::synthetic_trace();
};

TEST_F(StepExplanationTest, ScoresSoftmaxAndOutputFromTheVectors) {
    const int layer = 1, head = 0, query = 4, key = 7;
    const vit::HeadTrace& h = t.layers[layer].heads[head];
    const vit::StepExplanation e = vit::explain_step(t, layer, head, query, key);

    double score = 0;
    for (int d = 0; d < kDim; ++d) score += double(h.q(query, d)) * h.k(key, d);
    EXPECT_NEAR(e.score, score, 1e-5);
    EXPECT_NEAR(e.qk_product.sum(), score, 1e-5);
    EXPECT_NEAR(e.scaled_score, score / 2.0, 1e-5);  // sqrt(d_k) = 2 for d_k = 4
    EXPECT_FLOAT_EQ(e.sqrt_dk, 2.f);

    double z = 0;
    for (int j = 0; j < kTokens; ++j) {
        double s = 0;
        for (int d = 0; d < kDim; ++d) s += double(h.q(query, d)) * h.k(j, d);
        z += std::exp(s / 2.0);
    }
    EXPECT_NEAR(e.z, z, 1e-5 * z);
    EXPECT_NEAR(e.exp_score, std::exp(score / 2.0), 1e-5 * e.exp_score);
    EXPECT_NEAR(e.recomputed_weight, std::exp(score / 2.0) / z, 1e-6);
    EXPECT_FLOAT_EQ(e.model_weight, h.attn(query, key));
    EXPECT_TRUE(e.agrees);

    EXPECT_NEAR(e.row.sum, 1.0, 1e-6);
    vit::Vec o = vit::Vec::Zero(kDim);
    for (int j = 0; j < kTokens; ++j) o += h.attn(query, j) * h.v.row(j).transpose();
    EXPECT_LT((e.output - o).cwiseAbs().maxCoeff(), 1e-5f);
    EXPECT_GE(e.value_extent, e.output.cwiseAbs().maxCoeff());
    EXPECT_GE(e.value_extent, h.v.cwiseAbs().maxCoeff());
}

TEST_F(StepExplanationTest, ContributionsCoverEveryKeyAndShareSumsToOne) {
    const vit::StepExplanation e = vit::explain_step(t, 0, 1, 2, 0);
    ASSERT_EQ(static_cast<int>(e.contributions.size()), kTokens);
    double share = 0;
    for (size_t r = 0; r < e.contributions.size(); ++r) {
        share += e.contributions[r].share;
        if (r) {
            EXPECT_GE(e.contributions[r - 1].amount, e.contributions[r].amount);
        }
    }
    EXPECT_NEAR(share, 1.0, 1e-5);
}

TEST_F(StepExplanationTest, AWrongStoredWeightIsFlagged) {
    t.layers[0].heads[0].attn(3, 5) *= 1.01f;
    EXPECT_FALSE(vit::explain_step(t, 0, 0, 3, 5).agrees);
    EXPECT_TRUE(vit::explain_step(t, 0, 0, 3, 6).agrees);
}

TEST_F(StepExplanationTest, StrongestKeyIsTheRowsArgmax) {
    const vit::HeadTrace& h = t.layers[1].heads[1];
    for (int q = 0; q < kTokens; ++q) {
        int best = 0;
        for (int j = 1; j < kTokens; ++j)
            if (h.attn(q, j) > h.attn(q, best)) best = j;
        EXPECT_EQ(vit::strongest_key(t, 1, 1, q), best);
    }
}

TEST_F(StepExplanationTest, RefusesOutOfRange) {
    EXPECT_THROW(vit::explain_step(t, 0, 0, 0, kTokens), vit::Error);
    EXPECT_THROW(vit::explain_step(t, 0, 0, -1, 0), vit::Error);
    EXPECT_THROW(vit::explain_step(t, 5, 0, 0, 0), vit::Error);
}

TEST_F(StepExplanationTest, WhatIfOutcomeOfTheRealTemperatureChangesNothing) {
    const vit::WhatIfOutcome same = vit::whatif_outcome(t, 1, 0, 3, vit::WhatIf::Temperature, 1.f);
    EXPECT_LT(same.output_change, 1e-5);
    EXPECT_TRUE(same.distribution);
    const vit::WhatIfOutcome raw = vit::whatif_outcome(t, 1, 0, 3, vit::WhatIf::NoSoftmax);
    EXPECT_FALSE(raw.distribution);
    // o' = sum_j s_ij v_j against o = sum_j a_ij v_j, written out.
    const vit::HeadTrace& h = t.layers[1].heads[0];
    const vit::Vec o = h.attn.row(3) * h.v;
    const vit::Vec changed = (h.k * h.q.row(3).transpose()).transpose() * h.v;
    EXPECT_NEAR(raw.output_change, (changed - o).norm() / o.norm(), 1e-4 * raw.output_change);
}

}  // namespace
