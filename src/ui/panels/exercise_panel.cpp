#include "ui/panels/exercise_panel.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "session/homework/live_exercise.h"
#include "session/tour/tour_text.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/theme.h"
#include "vit/forward/token_name.h"

namespace ui {
namespace {

using session::ExerciseKind;
namespace live = session::live;

// The class's answer on the photo: the colour predict-then-reveal marks with, no colormap's.
constexpr ImU32 kAnswerColour = IM_COL32(255, 80, 200, 255);

// What the panel drew that a test may click, in the frame's report.
class Targets {
public:
    explicit Targets(const Frame& f) : f_(f) {}
    // The part of the last item on the screen (the question scrolls above the buttons); nothing when none is.
    void item(std::string name) {
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const ImVec2 lo = dl->GetClipRectMin(), hi = dl->GetClipRectMax();
        const ImVec2 a(std::max(ImGui::GetItemRectMin().x, lo.x), std::max(ImGui::GetItemRectMin().y, lo.y));
        const ImVec2 b(std::min(ImGui::GetItemRectMax().x, hi.x), std::min(ImGui::GetItemRectMax().y, hi.y));
        if (b.x > a.x && b.y > a.y) targets_.push_back({std::move(name), {a.x, a.y, b.x - a.x, b.y - a.y}});
    }
    ~Targets() { f_.drawn.exercise_targets = std::move(targets_); }

private:
    const Frame& f_;
    std::vector<std::pair<std::string, std::array<float, 4>>> targets_;
};

Targets* g_targets = nullptr;  // the frame's, while the panel draws (one panel, one thread)

void report(std::string name) {
    if (g_targets) g_targets->item(std::move(name));
}

const char* how_to_answer(ExerciseKind kind) {
    switch (kind) {
        case ExerciseKind::TopKey: return "Click the key on the photo (or a token below), then Reveal.";
        case ExerciseKind::PredictRegion:
            return "Click the patches where the query will look (again to unmark), then Reveal.";
        case ExerciseKind::Weight: return "Type the weight (0 to 1, or a percentage), then Enter or Reveal.";
        case ExerciseKind::ScaledScore: return "Type the scaled score, then Enter or Reveal.";
        case ExerciseKind::Score: return "Type the score q·k, then Enter or Reveal.";
        case ExerciseKind::Exp: return "Type exp of the scaled score, then Enter or Reveal.";
        case ExerciseKind::Z: return "Type Z, the sum of exp over the row, then Enter or Reveal.";
        case ExerciseKind::Choice: return "Click an option, then Reveal.";
    }
    return "";
}

// One option of a choice as a box the width of the panel, its text wrapped in classroom type.
void option_box(const Frame& f, const session::Exercise& e, int n, bool revealed) {
    const session::LiveExercise& x = f.s.live_exercise;
    const ImGuiStyle& st = ImGui::GetStyle();
    const float width = ImGui::GetContentRegionAvail().x, pad = f.px(5);
    const std::string text = std::to_string(n) + ". " + e.options[static_cast<size_t>(n - 1)];
    const std::vector<std::string> lines = wrapped_lines(text, ImGui::GetFont(), width - 2 * pad);
    const float line_h = ImGui::GetTextLineHeight();
    const ImVec2 at = ImGui::GetCursorScreenPos(), size(width, lines.size() * line_h + 2 * pad);
    ImGui::PushID(n);
    const bool clicked = ImGui::InvisibleButton("##option", size) && !revealed;
    ImGui::PopID();
    report("option " + std::to_string(n));
    if (clicked) f.emit(session::act::Live{live::Choose{n}});
    const bool chosen = std::find(x.options.begin(), x.options.end(), n) != x.options.end();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 end(at.x + size.x, at.y + size.y);
    ImVec4 fill = ImGui::GetStyleColorVec4(chosen                                ? ImGuiCol_ButtonActive
                                           : ImGui::IsItemHovered() && !revealed ? ImGuiCol_ButtonHovered
                                                                                 : ImGuiCol_FrameBg);
    dl->AddRectFilled(at, end, ImGui::GetColorU32(fill), st.FrameRounding);
    const std::vector<int>& right = x.set->exercises[static_cast<size_t>(x.index)].answers;
    if (revealed && std::find(right.begin(), right.end(), n) != right.end())
        dl->AddRect(at, end, ImGui::GetColorU32(colors::ok), st.FrameRounding, 0, f.px(3));
    else if (chosen)
        dl->AddRect(at, end, ImGui::GetColorU32(revealed ? colors::error : colors::accent), st.FrameRounding, 0,
                    f.px(3));
    float y = at.y + pad;
    for (const std::string& line : lines) {
        dl->AddText(ImVec2(at.x + pad, y), ImGui::GetColorU32(ImGuiCol_Text), line.c_str());
        y += line_h;
    }
}

}  // namespace

std::optional<session::Action> live_photo_click(const session::AppState& s, int token) {
    const session::Exercise* e = session::live_exercise_shown(s);
    if (!e || session::live_revealed(s)) return std::nullopt;
    if (e->kind == ExerciseKind::TopKey) return session::act::Live{live::Pick{token}};
    if (e->kind == ExerciseKind::PredictRegion) return session::act::Live{live::Mark{token}};
    return std::nullopt;
}

const char* live_photo_click_hint(const session::AppState& s) {
    const session::Exercise* e = session::live_exercise_shown(s);
    if (!e || session::live_revealed(s)) return "the exercise's query and key stay while it is on";
    if (e->kind == ExerciseKind::TopKey) return "click: answer with this key";
    if (e->kind == ExerciseKind::PredictRegion) return "click: mark or unmark it as the class's answer";
    return "the exercise's query and key stay while it is on";
}

void draw_live_answer(const Frame& f, const vit::Trace& t, ImVec2 origin, ImVec2 cell) {
    const session::Exercise* e = session::live_exercise_shown(f.s);
    if (!e) return;
    const session::LiveExercise& x = f.s.live_exercise;
    if (session::live_exercise_hides_maps(f.s)) {
        // With the map hidden the photo draws no marks: the query (and the key the question names) drawn here.
        ImDrawList* dl = ImGui::GetWindowDrawList();
        auto outline = [&](int token, ImU32 colour) {
            if (!t.is_patch(token)) return;
            const ImVec2 a(origin.x + t.col_of(token) * cell.x, origin.y + t.row_of(token) * cell.y);
            const ImVec2 b(a.x + cell.x, a.y + cell.y);
            dl->AddRect(a, b, IM_COL32(0, 0, 0, 220), 0, 0, f.px(5));
            dl->AddRect(ImVec2(a.x + f.px(1), a.y + f.px(1)), ImVec2(b.x - f.px(1), b.y - f.px(1)), colour, 0, 0,
                        f.px(3));
        };
        outline(f.s.sel.query, IM_COL32(255, 255, 255, 255));
        outline(f.s.sel.pinned_key, ImGui::GetColorU32(colors::pinned));
        // Named at the model input's right edge, a line below its own label (the class's answer: bottom left).
        const std::string label = t.is_patch(f.s.sel.pinned_key) ? "white: query · orange: key" : "white: query";
        if (t.is_patch(f.s.sel.query)) {
            const ImVec2 ls = ImGui::CalcTextSize(label.c_str());
            const ImVec2 lp(origin.x + t.grid * cell.x - ls.x - f.px(4), origin.y + ls.y + f.px(8));
            dl->AddRectFilled(ImVec2(lp.x - f.px(3), lp.y - f.px(1)),
                              ImVec2(lp.x + ls.x + f.px(3), lp.y + ls.y + f.px(1)), IM_COL32(0, 0, 0, 170), f.px(3));
            dl->AddText(lp, IM_COL32(255, 255, 255, 255), label.c_str());
        }
    }
    std::vector<int> tokens = e->kind == ExerciseKind::PredictRegion ? x.marked : std::vector<int>{};
    if (e->kind == ExerciseKind::TopKey && t.is_patch(x.picked)) tokens.push_back(x.picked);
    if (tokens.empty()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int token : tokens) {
        const ImVec2 a(origin.x + t.col_of(token) * cell.x, origin.y + t.row_of(token) * cell.y);
        const ImVec2 b(a.x + cell.x, a.y + cell.y);
        dl->AddRect(a, b, IM_COL32(0, 0, 0, 200), 0, 0, f.px(4));
        dl->AddRect(ImVec2(a.x + f.px(1), a.y + f.px(1)), ImVec2(b.x - f.px(1), b.y - f.px(1)), kAnswerColour, 0, 0,
                    f.px(2));
    }
    // Named where drawn: the class's answer, not the model's numbers.
    map_corner_label(f, dl, origin, t.grid * cell.y, kAnswerColour, "pink: the class's answer");
}

void ExercisePanel::answer_input(const Frame& f) {
    const session::AppState& s = f.s;
    const session::LiveExercise& x = s.live_exercise;
    const session::Exercise& e = *session::live_exercise_shown(s);
    const vit::Trace& t = *s.trace();
    const bool revealed = session::live_revealed(s);
    if (!revealed) text_wrapped_at_spaces(colors::muted, how_to_answer(e.kind));
    switch (e.kind) {
        case ExerciseKind::TopKey: {
            ImGui::BeginDisabled(revealed);
            for (int j = 0; j < t.prefix; ++j) {  // the tokens with no place on the photo
                if (j) ImGui::SameLine();
                const std::string name = vit::token_name(t, j);
                if (ImGui::Button(name.c_str())) f.emit(session::act::Live{live::Pick{j}});
                report(name);
            }
            ImGui::EndDisabled();
            ImGui::SameLine();
            ImGui::AlignTextToFramePadding();
            if (x.picked >= 0) ImGui::Text("Your answer: %s", vit::token_name(t, x.picked).c_str());
            else ImGui::TextColored(colors::muted, "Nothing chosen yet.");
            break;
        }
        case ExerciseKind::PredictRegion:
            ImGui::Text("%zu patch%s marked.", x.marked.size(), x.marked.size() == 1 ? "" : "es");
            break;
        case ExerciseKind::Weight:
        case ExerciseKind::Score:
        case ExerciseKind::ScaledScore:
        case ExerciseKind::Exp:
        case ExerciseKind::Z: {
            if (x.typed != synced_) {  // a new exercise, or a script typed
                std::snprintf(typed_, sizeof typed_, "%s", x.typed.c_str());
                synced_ = x.typed;
            }
            ImGui::PushFont(text_font_);
            ImGui::AlignTextToFramePadding();
            ImGui::TextUnformatted("Answer:");
            ImGui::SameLine();
            ImGui::SetNextItemWidth(ImGui::CalcTextSize("−0.0000000000").x);
            ImGui::BeginDisabled(revealed);
            if (ImGui::InputText("##answer", typed_, sizeof typed_)) {
                synced_ = typed_;
                f.emit(session::act::Live{live::Type{typed_}});
            }
            const bool entered = ImGui::IsItemDeactivated() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter));
            ImGui::EndDisabled();
            report("answer field");
            ImGui::PopFont();
            if (entered) f.emit(session::act::Live{live::Reveal{}});
            break;
        }
        case ExerciseKind::Choice:
            ImGui::PushFont(text_font_);
            for (int n = 1; n <= static_cast<int>(e.options.size()); ++n) option_box(f, e, n, revealed);
            ImGui::PopFont();
            break;
    }
}

void ExercisePanel::verdict(const Frame& f) {
    const session::LiveVerdict* v = session::live_verdict(f.s);
    if (!v) {
        scrolled_to_verdict_ = false;
        return;
    }
    ImGui::Spacing();
    ImGui::Separator();
    if (!scrolled_to_verdict_) {  // the class sees the verdict without scrolling, once
        ImGui::SetScrollHereY(0.f);
        scrolled_to_verdict_ = true;
    }
    ImGui::PushFont(bold_font_);
    ImGui::TextColored(v->check.correct ? colors::ok : colors::error, "%s", v->check.correct ? "Right." : "Not right.");
    ImGui::PopFont();
    ImGui::PushFont(text_font_);
    text_wrapped_at_spaces(v->sentence.c_str());
    ImGui::PopFont();
    if (!v->lines.empty()) {
        ImGui::Spacing();
        text_wrapped_at_spaces(colors::muted, "How the model gets it (its own numbers, as the math panel shows them):");
        ImGui::PushFont(text_font_ == f.fonts.large ? ImGui::GetFont() : f.fonts.large);
        constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
        if (ImGui::BeginTable("##arithmetic", 3, kFlags)) {
            ImGui::TableSetupColumn("step", ImGuiTableColumnFlags_WidthFixed);
            ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthFixed);
            ImGui::TableSetupColumn("why", ImGuiTableColumnFlags_WidthStretch);
            for (const session::ArithmeticLine& l : v->lines) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(l.name.c_str());
                ImGui::TableNextColumn();
                ImGui::PushFont(f.fonts.mono);
                ImGui::TextUnformatted(l.value.c_str());
                ImGui::PopFont();
                ImGui::TableNextColumn();
                text_wrapped_at_spaces(colors::muted, l.why.c_str());
            }
            ImGui::EndTable();
        }
        ImGui::PopFont();
    }
    if (v->answer.layer >= 0)
        text_wrapped_at_spaces(colors::muted, v->answer.key >= 0
                                                  ? "The photo now shows this head's map for the query, the key pinned."
                                                  : "The photo now shows this head's map for the query.");
}

void ExercisePanel::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const session::Exercise* e = session::live_exercise_shown(s);
    if (!e || !s.trace()) return;
    // The back row reads the question and the answer at a share of the screen's height: on a tall
    // screen (a 1080-line projector) the lecture type, else the tour card's large type.
    const bool tall = ImGui::GetIO().DisplaySize.y >= 900;
    text_font_ = tall ? f.fonts.lecture : f.fonts.large;
    bold_font_ = tall ? f.fonts.lecture_bold : f.fonts.large_bold;
    Targets targets(f);
    g_targets = &targets;
    const session::LiveExercise& x = s.live_exercise;
    const int n = static_cast<int>(x.set->exercises.size());
    const bool revealed = session::live_revealed(s);
    const ImGuiStyle& st = ImGui::GetStyle();

    // The buttons stay at the bottom; the rest scrolls above them.
    const float buttons_h = 2 * ImGui::GetFrameHeightWithSpacing() + st.ItemSpacing.y;
    ImGui::BeginChild("##exercise", ImVec2(0, std::max(f.px(60), ImGui::GetContentRegionAvail().y - buttons_h)));
    if (shown_index_ != x.index) ImGui::SetScrollY(0);  // another exercise starts at its question
    shown_index_ = x.index;
    char where[96];
    std::snprintf(where, sizeof where, "Exercise %d of %d", x.index + 1, n);
    ImGui::PushFont(f.fonts.large);
    ImGui::TextColored(colors::muted, "%s", where);
    ImGui::PopFont();
    ImGui::PushFont(tall ? f.fonts.lecture_bold : f.fonts.title);
    text_wrapped_at_spaces(bounded(x.set->tour->steps[static_cast<size_t>(x.index)].title).c_str());
    ImGui::PopFont();
    ImGui::PushFont(text_font_);
    for (const std::string& p : session::shown_tour_text(s)) text_wrapped_at_spaces(bounded(p).c_str());
    ImGui::PopFont();
    if (session::live_exercise_hides_maps(s))
        text_wrapped_at_spaces(colors::accent,
                               "The maps are hidden on purpose: they would give the answer away. Reveal shows them.");
    ImGui::Spacing();
    answer_input(f);
    if (!x.note.empty()) text_wrapped_at_spaces(colors::error, bounded(x.note).c_str());
    verdict(f);
    ImGui::EndChild();

    ImGui::Separator();
    ImGui::BeginDisabled(revealed || session::live_reveal_waits(s));
    if (ImGui::Button("Reveal")) f.emit(session::act::Live{live::Reveal{}});
    ImGui::EndDisabled();
    report("reveal");
    ImGui::SameLine();
    ImGui::BeginDisabled(x.index == 0);
    if (ImGui::Button("Previous")) f.emit(session::act::Live{live::Go{x.index - 1}});
    ImGui::EndDisabled();
    report("previous");
    ImGui::SameLine();
    ImGui::BeginDisabled(x.index + 1 >= n);
    if (ImGui::Button("Next")) f.emit(session::act::Live{live::Go{x.index + 1}});
    ImGui::EndDisabled();
    report("next");
    same_line_if_fits(button_width("End"));
    if (ImGui::Button("End")) f.emit(session::act::Live{live::End{}});
    report("end");
    const std::vector<const char*> keys = {"Enter", "←", "→", "Esc"};
    same_line_if_fits(key_caps_width(keys));
    key_caps(keys);
    if (session::live_reveal_waits(s))
        ImGui::TextColored(colors::muted, "Choosing the exercise's query on this photo…");
    g_targets = nullptr;
}

}  // namespace ui
