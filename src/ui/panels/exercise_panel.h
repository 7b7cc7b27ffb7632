// Classroom mode's live exercise on screen (session/homework/live_exercise.h), in the
// math panel's place: the exercise's question in classroom-size type, the way
// the kind is answered (a key clicked on the photo or CLS, patches marked, a
// number typed, an option clicked), Reveal, and once revealed the verdict, the
// right answer and the arithmetic from the model's numbers; Previous, Next
// and End below. Keys: Enter reveals, ← → move, Esc ends.
#pragma once
#include <optional>
#include <string>

#include "ui/widgets/frame.h"
#include "vit/forward/forward.h"

namespace ui {

class ExercisePanel {
public:
    void draw(const Frame& f);

private:
    void answer_input(const Frame& f);
    void verdict(const Frame& f);
    char typed_[72] = "";
    std::string synced_;  // the state's typed text the field last showed
    bool scrolled_to_verdict_ = false;
    int shown_index_ = -1;         // the exercise drawn last frame
    ImFont* text_font_ = nullptr;  // this frame's type for the question and the answer
    ImFont* bold_font_ = nullptr;
};

// What a click on patch `token` of the photo does while the live exercise is
// on: picks the key (top_key) or marks the patch (predict_region); nothing
// otherwise (the exercise's query and key stay as the exercise set them).
std::optional<session::Action> live_photo_click(const session::AppState& s, int token);
// The tooltip's line for that click.
const char* live_photo_click_hint(const session::AppState& s);

// The class's answer on the photo (the key picked, the patches marked), named
// as the class's; origin is the model input's top left, cell one patch.
void draw_live_answer(const Frame& f, const vit::Trace& t, ImVec2 origin, ImVec2 cell);

}  // namespace ui
