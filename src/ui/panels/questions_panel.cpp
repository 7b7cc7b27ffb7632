#include "ui/panels/questions_panel.h"

#include <algorithm>
#include <string>
#include <vector>

#include "ui/questions/question_widgets.h"
#include "ui/widgets/figure_probe.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/theme.h"

namespace ui {
namespace {

struct PageMaker {
    const char* name;
    std::unique_ptr<QuestionView> (*make)();
};

// Every page of the one list with its view (a page without one does not link).
constexpr PageMaker kPages[] = {
#define PAGE(name, ...) {#name, make_##name##_view},
#define ANSWER(name, ...)
#include "vit/analysis/question_list.inc"
#undef PAGE
#undef ANSWER
};

const PageMaker* maker_of(const std::string& name) {
    for (const PageMaker& p : kPages)
        if (name == p.name) return &p;
    return nullptr;
}

// Below this width (logical pixels) a list beside the page would leave both
// too narrow to read: the questions are stepped through above the page instead.
constexpr float kListBesidePage = 600;

// The pages the window has, in order, and the one shown.
std::vector<const vit::QuestionPage*> window_pages(const session::AppState& s, const vit::QuestionPage*& shown) {
    std::vector<const vit::QuestionPage*> pages;
    shown = nullptr;
    for (const vit::QuestionPage& p : vit::question_pages()) {
        pages.push_back(&p);
        if (s.question == p.name || !shown) shown = &p;
    }
    return pages;
}

// The list of questions, their titles wrapped in the list's width.
void question_list(const Frame& f, const std::vector<const vit::QuestionPage*>& pages, float width) {
    ImGui::BeginChild("##list", ImVec2(width, 0), true);
    for (const vit::QuestionPage* p : pages) {
        // A Selectable's label does not wrap: the item takes the wrapped title's height and the title is drawn over it.
        const float wrap = ImGui::GetContentRegionAvail().x;
        const ImVec2 text = ImGui::CalcTextSize(p->title, nullptr, false, wrap);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        if (ImGui::Selectable((std::string("##") + p->name).c_str(), f.s.question == p->name, 0, ImVec2(0, text.y)))
            f.emit(session::act::ShowQuestion{p->name});
        ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at,
                                            ImGui::GetColorU32(ImGuiCol_Text), p->title, nullptr, wrap);
    }
    ImGui::EndChild();
}

// Narrow panels (classroom type at 1024 or 1280 px): the question before and
// after, and all of them in a menu, on one line above the page.
void question_stepper(const Frame& f, const std::vector<const vit::QuestionPage*>& pages,
                      const vit::QuestionPage* shown) {
    const int n = static_cast<int>(pages.size());
    const int i = static_cast<int>(std::find(pages.begin(), pages.end(), shown) - pages.begin());
    ImGui::BeginDisabled(i <= 0);
    if (ImGui::ArrowButton("##question_back", ImGuiDir_Left)) f.emit(session::act::ShowQuestion{pages[i - 1]->name});
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(i + 1 >= n);
    if (ImGui::ArrowButton("##question_next", ImGuiDir_Right)) f.emit(session::act::ShowQuestion{pages[i + 1]->name});
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(colors::muted, "Question %d of %d", i + 1, n);
    ImGui::SameLine();
    if (ImGui::Button("All questions")) ImGui::OpenPopup("##questions_menu");
    if (ImGui::BeginPopup("##questions_menu")) {
        for (const vit::QuestionPage* p : pages)
            if (ImGui::Selectable(p->title, p == shown)) f.emit(session::act::ShowQuestion{p->name});
        ImGui::EndPopup();
    }
}

}  // namespace

std::vector<std::string> question_view_names() {
    std::vector<std::string> names;
    for (const PageMaker& p : kPages) names.push_back(p.name);
    return names;
}

std::unique_ptr<QuestionView> make_question_view(const std::string& name) {
    const PageMaker* maker = maker_of(name);
    return maker ? maker->make() : nullptr;
}

namespace {

// The page's evidence, and where its first figure landed for the state file
// (tests check that a page leads with its figure above the fold).
void draw_view(const Frame& f, QuestionView& view) {
    if (f.figure) return view.draw(f);
    FigureProbe probe;
    view.draw(f);
    const DrawnFigure& first = probe.first();
    const std::vector<float> rect =
        first.kind.empty() ? std::vector<float>{} : std::vector<float>(first.rect.begin(), first.rect.end());
    f.drawn.page_figure_kind = first.kind, f.drawn.page_figure = rect;
}

}  // namespace

void draw_question_page(const Frame& f, const vit::QuestionPage& page, QuestionView& view) {
    ImGui::PushFont(f.fonts.title);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(page.title);
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    // Classroom mode: the question, then its figures; the claim and the notes folded beneath them.
    if (f.s.classroom && !f.figure) {
        ImGui::Separator();
        FoldedNotes notes;
        draw_view(f, view);
        notes.draw(page.claim);
        return;
    }
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(page.claim);
    ImGui::PopTextWrapPos();
    ImGui::Separator();
    draw_view(f, view);
}

QuestionView* QuestionsPanel::shown_view(const Frame& f) {
    if (f.s.tab != session::AppState::Tab::Questions) return nullptr;
    const auto it = views_.find(f.s.question);
    return it == views_.end() ? nullptr : it->second.get();
}

void QuestionsPanel::draw(const Frame& f) {
    const session::AppState& s = f.s;
    if (!s.trace()) {
        ImGui::TextColored(colors::muted, "The questions are answered once a model has run on a photo.");
        return;
    }
    const vit::QuestionPage* shown = nullptr;
    const std::vector<const vit::QuestionPage*> pages = window_pages(s, shown);
    const bool beside = ImGui::GetContentRegionAvail().x >= f.px(kListBesidePage);
    if (beside) {
        question_list(f, pages, std::min(f.px(210), ImGui::GetContentRegionAvail().x * 0.3f));
        ImGui::SameLine();
    } else if (shown) {
        question_stepper(f, pages, shown);
    }
    ImGui::BeginChild("##page");
    if (shown) {
        // Above the page, on the right: the page as a PNG, drawn as it is here.
        const char* label = "Export figure";
        const float button_w = button_width(label);
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.f, ImGui::GetContentRegionAvail().x - button_w));
        if (ImGui::SmallButton(label)) f.emit(session::cmd::ExportQuestionFigure{"", shown->name});
        const std::vector<session::PageTarget> at = {last_item_target("export figure")};  // for tests that click it
        if (!f.figure) f.drawn.page_export_button = at;
        tooltip(
            "Save this page as a PNG figure in the export folder, with the model, photo and selection in its "
            "caption (the command line: vitscope explain IMAGE --question NAME -o OUT.png)");
        auto& view = views_[shown->name];
        if (!view) view = maker_of(shown->name)->make();
        draw_question_page(f, *shown, *view);
    }
    ImGui::EndChild();
}

}  // namespace ui
