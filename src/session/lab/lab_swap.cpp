#include "session/lab/lab_swap.h"

#include <cmath>
#include <cstdio>

#include "session/lab/lab_view.h"
#include "vit/forward/classes.h"

namespace session {

vit::Image swap_patches(const vit::Image& img, int cell, int a, int b) {
    vit::Image out = img;
    const int cols = cell > 0 ? img.width / cell : 0;
    if (cols <= 0 || a == b) return out;
    const int ax = (a % cols) * cell, ay = (a / cols) * cell, bx = (b % cols) * cell, by = (b / cols) * cell;
    for (int y = 0; y < cell; ++y)
        for (int x = 0; x < cell; ++x)
            for (int c = 0; c < 3; ++c) {
                const size_t pa = (static_cast<size_t>(ay + y) * img.width + ax + x) * 3 + c;
                const size_t pb = (static_cast<size_t>(by + y) * img.width + bx + x) * 3 + c;
                std::swap(out.rgb[pa], out.rgb[pb]);
            }
    return out;
}

LabSwap run_swap(const vit::Model& model, const vit::Image& sample, int patch_a, int patch_b) {
    LabSwap s;
    const auto before = run_checkpoint(model, sample);
    const auto after = run_checkpoint(model, swap_patches(sample, model.patch, patch_a, patch_b));
    if (const auto top = vit::top_classes(model, *before, 1); !top.empty())
        s.answer = top[0].label, s.probability = top[0].probability;
    if (const auto top = vit::top_classes(model, *after, 1); !top.empty())
        s.swapped_answer = top[0].label, s.swapped_probability = top[0].probability;
    s.cls_difference = (before->final_tokens.row(0) - after->final_tokens.row(0)).cwiseAbs().maxCoeff();
    return s;
}

std::string swap_sentence(const LabSwap& s, bool position, bool label_flips) {
    char buf[640];
    const char* why = "";
    if (!position)
        why = s.cls_difference <= kSwapTolerance
                  ? " Equal: without position embeddings attention is permutation-equivariant, the swapped image is "
                    "the same set of patches, and the class token reads a set."
                  : " Not equal, though without position embeddings they should be (to float rounding).";
    else if (label_flips)
        why = s.answer_flips() ? " The answer flips with the label: the model knows where each square is."
                               : " The answer does not flip, though the label does.";
    else
        why = s.answer_flips() ? " The answer changes, though the label does not."
                               : " The label does not change, nor does the answer.";
    std::snprintf(buf, sizeof buf,
                  "Swap the squares: \"%s\" (%.0f %%) before, \"%s\" (%.0f %%) after; the class token's output "
                  "changes by at most %.2g.%s",
                  s.answer.c_str(), 100 * s.probability, s.swapped_answer.c_str(), 100 * s.swapped_probability,
                  s.cls_difference, why);
    return buf;
}

}  // namespace session
