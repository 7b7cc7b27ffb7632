#include "ui/panels/tour_card.h"

#include <algorithm>
#include <cfloat>
#include <filesystem>
#include <string>
#include <vector>

#include "session/tour_text.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/theme.h"

namespace ui {
namespace {

const PanelRect* panel_of(const std::string& name, const Layout& layout) {
    if (name == "photo") return &layout.photo;
    if (name == "heads") return &layout.heads;
    if (name == "inside") return &layout.math;
    return nullptr;
}

// The height the card's sentences take, as drawn below.
float paragraphs_height(const std::vector<std::string>& paragraphs, const ImFont* font, float width) {
    const float gap = ImGui::GetStyle().ItemSpacing.y;
    float h = 0;
    for (const std::string& p : paragraphs) h += gap + wrapped_lines(p, font, width).size() * (font->FontSize + gap);
    return h;
}

void highlight(const Frame& f, const PanelRect& r) {
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    const float inset = f.px(3);
    dl->AddRect(ImVec2(r.pos.x + inset, r.pos.y + inset), ImVec2(r.pos.x + r.size.x - inset, r.pos.y + r.size.y - inset),
                ImGui::GetColorU32(colors::accent), f.px(6), 0, f.px(4));
}

// The first run's offer, over the photo panel, once the photo is there.
void offer(const Frame& f, const Layout& layout) {
    const PanelRect& r = layout.photo;
    ImGui::SetNextWindowPos(ImVec2(r.pos.x + r.size.x * 0.5f, r.pos.y + f.px(60)), ImGuiCond_Always, ImVec2(0.5f, 0.f));
    ImGui::SetNextWindowSize(ImVec2(std::min(r.size.x - f.px(24), f.px(420)), 0));
    ImGui::PushStyleColor(ImGuiCol_Border, colors::accent);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, f.px(2));
    constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                                       ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize;
    if (ImGui::Begin("##tour_offer", nullptr, flags)) {
        ImGui::PushFont(f.fonts.bold);
        ImGui::TextWrapped("New to vitscope?");
        ImGui::PopFont();
        ImGui::TextWrapped("A short guided tour follows one patch of this photo through attention: its query, "
                           "the scores, the scaling, the softmax and the blend of values, with the numbers the model "
                           "computes. Help > Guided tour starts it any time.");
        // Where each button is, for tests that click one.
        std::vector<session::PageTarget> buttons;
        const bool take = ImGui::Button("Take the tour");
        buttons.push_back(last_item_target("take"));
        ImGui::SameLine();
        const bool not_now = ImGui::Button("Not now");
        buttons.push_back(last_item_target("not now"));
        // Not on the frame it appears: it is laid out before its size is known, and moves on the next.
        if (take || not_now)
            f.emit(session::act::AnswerTourOffer{take});
        else if (!ImGui::IsWindowAppearing() && buttons != f.s.reported.tour_offer_buttons)
            f.emit(session::act::SetTourOfferButtons{std::move(buttons)});
    }
    ImGui::End();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
}

// Back, Next (Finish on the last step), Exit.
void navigation(const Frame& f, int i, int n) {
    using namespace session::act;
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::BeginDisabled(i == 0);
    if (ImGui::Button("Back")) f.emit(TourGo{i - 1});
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (i + 1 < n) {
        if (ImGui::Button("Next")) f.emit(TourGo{i + 1});
    } else if (ImGui::Button("Finish")) {
        f.emit(ExitTour{});
    }
    same_line_if_fits(button_width("Exit the tour"));
    if (ImGui::Button("Exit the tour")) f.emit(ExitTour{});
    same_line_if_fits(ImGui::CalcTextSize("← →  Esc").x);
    ImGui::TextColored(colors::muted, "← →  Esc");
}

}  // namespace

void tour_card(const Frame& f, const Layout& layout) {
    const session::AppState& s = f.s;
    if (!s.tour_offered && !s.tour.tour && s.trace()) offer(f, layout);
    if (!s.tour.tour) return;
    using namespace session::act;
    const session::Tour& tour = *s.tour.tour;
    const int n = static_cast<int>(tour.steps.size()), i = s.tour.step;
    const session::TourStep& step = tour.steps[i];
    const PanelRect* shown = panel_of(step.panel, layout);
    if (shown) highlight(f, *shown);

    // The card sits over the lower part of the widest panel the step does not
    // talk about (the heads column is too narrow for sentences in classroom type).
    const PanelRect* host = &layout.photo;
    for (const PanelRect* r : {&layout.photo, &layout.math, &layout.heads})
        if (r != shown && (host == shown || r->size.x > host->size.x)) host = r;
    const float width = std::min(host->size.x - f.px(24), f.px(460));
    const float most = host->size.y - f.px(24);
    ImGui::SetNextWindowPos(ImVec2(host->pos.x + f.px(12), host->pos.y + host->size.y - f.px(12)), ImGuiCond_Always,
                            ImVec2(0.f, 1.f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, most));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, colors::card_bg);
    ImGui::PushStyleColor(ImGuiCol_Border, colors::accent);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, f.px(2));
    constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                                       ImGuiWindowFlags_NoFocusOnAppearing;
    if (ImGui::Begin("##tour", nullptr, flags)) {
        char where[320];
        std::snprintf(where, sizeof where, "%s · step %d of %d", tour.title.c_str(), i + 1, n);
        text_wrapped_at_spaces(colors::muted, where);
        ImGui::PushFont(f.fonts.title);
        ImGui::TextWrapped("%s", step.title.c_str());
        ImGui::PopFont();
        // The sentences scroll when the card would be taller than the panel:
        // the buttons below them stay on the screen.
        bool left_out = false;
        const std::vector<std::string> texts = session::shown_tour_text(s, &left_out);
        const ImGuiStyle& st = ImGui::GetStyle();
        const float text_w = width - 2 * st.WindowPadding.x - st.ScrollbarSize;
        const float below = (left_out ? 4 : 0) * ImGui::GetTextLineHeightWithSpacing() + ImGui::GetFrameHeightWithSpacing() +
                            3 * st.ItemSpacing.y + st.WindowPadding.y;
        const float room = most - ImGui::GetCursorPosY() - below;
        const float text_h = std::min(paragraphs_height(texts, ImGui::GetFont(), text_w) + st.ItemSpacing.y, std::max(room, f.px(60)));
        ImGui::BeginChild("##sentences", ImVec2(0, text_h));
        for (const std::string& text : texts) {
            ImGui::Spacing();
            for (const std::string& line : wrapped_lines(text, ImGui::GetFont(), text_w)) ImGui::TextUnformatted(line.c_str());
        }
        ImGui::EndChild();
        if (left_out) {
            ImGui::Spacing();
            ImGui::PushStyleColor(ImGuiCol_Text, colors::muted);
            ImGui::TextWrapped("This tour's examples refer to %s at the model's own input size; the sentences that "
                               "name a part of that photo are left out here.", bounded(tour.photo, 300).c_str());
            ImGui::PopStyleColor();
            if (!f.still && !s.photos_dir.empty() && ImGui::SmallButton(("Open " + bounded(tour.photo, 300)).c_str())) {
                f.emit(SetInputSize{0});
                f.emit(OpenImage{(std::filesystem::path(s.photos_dir) / tour.photo).string()});
            }
        }
        if (!f.still) navigation(f, i, n);
    }
    ImGui::End();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(2);
}

}  // namespace ui
