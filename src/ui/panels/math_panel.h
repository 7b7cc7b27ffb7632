// One head's attention for the query i and one key j, step by step, every
// number read from the trace: q_i, k_j, q_i ⊙ k_j and its sum s_ij, the
// scaling by √d_k, exp and the normaliser Z, a_ij, the three maps side by
// side, v_j and the output o_i with the keys that contribute most to it.
#pragma once
#include <initializer_list>

#include "ui/widgets/frame.h"
#include "ui/widgets/map_view.h"
#include "vit/analysis/step_explanation.h"

namespace ui {

class MathPanel {
public:
    void draw(const Frame& f);

private:
    // Maps of the query's row over the photo, side by side, as large as the
    // width and the height left (less `below` for what follows them) allow.
    enum Map { Raw, Scaled, Weights };
    void maps(const Frame& f, const vit::StepExplanation& e, std::initializer_list<Map> which, float below);
    void softmax_maps(const Frame& f, const vit::Trace& t, const vit::StepExplanation& e, bool one_step);
    // Scrolls the contributions table into view when a tour step asks
    // (frame: contributions), once per step so the reader can scroll away.
    void frame_for_tour(const Frame& f);
    MapView raw_, scaled_, weights_;
    const void* framed_tour_ = nullptr;
    int framed_step_ = -1;
};

}  // namespace ui
