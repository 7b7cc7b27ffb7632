#include "questions_panel.h"

#include <algorithm>

#include "session/questions.h"
#include "theme.h"

namespace ui {
namespace {

struct PageMaker {
    const char* name;
    std::unique_ptr<QuestionView> (*make)();
};

// The pages the window has, by session::question_pages() name.
constexpr PageMaker kPages[] = {
    {"scaling", make_scaling_view},
    {"global", make_global_view},
    {"dynamic", make_dynamic_view},
    {"permutation", make_permutation_view},
    {"position", make_position_view},
    {"cross", make_cross_view},
    {"mlp", make_mlp_view},
};

const PageMaker* maker_of(const std::string& name) {
    for (const PageMaker& p : kPages)
        if (name == p.name) return &p;
    return nullptr;
}

}  // namespace

void QuestionsPanel::draw(const Frame& f) {
    const session::AppState& s = f.s;
    if (!s.trace()) {
        ImGui::TextColored(colors::muted, "The questions are answered once a model has run on a photo.");
        return;
    }
    const float list_w = std::min(f.px(210), ImGui::GetContentRegionAvail().x * 0.3f);
    const session::QuestionPage* shown = nullptr;
    ImGui::BeginChild("##list", ImVec2(list_w, 0), true);
    for (const session::QuestionPage& p : session::question_pages()) {
        if (!maker_of(p.name)) continue;
        const bool selected = s.question == p.name;
        if (selected || !shown) shown = &p;
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + list_w - f.px(16));
        if (ImGui::Selectable(p.title, selected)) f.emit(session::act::ShowQuestion{p.name});
        ImGui::PopTextWrapPos();
    }
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("##page");
    if (shown) {
        ImGui::PushFont(f.fonts.title);
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(shown->title);
        ImGui::PopTextWrapPos();
        ImGui::PopFont();
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(shown->claim);
        ImGui::PopTextWrapPos();
        ImGui::Separator();
        auto& view = views_[shown->name];
        if (!view) view = maker_of(shown->name)->make();
        view->draw(f);
    }
    ImGui::EndChild();
}

}  // namespace ui
