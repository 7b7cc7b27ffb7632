#include "ui/panels/predict_bar.h"

#include <vector>

#include "session/homework/live_exercise.h"
#include "session/classroom/prediction.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/theme.h"

namespace ui {
namespace {

using Phase = session::AppState::Prediction::Phase;

// The class's marks: a colour no colormap uses, so they never read as weights.
constexpr ImU32 kMarkColour = IM_COL32(255, 80, 200, 255);

// A row of buttons that reports each one's centre for the state file (tests click them).
class ButtonRow {
public:
    explicit ButtonRow(const Frame& f) : f_(f) {}
    bool button(const char* label, bool enabled = true) {
        if (!buttons_.empty()) ImGui::SameLine();
        ImGui::BeginDisabled(!enabled);
        const bool pressed = ImGui::Button(label);
        ImGui::EndDisabled();
        buttons_.push_back(last_item_target(label));
        return pressed;
    }
    ~ButtonRow() { f_.drawn.predict_buttons = std::move(buttons_); }

private:
    const Frame& f_;
    std::vector<session::PageTarget> buttons_;
};

}  // namespace

bool maps_hidden(const session::AppState& s) {
    return s.prediction.phase == Phase::Predicting || session::live_exercise_hides_maps(s);
}

void predict_bar(const Frame& f) {
    const session::AppState& s = f.s;
    const auto& p = s.prediction;
    const bool ready = s.trace() != nullptr;
    ButtonRow row(f);
    if (p.phase == Phase::Off) {
        if (row.button("Predict", ready)) f.emit(session::act::StartPredict{});
        tooltip("Hide the maps; mark the patches you expect the query to attend to; then Reveal.");
        return;
    }
    if (p.phase == Phase::Predicting) {
        if (row.button("Reveal", ready && !p.marked.empty())) f.emit(session::act::Reveal{});
        if (row.button("Cancel")) f.emit(session::act::EndPredict{});
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(colors::muted,
                           "Maps hidden. Click the patches you expect the query to attend to "
                           "(%zu marked), then Reveal.",
                           p.marked.size());
        ImGui::PopTextWrapPos();
        return;
    }
    if (row.button("Done")) f.emit(session::act::EndPredict{});
    if (row.button("Predict again", ready)) f.emit(session::act::StartPredict{});
    ImGui::PushTextWrapPos(0);
    if (const auto score = session::revealed_prediction(s)) {
        ImGui::PushFont(f.fonts.bold);
        ImGui::TextUnformatted(vit::prediction_sentence(*score).c_str());
        ImGui::PopFont();
    } else {
        ImGui::TextColored(colors::muted, "No heads visible: nothing to score the marks against.");
    }
    ImGui::PopTextWrapPos();
}

void draw_marked_patches(const Frame& f, const vit::Trace& t, ImVec2 origin, ImVec2 cell) {
    const auto& marked = f.s.prediction.marked;
    if (f.s.prediction.phase == Phase::Off || marked.empty()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int token : marked) {
        const ImVec2 a(origin.x + t.col_of(token) * cell.x, origin.y + t.row_of(token) * cell.y);
        const ImVec2 b(a.x + cell.x, a.y + cell.y);
        dl->AddRect(a, b, IM_COL32(0, 0, 0, 200), 0, 0, f.px(4));
        dl->AddRect(ImVec2(a.x + f.px(1), a.y + f.px(1)), ImVec2(b.x - f.px(1), b.y - f.px(1)), kMarkColour, 0, 0,
                    f.px(2));
    }
    // Named where the marks are drawn: they are the class's guess, not the model's numbers.
    map_corner_label(f, dl, origin, t.grid * cell.y, kMarkColour, "marked: the class's prediction");
}

void hidden_while_predicting(const Frame& f) {
    ImGui::PushTextWrapPos(0);
    ImGui::PushFont(f.fonts.bold);
    ImGui::TextUnformatted("Hidden while the class predicts.");
    ImGui::PopFont();
    ImGui::TextColored(colors::muted,
                       "The weights would give the answer away: mark patches on the photo, then "
                       "press Reveal.");
    ImGui::PopTextWrapPos();
}

}  // namespace ui
