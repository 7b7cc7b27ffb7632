#include "ui/panels/tour_card.h"

#include <algorithm>
#include <filesystem>
#include <string>

#include "session/tour_text.h"
#include "ui/widgets/theme.h"

namespace ui {
namespace {

const PanelRect* panel_of(const std::string& name, const Layout& layout) {
    if (name == "photo") return &layout.photo;
    if (name == "heads") return &layout.heads;
    if (name == "inside") return &layout.math;
    return nullptr;
}

// Wraps at spaces only: ImGui's own wrapping also breaks after a '.', which
// splits numbers ("0." / "2%").
void paragraph(const std::string& text) {
    const float width = ImGui::GetContentRegionAvail().x;
    const float space = ImGui::CalcTextSize(" ").x;
    std::string line;
    float line_width = 0;
    size_t from = 0;
    while (from < text.size()) {
        size_t to = text.find(' ', from);
        if (to == std::string::npos) to = text.size();
        const std::string word = text.substr(from, to - from);
        const float w = ImGui::CalcTextSize(word.c_str()).x;
        if (!line.empty() && line_width + space + w > width) {
            ImGui::TextUnformatted(line.c_str());
            line.clear();
            line_width = 0;
        }
        line_width += (line.empty() ? 0 : space) + w;
        line += (line.empty() ? "" : " ") + word;
        from = to + 1;
    }
    if (!line.empty()) ImGui::TextUnformatted(line.c_str());
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
        auto centre_of_last = [&](const char* name) {
            const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
            buttons.push_back({name, (lo.x + hi.x) * 0.5f, (lo.y + hi.y) * 0.5f});
        };
        const bool take = ImGui::Button("Take the tour");
        centre_of_last("take");
        ImGui::SameLine();
        const bool not_now = ImGui::Button("Not now");
        centre_of_last("not now");
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
    ImGui::SameLine();
    if (ImGui::Button("Exit the tour")) f.emit(ExitTour{});
    ImGui::SameLine();
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

    // The card sits over the lower part of a panel the step does not talk about.
    const PanelRect& host = shown == &layout.photo ? layout.heads : layout.photo;
    const float width = std::min(host.size.x - f.px(24), f.px(460));
    ImGui::SetNextWindowPos(ImVec2(host.pos.x + f.px(12), host.pos.y + host.size.y - f.px(12)), ImGuiCond_Always,
                            ImVec2(0.f, 1.f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, host.size.y * 0.8f));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.10f, 0.12f, 0.16f, 0.97f));
    ImGui::PushStyleColor(ImGuiCol_Border, colors::accent);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, f.px(2));
    constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                                       ImGuiWindowFlags_NoFocusOnAppearing;
    if (ImGui::Begin("##tour", nullptr, flags)) {
        ImGui::TextColored(colors::muted, "%s · step %d of %d", tour.title.c_str(), i + 1, n);
        ImGui::PushFont(f.fonts.title);
        ImGui::TextWrapped("%s", step.title.c_str());
        ImGui::PopFont();
        bool left_out = false;
        for (const std::string& text : session::shown_tour_text(s, &left_out)) {
            ImGui::Spacing();
            paragraph(text);
        }
        if (left_out) {
            ImGui::Spacing();
            ImGui::PushStyleColor(ImGuiCol_Text, colors::muted);
            ImGui::TextWrapped("This tour's examples refer to %s at the model's own input size; the sentences that "
                               "name a part of that photo are left out here.", tour.photo.c_str());
            ImGui::PopStyleColor();
            if (!f.still && !s.photos_dir.empty() && ImGui::SmallButton(("Open " + tour.photo).c_str())) {
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
