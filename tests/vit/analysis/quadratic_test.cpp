// Why attention is quadratic: sizes and flop counts worked out by hand, the
// least-squares fits on exact data, and the timed forwards on a small
// synthetic model (sizes checked first, progress, cancel, the time split).
#include <gtest/gtest.h>

#include <atomic>

#include "support/synthetic_model.h"
#include "vit/analysis/quadratic.h"
#include "vit/base/error.h"

namespace vit {
namespace {

Model vit_tiny_shape() {  // ViT-Ti's sizes (weights random): 12 blocks of 3 heads, d = 192, MLP 768, patch 16
    testing::SyntheticSpec s;
    s.dim = 192;
    s.heads = 3;
    s.depth = 12;
    s.patch = 16;
    s.image = 224;
    s.mlp_dim = 768;
    return testing::make_synthetic_model(s);
}

TEST(AttentionCost, SizesOfViTTiny) {
    const Model m = vit_tiny_shape();
    const AttentionSize s = attention_size(m, 224);
    EXPECT_EQ(s.grid, 14);
    EXPECT_EQ(s.tokens, 197);
    EXPECT_EQ(s.weights_per_head, 197LL * 197);
    EXPECT_EQ(s.attention_weights, 12LL * 3 * 197 * 197);  // 1,397,124
    EXPECT_EQ(s.attention_bytes, 4LL * 1397124);
    EXPECT_EQ(attention_size(m, 448).tokens, 1 + 28 * 28);
}

TEST(AttentionCost, TheoryCrossesAtSixTimesTheWidth) {
    const Model m = vit_tiny_shape();
    // 24 N d^2 for the linear layers when the MLP is 4d wide; 4 N^2 d for attention.
    const BlockFlops f = block_flops(m, 197);
    EXPECT_DOUBLE_EQ(f.linear, 24.0 * 197 * 192 * 192);
    EXPECT_DOUBLE_EQ(f.attention, 4.0 * 197 * 197 * 192);
    EXPECT_DOUBLE_EQ(theoretical_crossover_tokens(m), 6 * 192);  // 1152 tokens
    const BlockFlops at = block_flops(m, 1152);
    EXPECT_DOUBLE_EQ(at.linear, at.attention);
    EXPECT_NEAR(input_size_for_tokens(m, 1152), 16 * std::sqrt(1151.0), 1e-9);  // about 543 px
}

TEST(AttentionCost, DefaultSizesAreMultiplesOfThePatch) {
    Model m = vit_tiny_shape();
    EXPECT_EQ(default_timing_sizes(m), (std::vector<int>{224, 288, 352, 448, 512, 640}));
    m.patch = 14;
    EXPECT_EQ(default_timing_sizes(m), (std::vector<int>{224, 294, 350, 448, 518, 644}));
}

TEST(AttentionCost, FitsRecoverExactCurves) {
    std::vector<TimingPoint> points;
    for (int n : {197, 325, 785, 1601}) points.push_back({0, n, 2e-5 * n, 3e-8 * n * n, 0});
    const CostFit f = fit_costs(points);
    EXPECT_NEAR(f.linear_per_token, 2e-5, 1e-15);
    EXPECT_NEAR(f.attention_per_token2, 3e-8, 1e-18);
    EXPECT_NEAR(f.crossover_tokens, 2e-5 / 3e-8, 1e-6);
    // The curves the page draws go through the points, and meet at the crossover.
    for (const TimingPoint& p : points) {
        EXPECT_NEAR(f.linear_at(p.tokens), p.linear_seconds, 1e-12);
        EXPECT_NEAR(f.attention_at(p.tokens), p.attention_seconds, 1e-12);
    }
    EXPECT_NEAR(f.linear_at(f.crossover_tokens), f.attention_at(f.crossover_tokens), 1e-12);
    // Noisy points: the fit minimises the squared error (a shifted slope fits worse).
    points[1].linear_seconds *= 1.3;
    const CostFit g = fit_costs(points);
    auto error = [&](double a) {
        double e = 0;
        for (const auto& p : points) e += (p.linear_seconds - a * p.tokens) * (p.linear_seconds - a * p.tokens);
        return e;
    };
    EXPECT_LT(error(g.linear_per_token), error(g.linear_per_token * 1.001));
    EXPECT_LT(error(g.linear_per_token), error(g.linear_per_token * 0.999));
}

struct Timing : ::testing::Test {
    testing::SyntheticSpec spec;  // 32 px, patch 8
    Model model = testing::make_synthetic_model(spec);
    Image photo = [] {
        Image p;
        p.width = 40;
        p.height = 30;
        for (int i = 0; i < 40 * 30 * 3; ++i) p.rgb.push_back(static_cast<uint8_t>(i * 37));
        return p;
    }();
};

TEST_F(Timing, TraceSplitsItsTime) {
    const Trace t = forward(model, preprocess(photo, model.config.pre, 64));
    EXPECT_GT(t.linear_seconds, 0);
    EXPECT_GT(t.attention_seconds, 0);
    EXPECT_LE(t.linear_seconds + t.attention_seconds, t.seconds);
}

TEST_F(Timing, MeasuresEverySizeAndReportsEachForward) {
    int reports = 0;
    TaskControl control;
    control.progress = [&](int done, int total) {
        EXPECT_EQ(done, ++reports);
        EXPECT_EQ(total, 4);
    };
    const TimingRun r = measure_forward_times(model, photo, {32, 64}, 2, control);
    EXPECT_EQ(reports, 4);
    EXPECT_FALSE(r.cancelled);
    ASSERT_EQ(r.points.size(), 2u);
    EXPECT_EQ(r.points[0].input_size, 32);
    EXPECT_EQ(r.points[0].tokens, 17);
    EXPECT_EQ(r.points[1].tokens, 65);
    for (const TimingPoint& p : r.points) {
        EXPECT_GT(p.linear_seconds, 0);
        EXPECT_GT(p.attention_seconds, 0);
        EXPECT_GT(p.total_seconds, 0);
    }
}

TEST_F(Timing, RefusesBadSizesBeforeRunningAny) {
    int reports = 0;
    TaskControl control;
    control.progress = [&](int, int) { ++reports; };
    try {
        measure_forward_times(model, photo, {32, 36}, 1, control);
        FAIL() << "expected 36 px (patch 8) to be refused";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("not a multiple of the patch size 8"), std::string::npos) << e.what();
    }
    TraceOptions tight;
    tight.memory_budget = trace_bytes(model, 64, tight) - 1;  // 64 px just over, 32 px under
    try {
        measure_forward_times(model, photo, {32, 64}, 1, control, tight);
        FAIL() << "expected 64 px to be over the budget";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("memory budget"), std::string::npos) << e.what();
    }
    EXPECT_EQ(reports, 0);
}

TEST_F(Timing, StopsWhenCancelled) {
    std::atomic<bool> cancel{false};
    TaskControl control;
    control.cancel = &cancel;
    control.progress = [&](int done, int) {
        if (done == 2) cancel = true;
    };
    const TimingRun r = measure_forward_times(model, photo, {32, 64, 96}, 2, control);
    EXPECT_TRUE(r.cancelled);
    ASSERT_EQ(r.points.size(), 1u);  // 32 px finished; 64 px not started
    EXPECT_EQ(r.points[0].input_size, 32);
}

}  // namespace
}  // namespace vit
