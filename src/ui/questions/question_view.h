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

// One maker per page of the one list (vit/analysis/question_list.inc), each in
// the page's own file: make_NAME_view() in question_NAME.cpp.
#define PAGE(name, ...) std::unique_ptr<QuestionView> make_##name##_view();
#define ANSWER(name, ...)
#include "vit/analysis/question_list.inc"
#undef PAGE
#undef ANSWER

}  // namespace ui
