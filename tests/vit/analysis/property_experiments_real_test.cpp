// The Questions pages' experiments on the real default model and dog.jpg:
// the shuffle and the shift are equivariant without position embeddings (up
// to float rounding, which 12 layers grow to ~1e-5 on final states of size
// ~10) and clearly not with them; the MLP needs no other token. Prints the
// figures the pages show.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "support/real_model_fixture.h"
#include "vit/analysis/dynamic.h"
#include "vit/analysis/global.h"
#include "vit/analysis/permutation.h"
#include "vit/analysis/mlp.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"

namespace vit {
namespace {

struct RealExperiments : testing::RealModelFixture {};

TEST_F(RealExperiments, ShuffleIsEquivariantOnlyWithoutPositions) {
    const PermutationExperiment e = run_permutation_experiment(*model, *input, *trace, 0);
    std::printf(
        "shuffle seed 0: without positions: attention %.2e, final states %.2e; with: attention %.3f, final "
        "states %.3f; top-1 %d / %d\n",
        e.without_pos.attention, e.without_pos.final_tokens, e.with_pos.attention, e.with_pos.final_tokens,
        e.top1_with_pos, e.top1_without_pos);
    EXPECT_LT(e.without_pos.attention, 1e-5);
    EXPECT_LT(e.without_pos.final_tokens, 1e-3);
    EXPECT_GT(e.with_pos.attention, 0.1);
    EXPECT_GT(e.with_pos.final_tokens, 1.0);
}

TEST_F(RealExperiments, ShiftedContentMovesTheMap) {
    const ContentShift s = run_content_shift(*model, *input, 2, 3);
    const UnpermutedDifference d =
        unpermuted_difference(s.runs.original_without_pos, s.runs.rearranged_without_pos, s.moves);
    EXPECT_LT(d.attention, 1e-5);
    for (int layer : {0, 5, 11}) {
        const MovedMapDifferences m = moved_map_differences(*trace, s, layer, 1, trace->token_of(5, 7));
        std::printf("shift (2, 3), layer %d head 1 query (5,7): mean |diff| with positions %.2e, without %.2e\n", layer,
                    m.with_pos, m.without_pos);
        EXPECT_LT(m.without_pos, 1e-7);
        EXPECT_GT(m.with_pos, 10 * m.without_pos);
    }
}

TEST_F(RealExperiments, GlobalFromTheFirstLayer) {
    const std::vector<double> beyond = mean_mass_beyond(*trace, 0, 3);
    std::printf("layer 0, weight beyond 3 patches averaged over patch queries:");
    for (double b : beyond) std::printf(" %.3f", b);
    std::printf("\n");
    EXPECT_GT(*std::max_element(beyond.begin(), beyond.end()), 0.1);
}

TEST_F(RealExperiments, MlpNeedsNoOtherToken) {
    for (int layer : {0, 6, 11}) {
        const TokenPath p = token_path(*model, *trace, layer, trace->token_of(5, 7));
        std::printf("layer %d token (5,7): MLP alone %.1e, others zeroed before the MLP %.1e, before attention %.3f\n",
                    layer, p.mlp_alone_max_abs_diff, p.mlp_others_zeroed_max_abs_diff,
                    p.attention_others_zeroed_max_abs_diff);
        EXPECT_LT(p.mlp_alone_max_abs_diff, 1e-4);
        EXPECT_LT(p.mlp_others_zeroed_max_abs_diff, 1e-4);
        EXPECT_GT(p.attention_others_zeroed_max_abs_diff, 0.1);
        if (layer < 11) {
            EXPECT_LT((p.residual_after.transpose() - trace->layers[layer + 1].x_in.row(p.token)).cwiseAbs().maxCoeff(),
                      1e-4f);
        }
    }
}

}  // namespace
}  // namespace vit
