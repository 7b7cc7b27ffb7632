#include "permutation_experiment.h"

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
    e.shuffled_input = permute_patches(input, m.patch, e.shuffle);
    options.keep_attention = true;
    options.position_embeddings = true;
    e.shuffled = run(m, e.shuffled_input, options);
    options.position_embeddings = false;
    e.original_without_pos = run(m, input, options);
    e.shuffled_without_pos = run(m, e.shuffled_input, options);
    e.with_pos = unpermuted_difference(original, e.shuffled, e.shuffle);
    e.without_pos = unpermuted_difference(e.original_without_pos, e.shuffled_without_pos, e.shuffle);
    e.top1_with_pos = top_class_index(original.logits);
    e.top1_without_pos = top_class_index(e.original_without_pos.logits);
    return e;
}

}  // namespace vit
