// One head's attention for the query i and one key j, step by step, every
// number read from the trace: q_i, k_j, q_i ⊙ k_j and its sum s_ij, the
// scaling by √d_k, exp and the normaliser Z, a_ij, the three maps side by
// side, v_j and the output o_i with the keys that contribute most to it.
#pragma once
#include "ui/widgets/frame.h"
#include "ui/widgets/map_view.h"
#include "vit/analysis/step_explanation.h"

namespace ui {

class MathPanel {
public:
    void draw(const Frame& f);

private:
    void softmax_maps(const Frame& f, const vit::Trace& t, const vit::StepExplanation& e);
    MapView raw_, scaled_, weights_;
};

}  // namespace ui
