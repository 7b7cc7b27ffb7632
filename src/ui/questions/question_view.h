// One page of the Questions tab: it lays out numbers src/vit computed on the
// photo and model that are open (the panel draws the question and its claim
// above it). A page keeps only caches of those numbers between frames, keyed
// on what they were computed from; the state stays in the session.
#pragma once
#include <memory>

#include "ui/widgets/frame.h"

namespace ui {

// Where the photo view drew the patch grid: its top-left corner on screen and
// one patch's size, for a page that marks something on the photo.
struct PhotoGrid {
    ImVec2 origin, cell;
};

class QuestionView {
public:
    virtual ~QuestionView() = default;
    virtual void draw(const Frame& f) = 0;
    // Called by the photo view while this page is shown, after the map is drawn.
    virtual void draw_on_photo(const Frame&, const PhotoGrid&) {}
};

// One maker per page, each in its own file (question_NAME.cpp).
std::unique_ptr<QuestionView> make_scaling_view();
std::unique_ptr<QuestionView> make_heads_view();
std::unique_ptr<QuestionView> make_quadratic_view();
std::unique_ptr<QuestionView> make_cls_view();
std::unique_ptr<QuestionView> make_global_view();
std::unique_ptr<QuestionView> make_dynamic_view();
std::unique_ptr<QuestionView> make_permutation_view();
std::unique_ptr<QuestionView> make_position_view();
std::unique_ptr<QuestionView> make_cross_view();
std::unique_ptr<QuestionView> make_matrix_view();
std::unique_ptr<QuestionView> make_mlp_view();
std::unique_ptr<QuestionView> make_relevance_view();

}  // namespace ui
