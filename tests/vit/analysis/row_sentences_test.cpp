// The math panel's and the scaling page's sentences about the row on show
// (issue 32, item 4): "a few keys dominate" only when the row's numbers show
// it, "one key would take nearly all of it" only when unscaled_top_weight
// holds, and otherwise a sentence that says what the numbers do show. few_keys
// is checked against sums written out here; the sentences on real rows of the
// default model (dog.jpg), every layer and head, several queries, against an
// independent recomputation from the trace's Q, K, V and weights.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/real_model_fixture.h"
#include "vit/analysis/scaling.h"
#include "vit/analysis/step_explanation.h"
#include "vit/analysis/token_norms.h"

namespace row_sentences_test {

bool has(const std::string& text, const char* word) { return text.find(word) != std::string::npos; }

struct Recomputed {
    double top3 = 0, spread = 0;
    bool few = false;
};

// The kFewKeys = 3 largest entries' share of the total, 1 / sum a^2 of the
// row normalised to sum 1, and the rule: share >= 0.5 and spread <= 6.
Recomputed recompute(std::vector<double> v) {
    double total = 0;
    for (double x : v) total += x;
    std::sort(v.begin(), v.end(), std::greater<double>());
    Recomputed r;
    for (size_t i = 0; i < std::min<size_t>(3, v.size()); ++i) r.top3 += v[i] / total;
    double squares = 0;
    for (double x : v) squares += (x / total) * (x / total);
    r.spread = 1 / squares;
    r.few = r.top3 >= 0.5 && r.spread <= 6;
    return r;
}

vit::Vec as_vec(const std::vector<double>& v) {
    vit::Vec out(static_cast<Eigen::Index>(v.size()));
    for (size_t i = 0; i < v.size(); ++i) out[static_cast<Eigen::Index>(i)] = static_cast<float>(v[i]);
    return out;
}

std::string fixed(const char* fmt, double v) {
    char text[32];
    std::snprintf(text, sizeof text, fmt, v);
    return text;
}

TEST(FewKeys, AgreesWithTheSumsWrittenOut) {
    const std::vector<std::vector<double>> rows = {
        {0.7, 0.1, 0.1, 0.05, 0.05},          // a few keys hold most
        std::vector<double>(197, 1.0 / 197),  // even
        {2.0, 1.0, 0.5, 0.25, 0.25},          // not normalised (contributions): shares of the total
    };
    for (const auto& row : rows) {
        const vit::FewKeys k = vit::few_keys(as_vec(row));
        const Recomputed r = recompute(row);
        EXPECT_EQ(k.keys, static_cast<int>(row.size()));
        EXPECT_EQ(k.counted, 3);
        EXPECT_NEAR(k.top_share, r.top3, 1e-6);
        EXPECT_NEAR(k.even_share, 3.0 / row.size(), 1e-12);
        EXPECT_NEAR(k.spread_keys, r.spread, 1e-4 * r.spread);
        EXPECT_EQ(k.dominate, r.few);
    }
    EXPECT_TRUE(vit::few_keys(as_vec(rows[0])).dominate);
    EXPECT_FALSE(vit::few_keys(as_vec(rows[1])).dominate);
}

TEST(FewKeys, HalfOnThreeKeysAndTheRestThinIsNotAFewKeys) {
    // 0.5 on three keys, 0.5 over 190: the top share reaches one half, but the
    // row spreads over about 8.6 keys, more than 6.
    std::vector<double> row = {0.3, 0.15, 0.05};
    for (int i = 0; i < 190; ++i) row.push_back(0.5 / 190);
    const vit::FewKeys k = vit::few_keys(as_vec(row));
    EXPECT_NEAR(k.top_share, 0.5, 1e-5);
    EXPECT_NEAR(k.spread_keys, 1 / (0.09 + 0.0225 + 0.0025 + 190 * (0.5 / 190) * (0.5 / 190)), 1e-4);
    EXPECT_FALSE(k.dominate);
}

TEST(FewKeys, ShortRowsCountWhatTheyHave) {
    const vit::FewKeys k = vit::few_keys(as_vec({0.6, 0.4}));
    EXPECT_EQ(k.counted, 2);
    EXPECT_NEAR(k.top_share, 1.0, 1e-6);
    EXPECT_TRUE(k.dominate);
    EXPECT_FALSE(vit::few_keys(vit::Vec()).dominate);
}

TEST(GeneralSentences, SayNothingAboutTheRowOnShow) {
    for (const char* text : {vit::kSoftmaxGeneral, vit::kScaleGeneral})
        for (const char* word : {"dominate", "usually", "always", "nearly all", "spread"})
            EXPECT_FALSE(has(text, word)) << text << " says " << word;
}

struct RowSentences : vit::testing::RealModelFixture {
    // CLS, the tour's ear (5, 3), a corner, the centre and a patch of the background.
    std::vector<int> queries() const {
        const vit::Trace& t = *trace;
        const int g = t.grid;
        auto patch = [&](int r, int c) { return t.prefix + r * g + c; };
        return {0, patch(5, 3), patch(0, 0), patch(g / 2, g / 2), patch(g - 1, g - 2)};
    }
};

TEST_F(RowSentences, ADominateSentenceOnlyWhereTheRowShowsIt) {
    const vit::Trace& t = *trace;
    int few = 0, not_few = 0, few_out = 0, not_few_out = 0, saturating = 0, not_saturating = 0;
    for (int l = 0; l < static_cast<int>(t.layers.size()); ++l)
        for (int h = 0; h < static_cast<int>(t.layers[l].heads.size()); ++h)
            for (int q : queries()) {
                const vit::HeadTrace& ht = t.layers[l].heads[h];
                const vit::StepExplanation e = vit::explain_step(t, l, h, q, 0);
                const std::string where =
                    "layer " + std::to_string(l) + " head " + std::to_string(h) + " query " + std::to_string(q);

                // The softmax step: the weights as the forward pass stored them.
                std::vector<double> a(t.tokens);
                for (int j = 0; j < t.tokens; ++j) a[j] = ht.attn(q, j);
                const Recomputed w = recompute(a);
                const std::string said = vit::weights_sentence(e);
                EXPECT_EQ(e.weight_keys.dominate, w.few) << where;
                EXPECT_EQ(has(said, "dominate"), w.few) << where << ": " << said;
                // The spread in keys is shown with every such sentence, and the base.
                EXPECT_TRUE(has(said, ("spreads over " + fixed("%.1f", w.spread)).c_str())) << where << ": " << said;
                EXPECT_TRUE(has(said, "CLS included")) << said;
                EXPECT_TRUE(has(said, ("head " + std::to_string(h)).c_str())) << said;
                (w.few ? few : not_few)++;

                // The output step: contributions a_ij ||v_j|| over every key.
                std::vector<double> amounts(t.tokens);
                for (int j = 0; j < t.tokens; ++j)
                    amounts[j] = std::abs(double(ht.attn(q, j))) * ht.v.row(j).cast<double>().norm();
                const Recomputed c = recompute(amounts);
                const std::string output = vit::contributions_sentence(e);
                if (std::abs(c.top3 - 0.5) > 1e-4 && std::abs(c.spread - 10) > 1e-3) {
                    EXPECT_EQ(has(output, "dominate"), c.few) << where << ": " << output;
                    (c.few ? few_out : not_few_out)++;
                }
                EXPECT_TRUE(has(output, ("spread over " + fixed("%.1f", c.spread)).c_str())) << where << ": " << output;

                // The scale step: softmax of the raw scores q.k, in double, no division.
                std::vector<double> raw(t.tokens);
                double top = -1e300;
                for (int j = 0; j < t.tokens; ++j) {
                    raw[j] = ht.q.row(q).cast<double>().dot(ht.k.row(j).cast<double>());
                    top = std::max(top, raw[j]);
                }
                double z = 0, largest = 0;
                for (double s : raw) z += std::exp(s - top);
                for (double s : raw) largest = std::max(largest, std::exp(s - top) / z);
                if (std::abs(largest - 0.9) < 1e-4) continue;  // float32 against double on the threshold
                const bool saturates = largest >= 0.9;
                const std::string scale = vit::unscaled_sentence(e);
                EXPECT_EQ(e.unscaled_saturates, saturates) << where;
                EXPECT_EQ(has(scale, "nearly all of it") && !has(scale, "no key"), saturates) << where << ": " << scale;
                EXPECT_TRUE(has(scale, fixed("%.3f", largest).c_str())) << where << ": " << scale;
                (saturates ? saturating : not_saturating)++;

                // The Questions page's scaling sentence follows the same rule.
                const vit::QueryScaling qs = vit::query_scaling(t, l, h, q);
                const std::string page = vit::query_scaling_sentence(qs);
                EXPECT_EQ(qs.saturates, saturates) << where;
                EXPECT_EQ(has(page, "nearly all of it") && !has(page, "no key"), saturates) << where << ": " << page;
                EXPECT_EQ(has(page, "less gradient"), qs.raw.jacobian_norm < qs.scaled.jacobian_norm) << page;
            }
    // The real rows reach both sides of each rule, so both sentences were checked.
    EXPECT_GT(few, 0);
    EXPECT_GT(not_few, 0);
    EXPECT_GT(few_out, 0);
    EXPECT_GT(not_few_out, 0);
    EXPECT_GT(saturating, 0);
    EXPECT_GT(not_saturating, 0);
}

// The CLS page's heading names the layers with high-norm patches only from the
// high_norm_tokens claim: recomputed here from the token states leaving each
// block (a patch at least 10 x the median patch norm).
TEST_F(RowSentences, HighNormLayersAreTheOnesWhoseClaimHolds) {
    const vit::Trace& t = *trace;
    const int layers = static_cast<int>(t.layers.size());
    std::vector<int> expected;
    for (int l = 0; l < layers; ++l) {
        const vit::Mat& x = l + 1 < layers ? t.layers[l + 1].x_in : t.last_block_out;
        std::vector<double> norms;
        for (int j = t.prefix; j < t.tokens; ++j) norms.push_back(x.row(j).cast<double>().norm());
        std::vector<double> sorted = norms;
        std::sort(sorted.begin(), sorted.end());
        const size_t n = sorted.size();
        const double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
        if (sorted.back() >= 10 * median && median > 0) expected.push_back(l);
    }
    EXPECT_EQ(vit::layers_with_high_norm(vit::token_norms(t)), expected);
    EXPECT_FALSE(expected.empty());  // the default model's corners on dog.jpg
    EXPECT_NE(expected.front(), 0);
}

}  // namespace row_sentences_test
