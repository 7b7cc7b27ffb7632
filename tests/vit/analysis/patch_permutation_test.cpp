// Permutation-equivariance and the moved-content what-if on small synthetic
// models: a shuffled (or cyclically shifted) input run without position
// embeddings gives the original run's attention and final states, permuted,
// up to float rounding; with position embeddings it does not. Also the
// bookkeeping they rest on: permutations, moving input patches, moving rows.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "support/random_input.h"
#include "support/synthetic_model.h"
#include "vit/analysis/attention_rows.h"
#include "vit/analysis/dynamic.h"
#include "vit/analysis/patch_permutation.h"
#include "vit/analysis/permutation.h"
#include "vit/base/error.h"

namespace vit {
namespace {

using testing::random_input;

// Models with CLS only, with a distillation token, with registers and layer scale.
std::vector<testing::SyntheticSpec> specs() {
    testing::SyntheticSpec plain;
    plain.depth = 3;
    testing::SyntheticSpec deit = plain;
    deit.dist_token = true;
    testing::SyntheticSpec dinov2 = plain;
    dinov2.registers = 2;
    dinov2.layer_scale = true;
    dinov2.classes = 0;
    return {plain, deit, dinov2};
}

TEST(PatchPermutation, RandomPermutationIsSeededAndAPermutation) {
    const PatchPermutation a = random_patch_permutation(196, 0), b = random_patch_permutation(196, 0);
    const PatchPermutation c = random_patch_permutation(196, 1);
    EXPECT_EQ(a.to, b.to);
    EXPECT_NE(a.to, c.to);
    EXPECT_EQ(std::set<int>(a.to.begin(), a.to.end()).size(), 196u);
    EXPECT_NE(a.to, identity_permutation(196).to);
    // The stated draw: Fisher-Yates from the end, entry i swapped with draw mod (i + 1).
    std::mt19937 draw(0);
    std::vector<int> want = identity_permutation(196).to;
    for (int i = 195; i >= 1; --i) std::swap(want[i], want[draw() % (i + 1)]);
    EXPECT_EQ(a.to, want);
    const PatchPermutation inv = inverse(a);
    for (int i = 0; i < 196; ++i) EXPECT_EQ(inv.to[a.to[i]], i);
}

TEST(PatchPermutation, CyclicShiftMovesDownAndRightWithWrap) {
    const PatchPermutation s = cyclic_shift(4, 1, -1);
    EXPECT_EQ(s.to[0], 1 * 4 + 3);          // (0,0) -> (1,3)
    EXPECT_EQ(s.to[3 * 4 + 2], 0 * 4 + 1);  // (3,2) -> (0,1)
    EXPECT_EQ(cyclic_shift(4, 4, 8).to, identity_permutation(16).to);
    EXPECT_EQ(inverse(cyclic_shift(5, 2, 3)).to, cyclic_shift(5, -2, -3).to);
}

TEST(PatchPermutation, PermutePatchesMovesWholePatches) {
    const Input in = random_input(12, 3);  // 3 x 3 patches of 4 px
    const PatchPermutation p = random_patch_permutation(9, 5);
    const Input out = permute_patches(in, 4, p);
    for (int src = 0; src < 9; ++src)
        for (int c = 0; c < 3; ++c)
            for (int y = 0; y < 4; ++y)
                for (int x = 0; x < 4; ++x)
                    ASSERT_EQ(out.at(c, (p.to[src] / 3) * 4 + y, (p.to[src] % 3) * 4 + x),
                              in.at(c, (src / 3) * 4 + y, (src % 3) * 4 + x));
    EXPECT_THROW(permute_patches(in, 4, identity_permutation(16)), Error);
    PatchPermutation broken = identity_permutation(9);
    broken.to[0] = 1;
    EXPECT_THROW(permute_patches(in, 4, broken), Error);
}

TEST(PatchPermutation, MoveRowKeepsPrefixAndMovesPatches) {
    Trace t;
    t.grid = 2;
    t.prefix = 2;
    t.tokens = 6;
    const PatchPermutation p = {{2, 0, 3, 1}};
    Vec row(6);
    row << 10, 11, 0, 1, 2, 3;
    Vec want(6);
    want << 10, 11, 1, 3, 0, 2;  // patch 0 -> place 2, 1 -> 0, 2 -> 3, 3 -> 1
    EXPECT_EQ(move_row(t, p, row), want);
    EXPECT_EQ(moved_token(t, p, 1), 1);
    EXPECT_EQ(moved_token(t, p, 2), 4);
}

TEST(PositionEmbeddingsOff, AddsNothingToPatchesAndKeepsTheClsRow) {
    for (testing::SyntheticSpec spec : specs()) {
        const Model m = testing::make_synthetic_model(spec);
        const Input in = random_input(spec.image, 11);
        Model zeroed = m;
        const int lead = 1 + (m.has_dist_token ? 1 : 0);
        zeroed.pos.bottomRows(zeroed.pos.rows() - lead).setZero();
        TraceOptions off;
        off.position_embeddings = false;
        const Trace a = forward(m, in, off), b = forward(zeroed, in);
        // The same numbers (two runs need not agree to the last bit: Eigen's
        // kernels may take another path on differently aligned buffers).
        EXPECT_EQ(a.layers[0].x_in, b.layers[0].x_in);
        EXPECT_LT((a.final_tokens - b.final_tokens).cwiseAbs().maxCoeff(), 1e-5f);
        // and it changes something: the real run differs
        EXPECT_GT((forward(m, in).final_tokens - a.final_tokens).cwiseAbs().maxCoeff(), 1e-2f);
    }
}

TEST(PermutationExperiment, EquivariantWithoutPositionsNotWith) {
    for (testing::SyntheticSpec spec : specs()) {
        const Model m = testing::make_synthetic_model(spec);
        const Input in = random_input(spec.image, 21);
        const Trace original = forward(m, in);
        const PermutationExperiment e = run_permutation_experiment(m, in, original, 7);
        SCOPED_TRACE("prefix " + std::to_string(original.prefix));
        EXPECT_EQ(e.shuffle.to, random_patch_permutation(16, 7).to);
        EXPECT_LT(e.without_pos.attention, 1e-5);
        EXPECT_LT(e.without_pos.final_tokens, 1e-5);
        EXPECT_GT(e.with_pos.max(), 1e-2);
        EXPECT_GT(e.with_pos.final_tokens, 1e-2);
        // Without positions the classifier sees the same tokens, shuffled or not.
        if (original.logits.size()) {
            const Vec& as_is = e.runs.original_without_pos.logits;
            EXPECT_LT((as_is - e.runs.rearranged_without_pos.logits).cwiseAbs().maxCoeff(), 1e-5f);
            EXPECT_EQ(e.top1_with_pos, top_class_index(original.logits));
            EXPECT_EQ(e.top1_without_pos, top_class_index(e.runs.original_without_pos.logits));
        } else {
            EXPECT_EQ(e.top1_with_pos, -1);
        }
        // The un-shuffled comparison is not vacuous: against the identity the
        // shuffled run differs a lot.
        EXPECT_GT(unpermuted_difference(e.runs.original_without_pos, e.runs.rearranged_without_pos,
                                        identity_permutation(16))
                      .max(),
                  1e-2);
        EXPECT_EQ(e.runs.input.chw, permute_patches(in, spec.patch, e.shuffle).chw);
    }
}

TEST(PermutationExperiment, TopClassIndex) {
    Vec logits(4);
    logits << 0.5f, 3.f, -1.f, 2.9f;
    EXPECT_EQ(top_class_index(logits), 1);
    EXPECT_EQ(top_class_index(Vec()), -1);
}

TEST(ContentShift, WithoutPositionsTheShiftedRunIsTheOriginalPermuted) {
    for (testing::SyntheticSpec spec : specs()) {
        const Model m = testing::make_synthetic_model(spec);
        const Input in = random_input(spec.image, 31);
        const Trace original = forward(m, in);
        const ContentShift s = run_content_shift(m, in, 1, -2);
        EXPECT_EQ(s.moves.to, cyclic_shift(4, 1, -2).to);
        // A cyclic shift of whole patches is a permutation: the whole traces agree.
        const UnpermutedDifference d =
            unpermuted_difference(s.runs.original_without_pos, s.runs.rearranged_without_pos, s.moves);
        EXPECT_LT(d.max(), 1e-5);
        for (int layer = 0; layer < spec.depth; ++layer)
            for (int query : {original.token_of(0, 0), original.token_of(3, 1), 0}) {
                const MovedMapDifferences diff = moved_map_differences(original, s, layer, 1, query);
                EXPECT_LT(diff.without_pos, 1e-6);
                if (layer == 0) {
                    EXPECT_GT(diff.with_pos, 1e-3) << query;
                }
            }
        // With no shift at all both differences vanish.
        const ContentShift none = run_content_shift(m, in, 0, 4);
        EXPECT_LT(moved_map_differences(original, none, 1, 0, original.token_of(2, 2)).with_pos, 1e-7);
    }
}

TEST(RearrangedRuns, TheThreeRunsAreCheckedAgainstTheBudgetTogether) {
    const testing::SyntheticSpec spec;
    const Model m = testing::make_synthetic_model(spec);
    const Input in = random_input(spec.image, 41);
    TraceOptions options;
    const size_t one = trace_bytes(m, spec.image, options);
    options.memory_budget = 3 * one - 1;  // each run fits, the three do not
    try {
        run_rearranged(m, in, random_patch_permutation(16, 0), options);
        FAIL() << "expected the budget to refuse";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("memory budget"), std::string::npos) << e.what();
    }
    options.memory_budget = 3 * one;
    EXPECT_EQ(run_rearranged(m, in, random_patch_permutation(16, 0), options).rearranged.tokens, 17);
}

}  // namespace
}  // namespace vit
