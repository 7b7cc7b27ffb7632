// Classroom mode's "Predict, then reveal": the Predict button hides every map
// (photo, heads, the math panel) while the class marks the patches it expects
// the query to attend to; Reveal shows the map again and how much of the
// weight fell on the marked patches against an even spread (the sentence
// vit::prediction_sentence writes from the numbers).
#pragma once
#include "ui/widgets/frame.h"
#include "vit/forward/forward.h"

namespace ui {

// Whether the maps are hidden this frame: predicting, not yet revealed.
bool maps_hidden(const session::AppState& s);

// The buttons and what to do next; after the reveal, the sentence.
void predict_bar(const Frame& f);

// The marked patches outlined on the photo: origin is the model input's top
// left on screen, cell one patch's size. Labelled as the class's prediction.
void draw_marked_patches(const Frame& f, const vit::Trace& t, ImVec2 origin, ImVec2 cell);

// What the math panel shows instead of its numbers while the maps are hidden.
void hidden_while_predicting(const Frame& f);

}  // namespace ui
