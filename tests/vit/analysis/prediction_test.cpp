// Predict, then reveal (vit/analysis/prediction.h): the weight on the marked
// patches against an even spread, on a hand-made trace, with every sum
// written out here in double; and the shared scale of two maps side by side.
#include <algorithm>

#include <gtest/gtest.h>

#include "support/synthetic_trace.h"
#include "vit/analysis/prediction.h"
#include "vit/analysis/side_by_side.h"
#include "vit/base/error.h"

namespace {

using vit::testing::synthetic_trace;

TEST(Prediction, WeightOnMarkedAgainstAnEvenSpread) {
    const vit::Trace t = synthetic_trace();
    const vit::Vec row = t.layers[1].heads[0].attn.row(4).transpose();
    const std::vector<int> marked = {2, 5, 9, 5};  // a repeat counts once
    const vit::PredictionScore s = vit::score_prediction(t, row, marked);
    double on_marked = 0, on_patches = 0;
    for (int token : {2, 5, 9}) on_marked += row[token];
    for (int token = 1; token < t.tokens; ++token) on_patches += row[token];
    EXPECT_EQ(s.marked, 3);
    EXPECT_EQ(s.patches, 9);
    EXPECT_DOUBLE_EQ(s.area_share, 3.0 / 9.0);
    EXPECT_NEAR(s.weight_on_marked, on_marked, 1e-12);
    EXPECT_NEAR(s.weight_on_patches, on_patches, 1e-12);
    EXPECT_NEAR(s.weight_on_patches, 1.0 - row[0], 1e-6);  // the softmax sums to one
    EXPECT_NEAR(s.even_spread, on_patches / 3.0, 1e-12);
    EXPECT_NEAR(s.ratio, on_marked / (on_patches / 3.0), 1e-9);
}

TEST(Prediction, EveryPatchMarkedHoldsAllThePatchWeight) {
    const vit::Trace t = synthetic_trace();
    const vit::Vec row = t.layers[0].heads[1].attn.row(0).transpose();
    std::vector<int> all;
    for (int token = t.prefix; token < t.tokens; ++token) all.push_back(token);
    const vit::PredictionScore s = vit::score_prediction(t, row, all);
    EXPECT_DOUBLE_EQ(s.area_share, 1.0);
    EXPECT_NEAR(s.weight_on_marked, s.weight_on_patches, 1e-12);
    EXPECT_NEAR(s.ratio, 1.0, 1e-12);
}

TEST(Prediction, NothingMarkedSaysNothing) {
    const vit::Trace t = synthetic_trace();
    const vit::PredictionScore s = vit::score_prediction(t, t.layers[0].heads[0].attn.row(3).transpose(), {});
    EXPECT_EQ(s.marked, 0);
    EXPECT_EQ(s.weight_on_marked, 0);
    EXPECT_EQ(s.ratio, 0);
    EXPECT_EQ(vit::prediction_sentence(s), "");
}

TEST(Prediction, TheSentenceFollowsTheRatio) {
    vit::PredictionScore s;
    s.marked = 2, s.patches = 196, s.area_share = 2.0 / 196, s.weight_on_patches = 0.9;
    s.even_spread = s.area_share * 0.9;
    s.weight_on_marked = 0.3, s.ratio = 0.3 / s.even_spread;
    EXPECT_NE(vit::prediction_sentence(s).find("more than an even spread"), std::string::npos);
    EXPECT_NE(vit::prediction_sentence(s).find("2 of 196"), std::string::npos);
    s.weight_on_marked = s.even_spread * 1.2, s.ratio = 1.2;
    EXPECT_NE(vit::prediction_sentence(s).find("about what an even spread"), std::string::npos);
    s.weight_on_marked = s.even_spread * 0.5, s.ratio = 0.5;
    EXPECT_NE(vit::prediction_sentence(s).find("less than an even spread"), std::string::npos);
}

TEST(Prediction, RefusesWhatIsNotAPatchOrARowOfTheTrace) {
    const vit::Trace t = synthetic_trace();
    const vit::Vec row = t.layers[0].heads[0].attn.row(3).transpose();
    EXPECT_THROW(vit::score_prediction(t, row, {0}), vit::Error);         // CLS
    EXPECT_THROW(vit::score_prediction(t, row, {t.tokens}), vit::Error);  // past the grid
    EXPECT_THROW(vit::score_prediction(t, vit::Vec::Ones(4), {2}), vit::Error);
}

}  // namespace

// Side by side (vit/analysis/side_by_side.h): one scale for two maps.
namespace {

TEST(SideBySide, TheSharedScaleIsTheLargerPatchMaximumOfTheTwo) {
    const vit::Trace t = vit::testing::synthetic_trace();
    const vit::Vec a = t.layers[0].heads[0].attn.row(4).transpose(), b = t.layers[1].heads[1].attn.row(2).transpose();
    float expected = 0;
    for (int token = 1; token < t.tokens; ++token) expected = std::max({expected, a[token], b[token]});
    EXPECT_EQ(vit::shared_patch_max(t, a, t, b), expected);
    EXPECT_EQ(vit::shared_patch_max(t, b, t, a), expected);
    vit::Vec only_cls = vit::Vec::Zero(t.tokens);
    only_cls[0] = 1;  // CLS is not on the photo: it sets no scale
    EXPECT_EQ(vit::shared_patch_max(t, only_cls, t, only_cls), 1.f);
    EXPECT_THROW(vit::shared_patch_max(t, vit::Vec::Ones(3), t, b), vit::Error);
}

}  // namespace
