// The shuffle what-if ("permutation-equivariance, and why positions are
// injected"): the photo's patches shuffled by a seeded random permutation and
// run again, with and without position embeddings; the shuffled run's
// attention and final token states, put back in the original order, are
// compared with the unshuffled run's. Without position embeddings they agree
// up to float rounding; with them they do not.
#pragma once
#include <cstdint>

#include "vit/analysis/patch_permutation.h"
#include "vit/forward/forward.h"
#include "vit/image/preprocess.h"
#include "vit/model/model.h"

namespace vit {

struct PermutationExperiment {
    uint32_t seed = 0;
    PatchPermutation shuffle;  // random_patch_permutation(grid^2, seed)
    // runs.input: the mosaic; runs.rearranged: the mosaic with position
    // embeddings; runs.*_without_pos: the photo as is and the mosaic, without them.
    RearrangedRuns runs;
    UnpermutedDifference with_pos;     // `original` against runs.rearranged, put back
    UnpermutedDifference without_pos;  // runs.original_without_pos against runs.rearranged_without_pos, put back
    int top1_with_pos = -1;            // argmax of original's logits (-1: no classifier)
    int top1_without_pos = -1;         // argmax of runs.original_without_pos's logits
};

// `original` is the real run of `input` (position embeddings kept, with
// attention weights). Three forward passes (see run_rearranged; throws
// vit::Error over the memory budget).
PermutationExperiment run_permutation_experiment(const Model& model, const Input& input, const Trace& original,
                                                 uint32_t seed, TraceOptions options = {});

// The index of the largest logit; -1 for an empty vector.
int top_class_index(const Vec& logits);

}  // namespace vit
