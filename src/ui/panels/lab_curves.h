// The Learning lab's plots on one step axis: the held-out accuracy (with
// chance), the loss (held-out from log.csv; every training batch's while a run
// trains), and the learned moment: per layer, the weight the head chosen in
// that layer puts on the task's squares at every checkpoint, with the
// threshold a claim needs. And the position-similarity grid (the ViT paper's
// Fig. 7, centre). They draw what session::LabState holds; they compute
// nothing but the drawing.
#pragma once
#include "ui/widgets/frame.h"

namespace ui {

// The position grid's caption (the lab's layout wraps it in the grid's width).
inline constexpr const char* kLabGridCaption =
    "tile (r, c): cosine of position (r, c) with each; blue -1 · white 0 · red +1";
// The accuracy, loss and attention plots, stacked in `height`.
void lab_curves(const Frame& f, float height);
// The grid of grid x grid maps at the checkpoint shown, `side` px square; a
// sentence instead for a model without position embeddings.
void lab_position_grid(const Frame& f, float side);

}  // namespace ui
