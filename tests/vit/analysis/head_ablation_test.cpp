// Head ablation on synthetic models: removing a head whose output is zero
// changes nothing; removing a head is the same as zeroing its columns of the
// output projection; the layers x heads table reports progress and cancels.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>

#include "support/random_input.h"
#include "support/synthetic_model.h"
#include "vit/analysis/head_ablation.h"
#include "vit/base/error.h"

namespace vit {
namespace {

struct Ablation : ::testing::Test {
    testing::SyntheticSpec spec;
    Model model;
    Input input;
    void SetUp() override {
        spec.depth = 3;
        spec.heads = 2;
        model = testing::make_synthetic_model(spec);
        input = testing::random_input(spec.image, 9);
    }
    int dh() const { return model.head_dim; }
    // The forward logits_without_head runs (no trace kept). Results agree to
    // float rounding, not bit for bit: the kernels' SIMD paths depend on the
    // alignment of the weight buffers, which differs from run to run.
    Vec plain_logits(const Model& m) {
        TraceOptions plain;
        plain.keep_qkv = plain.keep_attention = plain.keep_states = false;
        return forward(m, input, plain).logits;
    }
};

TEST_F(Ablation, RemovingAHeadWhoseOutputIsZeroChangesNothing) {
    // Head 1 of layer 1 gets zero value weights and biases: its output a.v is zero.
    model.blocks[1].v.w.middleRows(dh(), dh()).setZero();
    model.blocks[1].v.b.segment(dh(), dh()).setZero();
    const Vec real = plain_logits(model);
    const Vec removed = logits_without_head(model, input, 1, 1);
    EXPECT_LT((real - removed).cwiseAbs().maxCoeff(), 1e-5f);
    // Another head does matter (or the test would prove nothing).
    EXPECT_GT((real - logits_without_head(model, input, 1, 0)).cwiseAbs().maxCoeff(), 1e-3f);
}

TEST_F(Ablation, IsTheModelWithTheHeadsProjectionColumnsZeroed) {
    Model cut = model;
    cut.blocks[2].proj.w.middleCols(0, dh()).setZero();  // head 0's input columns of the output projection
    const Vec expected = plain_logits(cut);
    const Vec removed = logits_without_head(model, input, 2, 0);
    EXPECT_LT((expected - removed).cwiseAbs().maxCoeff(), 1e-5f);
    // The trace of an ablated run keeps what the other layers computed from it.
    TraceOptions what_if;
    what_if.ablate_layer = 2;
    what_if.ablate_head = 0;
    EXPECT_LT((forward(model, input, what_if).logits - expected).cwiseAbs().maxCoeff(), 1e-5f);
}

TEST_F(Ablation, OutOfRangeIsRefused) {
    EXPECT_THROW(logits_without_head(model, input, 3, 0), Error);
    EXPECT_THROW(logits_without_head(model, input, 0, 2), Error);
    EXPECT_THROW(logits_without_head(model, input, -1, 0), Error);
    TraceOptions half;
    half.ablate_head = 1;  // a head without a layer
    EXPECT_THROW(forward(model, input, half), Error);
    spec.classes = 0;
    const Model headless = testing::make_synthetic_model(spec);
    EXPECT_THROW(logits_without_head(headless, input, 0, 0), Error);
    EXPECT_THROW(ablation_table(headless, input), Error);
}

Eigen::VectorXd probabilities(const Vec& logits) {
    const Eigen::VectorXd e = (logits.cast<double>().array() - logits.maxCoeff()).exp();
    return e / e.sum();
}

TEST_F(Ablation, TableHoldsEachHeadsTop1ChangeAndReportsProgress) {
    std::vector<std::pair<int, int>> reports;
    TaskControl control;
    control.progress = [&](int done, int total) { reports.emplace_back(done, total); };
    const AblationTable table = ablation_table(model, input, control);
    const Eigen::VectorXd real = probabilities(plain_logits(model));
    int top1 = 0;
    real.maxCoeff(&top1);
    EXPECT_EQ(table.top1_class, top1);
    EXPECT_NEAR(table.top1_probability, real[top1], 1e-6);
    ASSERT_EQ(table.top1_change.rows(), 3);
    ASSERT_EQ(table.top1_change.cols(), 2);
    for (int l = 0; l < 3; ++l)
        for (int h = 0; h < 2; ++h)
            EXPECT_NEAR(table.top1_change(l, h),
                        probabilities(logits_without_head(model, input, l, h))[top1] - real[top1], 1e-6);
    EXPECT_EQ(table.done, 6);
    EXPECT_FALSE(table.cancelled);
    ASSERT_EQ(reports.size(), 7u);  // the real forward, then one per head
    for (size_t i = 0; i < reports.size(); ++i) EXPECT_EQ(reports[i], std::make_pair(int(i) + 1, 7));
}

TEST_F(Ablation, RemoveHeadGivesTopClassesBeforeAndAfter) {
    const Vec real = plain_logits(model);
    const HeadRemoved r = remove_head(model, input, real, 2, 1, 5);
    ASSERT_EQ(r.before.size(), 5u);
    ASSERT_EQ(r.after.size(), 5u);
    const Eigen::VectorXd before = probabilities(real), after = probabilities(logits_without_head(model, input, 2, 1));
    for (size_t k = 0; k < 5; ++k) {
        EXPECT_NEAR(r.before[k].probability, before[r.before[k].index], 1e-9);
        EXPECT_NEAR(r.after[k].probability, after[r.after[k].index], 1e-6);
        if (k > 0) {
            EXPECT_GE(r.after[k - 1].probability, r.after[k].probability);
        }
    }
    int top1 = 0;
    before.maxCoeff(&top1);
    EXPECT_EQ(r.before[0].index, top1);
    EXPECT_NEAR(r.top1_change, after[top1] - before[top1], 1e-6);
    EXPECT_THROW(remove_head(model, input, Vec(), 2, 1), Error);
}

TEST_F(Ablation, TableStopsBetweenForwardsWhenCancelled) {
    std::atomic<bool> cancel{false};
    TaskControl control;
    control.cancel = &cancel;
    control.progress = [&](int done, int) {
        if (done == 3) cancel = true;  // after the real forward and two heads
    };
    const AblationTable table = ablation_table(model, input, control);
    EXPECT_TRUE(table.cancelled);
    EXPECT_EQ(table.done, 2);
    EXPECT_FALSE(std::isnan(table.top1_change(0, 1)));
    EXPECT_TRUE(std::isnan(table.top1_change(1, 0)));
    EXPECT_TRUE(std::isnan(table.top1_change(2, 1)));
}

}  // namespace
}  // namespace vit
