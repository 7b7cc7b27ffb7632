// The moved-content what-if ("content-based, not a fixed window"): the input's
// patches shifted by whole patches with wrap-around and run through the model
// again. The query follows its content. The shifted run's map is compared with
// the original map moved the same way:
// - without position embeddings the shift is a permutation of the patch tokens
//   and attention is permutation-equivariant, so the two maps are equal up to
//   float rounding (the wrap seam changes nothing: shifts are whole patches);
// - with position embeddings every patch now carries another position's
//   embedding, so the maps differ somewhat: how much is what positions add.
#pragma once
#include "vit/analysis/patch_permutation.h"
#include "vit/forward/forward.h"
#include "vit/image/preprocess.h"
#include "vit/model/model.h"

namespace vit {

struct ContentShift {
    int rows = 0, cols = 0;  // content moved down / right (negative: up / left), wrapping
    PatchPermutation moves;  // cyclic_shift(grid, rows, cols)
    // runs.input: the shifted input; runs.rearranged: its run with position
    // embeddings; runs.*_without_pos: the photo as is and shifted, without them.
    RearrangedRuns runs;
};

// Three forward passes (see run_rearranged; throws vit::Error over the memory budget).
ContentShift run_content_shift(const Model& model, const Input& input, int rows, int cols, TraceOptions options = {});

// Mean |shifted[moved query, moved j] - original[query, j]| over the patch keys
// j of one (layer, head) row: how far the shifted run's map is from the
// original map moved with the content.
double moved_map_difference(const Trace& original, const Trace& shifted, const PatchPermutation& moves, int layer,
                            int head, int query);

struct MovedMapDifferences {
    double with_pos = 0;     // `original` (the real run) against runs.rearranged
    double without_pos = 0;  // runs.original_without_pos against runs.rearranged_without_pos
};
MovedMapDifferences moved_map_differences(const Trace& original, const ContentShift& shift, int layer, int head,
                                          int query);

}  // namespace vit
