#include "ui/panels/tour_card.h"

#include <algorithm>
#include <array>
#include <cfloat>
#include <imgui_internal.h>  // the card's height on the frame before
#include <filesystem>
#include <string>
#include <vector>

#include "session/tour/tour_text.h"
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

// The widest panel the step does not talk about (the heads column is too
// narrow for sentences in classroom type). Classroom mode: always under the
// math step, never over the photo, which the class must see at every step.
PanelRect Layout::*card_host(const Frame& f, const std::string& step_panel, const Layout& layout) {
    if (f.s.classroom) return &Layout::math;
    const PanelRect* shown = panel_of(step_panel, layout);
    PanelRect Layout::*host = &Layout::photo;
    for (PanelRect Layout::*r : {&Layout::photo, &Layout::math, &Layout::heads})
        if (&(layout.*r) != shown && (&(layout.*host) == shown || (layout.*r).size.x > (layout.*host).size.x)) host = r;
    return host;
}

// The card never takes more than this share of its column: the panel above keeps the rest. Classroom
// mode's card is its key sentence unless H opens it, and that sentence (in large type, in the narrow
// math column at 1024 px) must fit whole: it may take more.
constexpr float kCardShare = 0.55f, kClassroomCardShare = 0.75f;
constexpr const char* kCardWindow = "##tour";

// The height the card's sentences take, as drawn below.
float paragraphs_height(const std::vector<std::string>& paragraphs, const ImFont* font, float width) {
    const float gap = ImGui::GetStyle().ItemSpacing.y;
    float h = 0;
    for (const std::string& p : paragraphs) h += gap + wrapped_lines(p, font, width).size() * (drawn_size(font) + gap);
    return h;
}

void highlight(const Frame& f, const PanelRect& r) {
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    const float inset = f.px(3);
    dl->AddRect(ImVec2(r.pos.x + inset, r.pos.y + inset),
                ImVec2(r.pos.x + r.size.x - inset, r.pos.y + r.size.y - inset), ImGui::GetColorU32(colors::accent),
                f.px(6), 0, f.px(4));
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
        ImGui::TextWrapped(
            "A short guided tour follows one patch of this photo through attention: its query, "
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
        if (take || not_now) {
            f.emit(session::act::AnswerTourOffer{});
            if (take) f.emit(session::cmd::OpenTour{""});
        } else if (!ImGui::IsWindowAppearing()) {  // laid out before its size is known, it moves on the next frame
            f.drawn.tour_offer_buttons = std::move(buttons);
        }
    }
    ImGui::End();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
}

// The card's buttons, left to right; the key hint follows them.
std::array<const char*, 4> button_labels(const session::AppState& s, int i, int n) {
    return {"Back", i + 1 < n ? "Next" : "Finish", "Exit the tour",
            s.tour.text_folded ? "Show text (H)" : "Hide text (H)"};
}
const std::vector<const char*> kKeys = {"←", "→", "Esc"};

// Rows the buttons and the key hint below take in this width, placed as
// navigation() places them.
int navigation_rows(const Frame& f, int i, int n, float inner) {
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    std::vector<float> widths;
    for (const char* label : button_labels(f.s, i, n)) widths.push_back(button_width(label));
    widths.push_back(key_caps_width(kKeys));
    int rows = 1;
    float x = 0;
    for (float w : widths) {
        if (x > 0 && x + gap + w > inner) ++rows, x = 0;
        x += (x > 0 ? gap : 0) + w;
    }
    return rows;
}

// Back, Next (Finish on the last step), Exit, Hide (or Show) text.
void navigation(const Frame& f, int i, int n) {
    using namespace session::act;
    using namespace session::cmd;
    const auto [back, next, exit, fold] = button_labels(f.s, i, n);
    if (!f.s.tour.text_folded) {
        ImGui::Spacing();
        ImGui::Separator();
    }
    ImGui::BeginDisabled(i == 0);
    if (ImGui::Button(back)) f.emit(TourGo{i - 1});
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(next)) f.emit(i + 1 < n ? session::Action{TourGo{i + 1}} : session::Action{ExitTour{}});
    same_line_if_fits(button_width(exit));
    if (ImGui::Button(exit)) f.emit(ExitTour{});
    // The sentences folded away give the panel above the card their room (its maps grow back).
    same_line_if_fits(button_width(fold));
    if (ImGui::Button(fold)) f.emit(FoldTourText{!f.s.tour.text_folded});
    same_line_if_fits(key_caps_width(kKeys));
    key_caps(kKeys);
}

// The step's key sentence (the claim with its number), never scrolled, then
// the rest of its sentences (scrolling when the card would be taller than
// `most`, so that the buttons below them stay on the screen; folded away by
// H), and the note on those left out on another photo. Classroom mode: in
// the card's large type. Returns the key sentence's lines (x, y, w, h; empty: none).
std::vector<float> sentences(const Frame& f, const session::Tour& tour, float width, float most, int button_rows) {
    using namespace session::act;
    using namespace session::cmd;
    const session::AppState& s = f.s;
    const session::TourCardText card = session::tour_card_text(s);
    const ImGuiStyle& st = ImGui::GetStyle();
    const float text_w = width - 2 * st.WindowPadding.x - st.ScrollbarSize;
    std::vector<float> key_rect;
    if (!card.status.empty()) {  // what the step waits for, or why the file's patches are used: said first
        ImGui::PushStyleColor(ImGuiCol_Text, colors::muted);
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + text_w);
        ImGui::TextUnformatted(card.status.c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
    }
    if (!card.key.empty()) {
        ImGui::PushFont(s.classroom ? f.fonts.key : f.fonts.bold);
        ImGui::Spacing();
        const ImVec2 top = ImGui::GetCursorScreenPos();
        for (const std::string& line : wrapped_lines(card.key, ImGui::GetFont(), text_w))
            ImGui::TextUnformatted(line.c_str());
        key_rect = {top.x, top.y, text_w, ImGui::GetItemRectMax().y - top.y};
        ImGui::PopFont();
    }
    // A slide has the rest when it fits whole (it cannot scroll); its caption in index.html has them all.
    const bool rest = (!s.tour.text_folded || f.still) && !card.rest.empty();
    if (!rest) return key_rect;
    ImGui::PushFont(s.classroom ? f.fonts.large : ImGui::GetFont());
    const float below = (card.left_out ? 4 : 0) * ImGui::GetTextLineHeightWithSpacing() +
                        button_rows * ImGui::GetFrameHeightWithSpacing() + 3 * st.ItemSpacing.y + st.WindowPadding.y;
    const float room = most - ImGui::GetCursorPosY() - below;
    // At least a line of the rest (scrolled to); none where even that would push the buttons off the card.
    const float line = ImGui::GetTextLineHeightWithSpacing() + st.ItemSpacing.y;
    const float whole = paragraphs_height(card.rest, ImGui::GetFont(), text_w) + st.ItemSpacing.y;
    if (room < line || (f.still && whole > room && !card.key.empty())) {
        ImGui::PopFont();
        return key_rect;
    }
    const float text_h = std::min(whole, std::max(room, line));
    ImGui::BeginChild("##sentences", ImVec2(0, text_h));
    for (const std::string& text : card.rest) {
        ImGui::Spacing();
        for (const std::string& line : wrapped_lines(text, ImGui::GetFont(), text_w))
            ImGui::TextUnformatted(line.c_str());
    }
    ImGui::EndChild();
    ImGui::PopFont();
    if (card.left_out) {
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, colors::muted);
        ImGui::TextWrapped(
            "This tour's examples refer to %s at the model's own input size; the sentences that "
            "name a part of that photo are left out here.",
            bounded(tour.photo, 300).c_str());
        ImGui::PopStyleColor();
        if (!f.still && !s.photos_dir.empty() && ImGui::SmallButton(("Open " + bounded(tour.photo, 300)).c_str())) {
            f.emit(SetInputSize{0});
            f.emit(OpenImage{(std::filesystem::path(s.photos_dir) / tour.photo).string()});
        }
    }
    return key_rect;
}

}  // namespace

void dock_tour_card(const Frame& f, Layout& layout) {
    if (!f.s.tour.tour) return;
    const ImGuiWindow* card = ImGui::FindWindowByName(kCardWindow);
    if (!card || !card->WasActive) return;  // its first frame: docked from the next one on
    const session::TourStep& step = f.s.tour.tour->steps[f.s.tour.step];
    PanelRect& host = layout.*card_host(f, step.panel, layout);
    host.size.y = std::max(f.px(40), host.size.y - card->Size.y - f.px(12));
    host.scrolls = true;
}

void tour_card(const Frame& f, const Layout& layout) {
    const session::AppState& s = f.s;
    if (!s.tour_offered && !s.tour.tour && s.trace()) offer(f, layout);
    if (!s.tour.tour) return;
    using namespace session::act;
    using namespace session::cmd;
    const session::Tour& tour = *s.tour.tour;
    const int n = static_cast<int>(tour.steps.size()), i = s.tour.step;
    const session::TourStep& step = tour.steps[i];
    const PanelRect* shown = panel_of(step.panel, layout);
    if (shown) highlight(f, *shown);

    const PanelRect& host = layout.*card_host(f, step.panel, layout);
    const float width = std::min(host.size.x - f.px(24), f.px(720));
    const float most = std::floor(host.size.y * (s.classroom ? kClassroomCardShare : kCardShare)) - f.px(12);
    ImGui::SetNextWindowPos(ImVec2(host.pos.x + f.px(12), host.pos.y + host.size.y - f.px(6)), ImGuiCond_Always,
                            ImVec2(0.f, 1.f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, most));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, colors::card_bg);
    ImGui::PushStyleColor(ImGuiCol_Border, colors::accent);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, f.px(2));
    constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                                       ImGuiWindowFlags_NoFocusOnAppearing;
    if (ImGui::Begin(kCardWindow, nullptr, flags)) {
        char where[320];
        std::snprintf(where, sizeof where, "%s · step %d of %d", tour.title.c_str(), i + 1, n);
        if (!s.classroom) text_wrapped_at_spaces(colors::muted, where);
        ImGui::PushFont(f.fonts.title);
        ImGui::TextWrapped("%s", step.title.c_str());
        ImGui::PopFont();
        if (s.classroom) {
            // The projector's card: the step's place after its title, on its line when it fits.
            std::snprintf(where, sizeof where, "step %d of %d", i + 1, n);
            ImGui::PushFont(f.fonts.large);
            ImGui::SameLine();
            if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(where).x) ImGui::NewLine();
            ImGui::TextColored(colors::muted, "%s", where);
            ImGui::PopFont();
        }
        const std::vector<float> key =
            sentences(f, tour, width, most,
                      f.still ? 0 : navigation_rows(f, i, n, width - 2 * ImGui::GetStyle().WindowPadding.x));
        if (!f.still) navigation(f, i, n);
        const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        const std::vector<float> rect = {pos.x, pos.y, size.x, size.y};
        if (!f.still) f.drawn.tour_card = rect, f.drawn.tour_key = key;
    }
    ImGui::End();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(2);
}

}  // namespace ui
