#include "questions_panel.h"

#include <algorithm>
#include <string>

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
    {"heads", make_heads_view},
    {"quadratic", make_quadratic_view},
    {"cls", make_cls_view},
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
        // A Selectable's label does not wrap: the item takes the wrapped title's height and the title is drawn over it.
        const float wrap = ImGui::GetContentRegionAvail().x;
        const ImVec2 text = ImGui::CalcTextSize(p.title, nullptr, false, wrap);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        if (ImGui::Selectable((std::string("##") + p.name).c_str(), selected, 0, ImVec2(0, text.y)))
            f.emit(session::act::ShowQuestion{p.name});
        ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at, ImGui::GetColorU32(ImGuiCol_Text),
                                            p.title, nullptr, wrap);
    }
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("##page");
    if (shown) {
        ImGui::PushTextWrapPos(0);
        ImGui::PushFont(f.fonts.title);
        ImGui::TextUnformatted(shown->title);
        ImGui::PopFont();
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
