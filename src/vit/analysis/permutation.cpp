#include "vit/analysis/permutation.h"

namespace vit {

int top_class_index(const Vec& logits) {
    if (logits.size() == 0) return -1;
    Eigen::Index best = 0;
    logits.maxCoeff(&best);
    return static_cast<int>(best);
}

PermutationExperiment run_permutation_experiment(const Model& m, const Input& input, const Trace& original,
                                                 uint32_t seed, TraceOptions options) {
    PermutationExperiment e;
    e.seed = seed;
    const int grid = input.size / m.patch;
    e.shuffle = random_patch_permutation(grid * grid, seed);
    e.runs = run_rearranged(m, input, e.shuffle, options);
    e.with_pos = unpermuted_difference(original, e.runs.rearranged, e.shuffle);
    e.without_pos = unpermuted_difference(e.runs.original_without_pos, e.runs.rearranged_without_pos, e.shuffle);
    e.top1_with_pos = top_class_index(original.logits);
    e.top1_without_pos = top_class_index(e.runs.original_without_pos.logits);
    return e;
}

}  // namespace vit
