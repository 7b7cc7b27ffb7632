// The backward pass and the relevance page's parts on synthetic models of
// every family (CLS only, distillation token, registers with layer scale):
// the gradient against a finite difference through the real forward pass;
// rankings, removal, areas, the seeded random order and the class lookup.
// The gradients against PyTorch autograd on real models are in
// tests/reference/relevance_test.py.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>

#include "support/random_input.h"
#include "support/synthetic_model.h"
#include "vit/analysis/perturbation.h"
#include "vit/analysis/relevance.h"
#include "vit/base/error.h"
#include "vit/forward/backward.h"
#include "vit/forward/classes.h"

namespace vit {
namespace {

using testing::random_input;

double logit(const Model& m, const Input& input, int cls) { return forward(m, input).logits[cls]; }

// d logit / d input along a random direction, two ways: the backward pass's
// gradient at block 0's input pulled back through the patch embedding (each
// patch token = W_pe pixels + b + pos), and a central difference of the
// forward pass. Everything the backward does sits between the two.
void expect_gradient_matches_finite_difference(const testing::SyntheticSpec& spec, int cls) {
    const Model m = testing::make_synthetic_model(spec);
    const Input input = random_input(spec.image, 5);
    const Trace t = forward(m, input);
    const Gradients g = class_gradients(m, t, cls);
    EXPECT_NEAR(g.logit, t.logits[cls], 1e-4 * (1 + std::abs(t.logits[cls])));
    Input direction = random_input(spec.image, 6);
    const int grid = t.grid, p = m.patch;
    double predicted = 0;
    for (int patch = 0; patch < grid * grid; ++patch) {
        Eigen::VectorXd pixels(3 * p * p);  // [c][y][x] as the patch embedding reads them
        int i = 0;
        for (int c = 0; c < 3; ++c)
            for (int y = 0; y < p; ++y)
                for (int x = 0; x < p; ++x) pixels[i++] = direction.at(c, patch / grid * p + y, patch % grid * p + x);
        const Eigen::VectorXd token_change = m.patch_embed.w.cast<double>() * pixels;
        predicted += g.x_in[0].row(t.prefix + patch).cast<double>().dot(token_change);
    }
    const float eps = 1e-2f;
    Input plus = input, minus = input;
    for (size_t i = 0; i < input.chw.size(); ++i) {
        plus.chw[i] += eps * direction.chw[i];
        minus.chw[i] -= eps * direction.chw[i];
    }
    const double measured = (logit(m, plus, cls) - logit(m, minus, cls)) / (2 * eps);
    EXPECT_GT(std::abs(predicted), 1e-3) << "a vanishing gradient would prove nothing";
    EXPECT_NEAR(predicted, measured, 2e-3 * std::abs(measured) + 1e-4);
    // Every layer's attention gradient is there, one N x N per head.
    ASSERT_EQ(g.attn.size(), m.blocks.size());
    for (const auto& layer : g.attn) {
        ASSERT_EQ(static_cast<int>(layer.size()), m.heads);
        for (const Mat& a : layer) EXPECT_EQ(a.rows(), t.tokens);
    }
}

TEST(Backward, MatchesAFiniteDifferenceWithClsOnly) {
    testing::SyntheticSpec spec;
    expect_gradient_matches_finite_difference(spec, 3);
}

TEST(Backward, MatchesAFiniteDifferenceWithADistillationToken) {
    testing::SyntheticSpec spec;
    spec.dist_token = true;
    expect_gradient_matches_finite_difference(spec, 7);
}

TEST(Backward, MatchesAFiniteDifferenceWithRegistersAndLayerScale) {
    testing::SyntheticSpec spec;
    spec.registers = 4;
    spec.layer_scale = true;
    expect_gradient_matches_finite_difference(spec, 0);
}

TEST(Backward, RefusesWhatItCannotDifferentiate) {
    testing::SyntheticSpec spec;
    const Model m = testing::make_synthetic_model(spec);
    const Input input = random_input(spec.image, 1);
    const Trace t = forward(m, input);
    EXPECT_THROW(class_gradients(m, t, -1), Error);
    EXPECT_THROW(class_gradients(m, t, spec.classes), Error);
    TraceOptions plain;
    plain.keep_qkv = plain.keep_attention = plain.keep_states = false;
    EXPECT_THROW(class_gradients(m, forward(m, input, plain), 0), Error);
    spec.classes = 0;
    const Model headless = testing::make_synthetic_model(spec);
    EXPECT_THROW(class_gradients(headless, forward(headless, input), 0), Error);
}

TEST(Relevance, RemovalZeroesExactlyThosePatchesPixels) {
    const Input input = random_input(32, 2);
    const Input out = without_patches(input, 8, {1, 6});  // grid 4: (0,1) and (1,2)
    for (int c = 0; c < 3; ++c)
        for (int y = 0; y < 32; ++y)
            for (int x = 0; x < 32; ++x) {
                const int patch = y / 8 * 4 + x / 8;
                EXPECT_EQ(out.at(c, y, x), patch == 1 || patch == 6 ? 0.0f : input.at(c, y, x));
            }
    EXPECT_THROW(without_patches(input, 8, {16}), Error);
}

TEST(Relevance, MapsCoverThePatchesAndOcclusionIsTheDropInProbability) {
    testing::SyntheticSpec spec;
    spec.registers = 2;
    const Model m = testing::make_synthetic_model(spec);
    const Input input = random_input(spec.image, 3);
    const Trace t = forward(m, input);
    int calls = 0;
    TaskControl control;
    control.progress = [&](int done, int total) {
        EXPECT_EQ(done, ++calls);
        EXPECT_EQ(total, 16);
    };
    const RelevanceMaps r = relevance_maps(m, input, t, 4, control);
    EXPECT_EQ(calls, 16);
    for (const Eigen::VectorXd* v : {&r.attention_last, &r.rollout, &r.grad_rollout, &r.occlusion})
        EXPECT_EQ(v->size(), 16);
    EXPECT_GE(r.grad_rollout.minCoeff(), 0.0);  // positive parts rolled out from the identity
    const double p = class_probabilities(t.logits)[4];
    EXPECT_NEAR(r.probability, p, 1e-12);
    EXPECT_NEAR(r.occlusion[5], p - class_probabilities(forward(m, without_patches(input, 8, {5})).logits)[4], 1e-9);
    // The last layer's attention is CLS's row, mean of the heads, over the patches.
    const auto& heads = t.layers.back().heads;
    EXPECT_NEAR(r.attention_last[0], (heads[0].attn(0, t.prefix) + heads[1].attn(0, t.prefix)) / 2.0, 1e-7);
}

TEST(Relevance, CancelStopsOcclusionAndThePerturbationTest) {
    testing::SyntheticSpec spec;
    const Model m = testing::make_synthetic_model(spec);
    const Input input = random_input(spec.image, 4);
    const Trace t = forward(m, input);
    std::atomic<bool> cancel{false};
    TaskControl control;
    control.cancel = &cancel;
    control.progress = [&](int done, int) { cancel = done >= 3; };
    const RelevanceStudy study = relevance_study(m, input, t, 1, 9, control);
    EXPECT_TRUE(study.cancelled);
    EXPECT_EQ(study.maps.occlusion_done, 3);
    EXPECT_TRUE(std::isnan(study.maps.occlusion[3]));
}

TEST(Perturbation, RankingKeepsTokenOrderForTies) {
    Eigen::VectorXd s(5);
    s << 0.2, 0.5, 0.2, 0.9, 0.5;
    EXPECT_EQ(patch_ranking(s, true), (std::vector<int>{3, 1, 4, 0, 2}));
    EXPECT_EQ(patch_ranking(s, false), (std::vector<int>{0, 2, 1, 4, 3}));
}

TEST(Perturbation, StepsRemoveTheFloorOfTheFraction) {
    EXPECT_EQ(patches_removed(0, 196), 0);
    EXPECT_EQ(patches_removed(1, 196), 19);
    EXPECT_EQ(patches_removed(5, 196), 98);
    EXPECT_EQ(patches_removed(9, 196), 176);
}

TEST(Perturbation, AreaIsTheTrapezoidRuleOverTheTenPoints) {
    EXPECT_NEAR(curve_area(std::vector<double>(10, 1.0)), 0.9, 1e-12);
    std::vector<double> line;
    for (int i = 0; i < 10; ++i) line.push_back(i / 10.0);  // y = x from 0 to 0.9
    EXPECT_NEAR(curve_area(line), 0.405, 1e-12);
}

TEST(Perturbation, RandomOrderIsStdMt19937) {
    // The C++ standard fixes mt19937's 10000th output for the default seed.
    const Eigen::VectorXd s = random_scores(10000, 5489);
    EXPECT_EQ(s[9999], 4123659995.0);
    EXPECT_NE(random_scores(5, 1), random_scores(5, 2));
}

TEST(Perturbation, CurvesStartAtThePhotoAndReportEveryForward) {
    testing::SyntheticSpec spec;
    const Model m = testing::make_synthetic_model(spec);
    const Input input = random_input(spec.image, 8);
    const Trace t = forward(m, input);
    const RelevanceMaps maps = relevance_maps(m, input, t, 2);
    int last = 0;
    TaskControl control;
    control.progress = [&](int done, int total) {
        last = done;
        EXPECT_EQ(total, 90);
    };
    const PerturbationTest test = perturbation_test(m, input, 2, maps.probability, perturbation_maps(maps, 1), control);
    EXPECT_EQ(last, 90);
    ASSERT_EQ(test.curves.size(), 10u);
    for (const PerturbationCurve& c : test.curves) {
        ASSERT_EQ(c.probability.size(), 10u);
        EXPECT_EQ(c.probability[0], maps.probability);
        EXPECT_NEAR(c.area, curve_area(c.probability), 1e-15);
    }
    // Step 9 of the positive occlusion curve: the 14 patches occlusion ranks highest removed.
    const std::vector<int> order = patch_ranking(maps.occlusion, true);
    const std::vector<int> removed(order.begin(), order.begin() + 14);
    EXPECT_NEAR(test.curves[6].probability[9], class_probability(m, without_patches(input, 8, removed), 2), 1e-12);
    EXPECT_EQ(test.curves[6].method, "occlusion");
}

TEST(Classes, FoundByIndexByNameAndBySynonym) {
    testing::SyntheticSpec spec;
    Model m = testing::make_synthetic_model(spec);
    m.config.labels[3] = "tabby, tabby cat";
    EXPECT_EQ(find_class(m, "7"), 7);
    EXPECT_EQ(find_class(m, "Tabby Cat"), 3);
    EXPECT_EQ(find_class(m, "tabby"), 3);
    EXPECT_EQ(find_class(m, "tabby, tabby cat"), 3);
    EXPECT_THROW(find_class(m, "10"), Error);
    EXPECT_THROW(find_class(m, "cat"), Error);
    EXPECT_THROW(find_class(m, ""), Error);
    EXPECT_THROW(find_class(m, "99999999999999"), Error);
}

// A completed curve with the given area (the probabilities do not matter to the rule).
PerturbationCurve curve_with_area(const std::string& method, bool positive, double area) {
    return PerturbationCurve{method, positive, std::vector<double>(kPerturbationSteps, 0.5), area};
}
PerturbationTest test_with(const std::vector<std::pair<std::string, double>>& areas, bool positive) {
    PerturbationTest t;
    for (const auto& [method, area] : areas) t.curves.push_back(curve_with_area(method, positive, area));
    return t;
}

TEST(PerturbationWinner, CloseAreasGiveNoClearWinner) {
    // The case: 5.19 against 5.26 (x 100) is not a winner.
    const PerturbationTest t = test_with({{"attention_last", 0.0700},
                                          {"rollout", 0.0526},
                                          {"grad_rollout", 0.0519},
                                          {"occlusion", 0.0800},
                                          {"random", 0.20}},
                                         true);
    const PerturbationWinner w = clear_winner(t, true, {0.20, 0.21, 0.19, 0.22, 0.20});
    EXPECT_EQ(w.best, "grad_rollout");
    EXPECT_EQ(w.runner_up, "rollout");
    EXPECT_NEAR(w.margin, std::max(0.1 * 0.0526, 0.03), 1e-12);  // the random spread 0.22 - 0.19 is the larger
    EXPECT_TRUE(w.winner.empty());
}

TEST(PerturbationWinner, AClearLeadIsNamedInEitherOrder) {
    // Positive order, lower is better: 0.05 against 0.10, random 0.20 +- 0.01.
    PerturbationTest t =
        test_with({{"attention_last", 0.10}, {"rollout", 0.12}, {"grad_rollout", 0.05}, {"occlusion", 0.11}}, true);
    PerturbationWinner w = clear_winner(t, true, {0.20, 0.21, 0.19});
    EXPECT_EQ(w.winner, "grad_rollout");
    EXPECT_NEAR(w.random_spread, 0.02, 1e-12);
    EXPECT_NEAR(w.random_best, 0.19, 1e-12);
    EXPECT_NEAR(w.margin, 0.02, 1e-12);  // 10 % of 0.10 = 0.01 < the spread
    // Negative order, higher is better: 0.60 against 0.50.
    t = test_with({{"attention_last", 0.50}, {"rollout", 0.60}, {"grad_rollout", 0.40}, {"occlusion", 0.45}}, false);
    w = clear_winner(t, false, {0.30, 0.31});
    EXPECT_EQ(w.best, "rollout");
    EXPECT_EQ(w.winner, "rollout");
    EXPECT_NEAR(w.margin, 0.05, 1e-12);  // 10 % of the runner-up's 0.50
}

TEST(PerturbationWinner, TheMarginIsTenPercentOfTheRunnerUpOrTheRandomSpread) {
    // Just over 10 % ahead: named; just under: not.
    PerturbationTest t = test_with({{"rollout", 0.100}, {"grad_rollout", 0.0899}}, true);
    EXPECT_EQ(clear_winner(t, true, {0.5, 0.5}).winner, "grad_rollout");
    t = test_with({{"rollout", 0.100}, {"grad_rollout", 0.0901}}, true);
    EXPECT_EQ(clear_winner(t, true, {0.5, 0.5}).winner, "");
    // Ahead of the runner-up by 10 %, but the random orders spread by more: no winner.
    t = test_with({{"rollout", 0.100}, {"grad_rollout", 0.080}}, true);
    EXPECT_EQ(clear_winner(t, true, {0.5, 0.7}).winner, "");
    // Far ahead of the other maps but not of the luckiest random seed: no winner.
    t = test_with({{"rollout", 0.300}, {"grad_rollout", 0.100}}, true);
    EXPECT_EQ(clear_winner(t, true, {0.105, 0.11}).winner, "");
    EXPECT_EQ(clear_winner(t, true, {0.20, 0.21}).winner, "grad_rollout");
}

TEST(PerturbationWinner, IncompleteCurvesAndNoRandomAreasNameNoWinner) {
    PerturbationTest t = test_with({{"rollout", 0.30}, {"grad_rollout", 0.05}}, true);
    EXPECT_EQ(clear_winner(t, true, {}).winner, "");  // no random order to compare with
    t.curves[0].probability.resize(4);                // cancelled: only one completed map
    EXPECT_EQ(clear_winner(t, true, {0.5, 0.5}).winner, "");
    EXPECT_EQ(clear_winner(t, false, {0.5}).best, "");  // no curve in that order
}

TEST(PerturbationWinner, TheStudyRunsTheRandomOrderWithEverySeed) {
    testing::SyntheticSpec spec;
    const Model m = testing::make_synthetic_model(spec);
    const Input input = random_input(spec.image, 8);
    const Trace t = forward(m, input);
    int last = 0, total = 0;
    TaskControl control;
    control.progress = [&](int done, int all) { last = done, total = all; };
    const RelevanceStudy study = relevance_study(m, input, t, 2, 3, control);
    EXPECT_FALSE(study.cancelled);
    EXPECT_EQ(total, relevance_study_forwards(16));
    EXPECT_EQ(last, total);
    for (bool positive : {true, false}) {
        const std::vector<double> areas = random_areas(study, positive);
        ASSERT_EQ(areas.size(), static_cast<size_t>(kRandomSeeds));
        EXPECT_EQ(areas[0], area_of(study.test, "random", positive));  // the seed itself first
    }
    // seed + 1's curve is the one a study with seed + 1 draws.
    const RelevanceMaps maps = relevance_maps(m, input, t, 2);
    const PerturbationTest again = perturbation_test(m, input, 2, maps.probability, {{"random", random_scores(16, 4)}});
    EXPECT_NEAR(random_areas(study, true)[1], area_of(again, "random", true), 1e-12);
}

}  // namespace
}  // namespace vit
