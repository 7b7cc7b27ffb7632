// "Swap the squares": a sample with its two squares' patches exchanged (every
// other pixel kept), run through a checkpoint beside the original. Without
// position embeddings a transformer is permutation-equivariant: the swapped
// image is the same set of patch tokens in another order, the class token
// attends to a set, and its output is the same (to float rounding). With
// positions the model can tell where each square is, and for left_of (the
// label flips with the swap) its answer should flip too. GUI-free.
#pragma once
#include <string>

#include "vit/image/image.h"
#include "vit/model/model.h"

namespace session {

// The image with the cell x cell px patches `a` and `b` (row-major on the grid) exchanged.
vit::Image swap_patches(const vit::Image& img, int cell, int a, int b);

struct LabSwap {
    std::string answer, swapped_answer;  // the model's answers on the sample and on the swapped one
    double probability = 0, swapped_probability = 0;
    double cls_difference = 0;  // max |difference| of the class token's output (after the final LayerNorm)
    bool answer_flips() const { return answer != swapped_answer; }
};
LabSwap run_swap(const vit::Model& model, const vit::Image& sample, int patch_a, int patch_b);

// Outputs this close are "equal": float rounding of a sum taken in another order.
inline constexpr double kSwapTolerance = 1e-5;
// The sentence: both answers, the difference, and why (task: whether its label flips with the swap).
std::string swap_sentence(const LabSwap& s, bool position, bool label_flips);

}  // namespace session
