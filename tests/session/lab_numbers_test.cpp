// The Learning lab's numbers (src/session/lab/lab_numbers.h): where each query
// puts its weight against the attention matrix itself, auto's choice against
// an exhaustive search, the learned moment against a hand-made series, the
// position-similarity claim on embeddings with and without a grid, and the CSV.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "session/lab/lab_numbers.h"
#include "session/lab/lab_view.h"

using namespace session;

namespace {

// A trace of 2 layers x 3 heads over 1 + 16 tokens whose attention rows are random and sum to 1.
vit::Trace random_trace(std::mt19937& rng) {
    vit::Trace t;
    t.grid = 4;
    t.prefix = 1;
    t.tokens = 17;
    std::uniform_real_distribution<float> u(0.f, 1.f);
    for (int l = 0; l < 2; ++l) {
        vit::LayerTrace layer;
        for (int h = 0; h < 3; ++h) {
            vit::HeadTrace head;
            head.attn = vit::Mat(17, 17);
            for (int i = 0; i < 17; ++i) {
                for (int j = 0; j < 17; ++j) head.attn(i, j) = u(rng) * u(rng) * u(rng);
                head.attn.row(i) /= head.attn.row(i).sum();
            }
            layer.heads.push_back(head);
        }
        t.layers.push_back(layer);
    }
    return t;
}

}  // namespace

TEST(LabNumbers, SharesAreTheAttentionRowSplitIntoSquaresBackgroundAndClassToken) {
    std::mt19937 rng(3);
    const vit::Trace t = random_trace(rng);
    const int s1 = 5, s2 = 12;
    const LabShareTable table = share_table(t, s1, s2);
    ASSERT_EQ(table.layers, 2);
    ASSERT_EQ(table.heads, 3);
    for (int l = 0; l < 2; ++l)
        for (int h = 0; h < 3; ++h)
            for (int q = 0; q < kLabQueries; ++q) {
                const int token = q == kQueryCls ? 0 : q == kQuerySquare1 ? s1 : s2;
                const auto& a = t.layers[l].heads[h].attn;
                const LabShares& w = table.at(l, h, q);
                double background = 0;
                for (int j = 1; j < 17; ++j)
                    if (j != s1 && j != s2) background += a(token, j);
                EXPECT_NEAR(w.square1, a(token, s1), 1e-7);
                EXPECT_NEAR(w.square2, a(token, s2), 1e-7);
                EXPECT_NEAR(w.background, background, 1e-6);
                EXPECT_NEAR(w.cls, a(token, 0), 1e-7);
                EXPECT_NEAR(w.square1 + w.square2 + w.background + w.cls, 1.0, 1e-5);
            }
    // The task's squares: both for the class token, the other one for a square.
    const LabShares& c = table.at(1, 2, kQueryCls);
    EXPECT_DOUBLE_EQ(task_weight(c, kQueryCls), c.square1 + c.square2);
    EXPECT_DOUBLE_EQ(task_weight(table.at(0, 0, kQuerySquare1), kQuerySquare1), table.at(0, 0, kQuerySquare1).square2);
    EXPECT_DOUBLE_EQ(task_weight(table.at(0, 0, kQuerySquare2), kQuerySquare2), table.at(0, 0, kQuerySquare2).square1);
    EXPECT_DOUBLE_EQ(even_task_share(kQueryCls, 65, 64), 2.0 / 64);
    EXPECT_DOUBLE_EQ(even_task_share(kQuerySquare1, 65, 64), 1.0 / 65);
}

TEST(LabNumbers, AutoPicksTheLayerAndHeadAnExhaustiveSearchFinds) {
    std::mt19937 rng(11);
    for (int trial = 0; trial < 40; ++trial) {
        const vit::Trace t = random_trace(rng);
        const LabShareTable table = share_table(t, 1 + trial % 16, 1 + (trial % 16 + 5) % 16);
        for (int q = 0; q < kLabQueries; ++q) {
            int bl = -1, bh = -1;
            double best = -1;
            for (int l = 0; l < 2; ++l)
                for (int h = 0; h < 3; ++h)
                    if (task_weight(table.at(l, h, q), q) > best)
                        best = task_weight(table.at(l, h, q), q), bl = l, bh = h;
            const LabPick p = pick_head(table, q);
            EXPECT_EQ(p.layer, bl);
            EXPECT_EQ(p.head, bh);
            EXPECT_DOUBLE_EQ(p.weight, best);
            // In one layer: that layer's best head.
            const LabPick in1 = pick_head(table, q, 1);
            EXPECT_EQ(in1.layer, 1);
            for (int h = 0; h < 3; ++h) EXPECT_LE(task_weight(table.at(1, h, q), q), in1.weight);
        }
    }
}

TEST(LabNumbers, TheLearnedMomentIsTheFirstCheckpointOverEachThreshold) {
    // One layer, one head; the class token's weight on the squares over five checkpoints.
    const double weights[] = {0.03, 0.05, 0.2, 0.5, 0.6};
    const double accuracy[] = {0.5, 0.5, 0.6, 0.95, 0.99};
    std::vector<LabStepNumbers> series;
    for (int i = 0; i < 5; ++i) {
        LabStepNumbers s;
        s.step = i * 100;
        s.accuracy = accuracy[i];
        s.shares.layers = s.shares.heads = 1;
        s.shares.cells.resize(kLabQueries);
        s.shares.cells[kQueryCls].square1 = weights[i] / 2;
        s.shares.cells[kQueryCls].square2 = weights[i] / 2;
        series.push_back(s);
    }
    const LabMoment m = learned_moment(series, 0, 0, kQueryCls, 65, 64);
    EXPECT_DOUBLE_EQ(m.threshold, kReachRatio * 2.0 / 64);  // 0.125
    EXPECT_EQ(m.learned_step, 200);
    EXPECT_EQ(m.accurate_step, 300);
    const std::string text = moment_sentence(m);
    EXPECT_NE(text.find("at step 200"), std::string::npos) << text;
    EXPECT_NE(text.find("at step 300"), std::string::npos) << text;
    EXPECT_NE(text.find("the head learned to look first"), std::string::npos) << text;
    // Never over the threshold: said so.
    for (auto& s : series) s.shares.cells[kQueryCls] = {};
    const LabMoment never = learned_moment(series, 0, 0, kQueryCls, 65, 64);
    EXPECT_EQ(never.learned_step, -1);
    EXPECT_NE(moment_sentence(never).find("never puts"), std::string::npos);
}

TEST(LabNumbers, PositionSimilarityHoldsForAGridAndNotForNoiseOrNothing) {
    vit::Model m;
    m.pos_grid = 8;
    m.pos = vit::Mat::Zero(65, 16);
    EXPECT_FALSE(position_similarity(m).has_value()) << "all zero: no position embeddings";
    // Row and column as smooth bumps: neighbours alike, far positions not.
    for (int p = 0; p < 64; ++p)
        for (int k = 0; k < 8; ++k) {
            m.pos(1 + p, k) = std::exp(-0.5f * static_cast<float>((p / 8 - k) * (p / 8 - k)));
            m.pos(1 + p, 8 + k) = std::exp(-0.5f * static_cast<float>((p % 8 - k) * (p % 8 - k)));
        }
    const auto grid = position_similarity(m);
    ASSERT_TRUE(grid.has_value());
    EXPECT_TRUE(grid->holds()) << grid->near << " " << grid->far;
    EXPECT_NEAR(grid->cosine[0], 1.0, 1e-6);
    // Independent recomputation of one pair's cosine.
    const Eigen::VectorXf a = m.pos.row(1 + 9).transpose(), b = m.pos.row(1 + 30).transpose();
    EXPECT_NEAR(grid->cosine[9 * 64 + 30], a.dot(b) / (a.norm() * b.norm()), 1e-5);
    EXPECT_NE(position_sentence(&*grid, 500).find("form a grid"), std::string::npos);
    std::mt19937 rng(5);
    std::normal_distribution<float> noise(0.f, 0.02f);
    for (int i = 0; i < m.pos.rows(); ++i)
        for (int k = 0; k < m.pos.cols(); ++k) m.pos(i, k) = noise(rng);
    const auto random = position_similarity(m);
    ASSERT_TRUE(random.has_value());
    EXPECT_FALSE(random->holds()) << random->near << " " << random->far;
    EXPECT_NE(position_sentence(&*random, 0).find("no grid yet"), std::string::npos);
    EXPECT_NE(position_sentence(nullptr, 0).find("no position embeddings"), std::string::npos);
}

TEST(LabNumbers, TheCsvHasARowPerCheckpointLayerHeadAndQuery) {
    std::mt19937 rng(2);
    const vit::Trace t = random_trace(rng);
    std::vector<LabStepNumbers> series(2);
    for (int i = 0; i < 2; ++i) {
        series[i].step = i * 20;
        series[i].accuracy = 0.5 + i * 0.25;
        series[i].loss = 0.7;
        series[i].shares = share_table(t, 3, 4);
    }
    std::istringstream csv(lab_csv(series));
    std::string line;
    std::getline(csv, line);
    EXPECT_EQ(line.rfind("step,layer,head,query,weight_square1,weight_square2,weight_background,accuracy,loss", 0), 0u);
    int rows = 0;
    while (std::getline(csv, line)) ++rows;
    EXPECT_EQ(rows, 2 * 2 * 3 * 3);
}
