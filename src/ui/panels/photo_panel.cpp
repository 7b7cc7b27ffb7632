#include "ui/panels/photo_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "gfx/style_names.h"
#include "session/homework/live_exercise.h"
#include "session/core/shown_rows.h"
#include "ui/panels/exercise_panel.h"
#include "ui/panels/predict_bar.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/color_bar.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/input_size_control.h"
#include "ui/widgets/theme.h"
#include "vit/forward/token_name.h"

namespace ui {
namespace {

const char* kColormapLabels[] = {"viridis", "magma", "turbo"};

}  // namespace

void busy_overlay(const Frame& f, ImVec2 min, ImVec2 max) {
    const session::WorkProgress& w = f.s.work;
    if (!w.busy) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    char text[256];
    std::snprintf(text, sizeof text, "%s…  %.1f s", w.stage.empty() ? "Working" : w.stage.c_str(), w.seconds);
    const ImVec2 ts = ImGui::CalcTextSize(text);
    const float r = f.px(9), pad = f.px(12);
    const ImVec2 c((min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f);
    const ImVec2 box_min(c.x - ts.x * 0.5f - r - pad * 1.5f, c.y - ts.y * 0.5f - pad);
    const ImVec2 box_max(c.x + ts.x * 0.5f + r + pad * 1.5f, c.y + ts.y * 0.5f + pad);
    dl->AddRectFilled(box_min, box_max, IM_COL32(15, 16, 20, 220), f.px(6));
    // An arc that turns with time: the window is alive while the model works.
    const float a0 = static_cast<float>(ImGui::GetTime() * 6.0);
    const ImVec2 sc(box_min.x + pad + r, c.y);
    dl->PathArcTo(sc, r, a0, a0 + 4.2f, 24);
    dl->PathStroke(ImGui::GetColorU32(colors::accent), 0, f.px(2.5f));
    dl->AddText(ImVec2(sc.x + r + pad * 0.7f, c.y - ts.y * 0.5f), IM_COL32(230, 230, 230, 255), text);
}

void PhotoPanel::toolbar(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace* t = s.trace();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Query");
    ImGui::SameLine();
    ImGui::PushFont(f.fonts.bold);
    ImGui::PushStyleColor(ImGuiCol_Text, colors::accent);
    if (t) {
        // A narrow panel (classroom type at 1024 px, beside a scroll bar) drops the token's index.
        // Classroom mode keeps CLS and Predict on this line: the photo gets the line they would take.
        const std::string name = vit::token_name(*t, s.sel.query);
        const float buttons =
            s.classroom ? button_width("CLS (C)") + button_width("Predict") + 3 * ImGui::GetStyle().ItemSpacing.x : 0;
        ImGui::TextUnformatted(first_that_fits({name + " · token " + std::to_string(s.sel.query), name},
                                               ImGui::GetContentRegionAvail().x - buttons)
                                   .c_str());
    } else ImGui::TextUnformatted("—");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    same_line_if_fits(button_width("CLS (C)"));
    const bool live = session::live_exercise_on(s);  // the exercise sets the query
    ImGui::BeginDisabled(!t || s.sel.query == 0 || live);
    if (ImGui::SmallButton("CLS (C)")) f.emit(session::act::SelectQuery{0});
    ImGui::EndDisabled();
    tooltip("Make the CLS token the query: the token the classifier reads.");
    if (s.classroom && s.prediction.phase == session::AppState::Prediction::Phase::Off && !live) {
        same_line_if_fits(button_width("Predict"));
        predict_bar(f);
    }

    // The map chooser, on the same line when it fits.
    const ImGuiStyle& st = ImGui::GetStyle();
    const float combo_w = f.px(52);
    const float map_w = ImGui::CalcTextSize("Map").x + check_width("head") + combo_w +
                        check_width("mean of visible (M)") + 3 * st.ItemSpacing.x + f.px(16);
    same_line_if_fits(map_w);
    if (ImGui::GetCursorPosX() > st.WindowPadding.x + 1) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + f.px(16));
    ImGui::BeginDisabled(live);  // the exercise's head is the map
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Map");
    ImGui::SameLine();
    const bool head = s.sel.source == session::MapSource::Head;
    if (ImGui::RadioButton("head", head)) f.emit(session::act::SetMapSource{session::MapSource::Head});
    ImGui::SameLine();
    ImGui::SetNextItemWidth(combo_w);
    int h = s.sel.head;
    if (ImGui::BeginCombo("##head", std::to_string(h).c_str())) {
        for (int i = 0; i < s.heads(); ++i)
            if (ImGui::Selectable(std::to_string(i).c_str(), i == h)) f.emit(session::act::SetHead{i});
        ImGui::EndCombo();
    }
    // Classroom mode: "mean (M)" where the whole name would take a line of its own.
    const char* mean = s.classroom && check_width("mean of visible (M)") >
                                          ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x
                           ? "mean (M)###mean"
                           : "mean of visible (M)###mean";
    same_line_if_fits(check_width(mean));
    if (ImGui::RadioButton(mean, !head)) f.emit(session::act::SetMapSource{session::MapSource::MeanOfVisible});
    tooltip("The average of the weights of the heads shown in the middle panel.");
    ImGui::EndDisabled();
    // The input size and the grid are for the explorer; the projector shows the photo instead.
    if (s.classroom) return;

    // The input size on a line of its own: a line that wraps or not with the query's name would move the photo.
    input_size_control(f);
    if (t) {
        char grid[96];
        std::snprintf(grid, sizeof grid, "%d × %d patches of %d px · %d tokens", t->grid, t->grid,
                      s.loaded.model->patch, t->tokens);
        same_line_if_fits(ImGui::CalcTextSize(grid).x);
        text_wrapped_at_spaces(colors::muted, grid);
    }
}

void PhotoPanel::photo(const Frame& f, const MapData* map, ImVec2 size, QuestionView* page) {
    const session::AppState& s = f.s;
    const vit::Trace* t = s.trace();
    // Centre the photo in the panel's width.
    const float avail = ImGui::GetContentRegionAvail().x;
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.f, (avail - size.x) * 0.5f));
    const gfx::Marks marks = t ? marks_for(*t, s.sel.query, s.sel.hovered_key, s.sel.pinned_key) : gfx::Marks{};
    const MapHit hit = view_.show(f, "##photo", map, marks, size);

    // The state file reports where the photo is, so a test can click a patch.
    f.drawn.image_view = {hit.min.x, hit.min.y, size.x, size.y};

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const vit::Image* im = s.loaded.image.get();
    if (im && t) {
        // The model's input square, outlined and named.
        const vit::CropRect& c = s.loaded.crop;
        const float sx = size.x / im->width, sy = size.y / im->height;
        const ImVec2 a(hit.min.x + c.x * sx, hit.min.y + c.y * sy), b(a.x + c.w * sx, a.y + c.h * sy);
        dl->AddRect(a, b, IM_COL32(255, 214, 90, 220), 0, 0, f.px(1.5f));
        // The longest name that fits the square (small photos on narrow panels: the grid alone).
        const std::string grid = std::to_string(t->grid) + "×" + std::to_string(t->grid);
        const std::string name =
            first_that_fits({"model input: " + grid + " patches", "input: " + grid, grid}, b.x - a.x - f.px(10));
        const char* label = name.c_str();
        const ImVec2 ls = ImGui::CalcTextSize(label);
        const ImVec2 lp(a.x + f.px(4), a.y > hit.min.y + ls.y + f.px(4) ? a.y - ls.y - f.px(2) : a.y + f.px(3));
        dl->AddRectFilled(ImVec2(lp.x - f.px(3), lp.y - f.px(1)), ImVec2(lp.x + ls.x + f.px(3), lp.y + ls.y + f.px(1)),
                          IM_COL32(0, 0, 0, 150), f.px(3));
        dl->AddText(lp, IM_COL32(255, 214, 90, 255), label);
        const ImVec2 cell((b.x - a.x) / t->grid, (b.y - a.y) / t->grid);
        if (page) page->draw_on_photo(f, PhotoGrid{a, cell});
        draw_marked_patches(f, *t, a, cell);
        draw_live_answer(f, *t, a, cell);
    }
    busy_overlay(f, hit.min, hit.max);

    if (!t) return;
    // Hover is reported every frame it lasts; the window clears it when nobody reports one.
    if (hit.hovered) f.emit(session::act::HoverKey{hit.token});
    if (hit.hovered && hit.token >= 0) {
        const bool marking = maps_hidden(s);             // predicting: a click marks the patch instead
        const bool live = session::live_exercise_on(s);  // a click answers the exercise, or does nothing
        if (hit.clicked && live) {
            if (auto answer = live_photo_click(s, hit.token)) f.emit(*answer);
        } else if (hit.clicked) {
            f.emit(marking ? session::Action{session::act::ToggleMark{hit.token}}
                           : session::Action{session::act::SelectQuery{hit.token}});
        }
        if (hit.right_clicked && !live) f.emit(session::act::PinKey{hit.token});
        const float w = map ? map->patches[static_cast<size_t>(hit.row * t->grid + hit.col)] : 0.f;
        ImGui::BeginTooltip();
        ImGui::PushFont(f.fonts.bold);
        ImGui::Text("patch (%d, %d) · token %d", hit.row, hit.col, hit.token);
        ImGui::PopFont();
        if (map) ImGui::Text("weight from the query: %.4f", w);
        ImGui::TextColored(colors::muted, "%s",
                           live      ? live_photo_click_hint(s)
                           : marking ? "click: mark or unmark it as a prediction"
                                     : "click: make it the query · right-click: pin it as key j");
        ImGui::EndTooltip();
    }
}

namespace {

// The colour bar, and the tokens not on the photo beside it when both fit
// (narrow panels, classroom type: below it).
struct LegendLayout {
    float bar_width;
    bool beside;
    float height;
};

LegendLayout legend_layout(const Frame& f, const MapData& map, float avail) {
    const float text_line = ImGui::GetTextLineHeightWithSpacing(), bar_h = f.px(14) + text_line;
    const int prefix = static_cast<int>(map.prefix.size());
    ImGui::PushFont(f.fonts.mono);
    const float token_w = ImGui::CalcTextSize("CLS   0.0000").x * (prefix > 2 ? 2 : 1) + f.px(16);
    ImGui::PopFont();
    const float tokens_w = std::max(ImGui::CalcTextSize("Not on the photo:").x, token_w);
    const float beside_w = std::min({avail * 0.55f, f.px(420), avail - tokens_w - f.px(20)});
    const float tokens_h = (1 + prefix) * text_line;
    if (beside_w >= f.px(120)) return {beside_w, true, std::max(bar_h, tokens_h)};
    return {std::min(avail, f.px(420)), false, bar_h + tokens_h};
}

}  // namespace

void PhotoPanel::legend(const Frame& f, const MapData& map) {
    const vit::Trace* t = f.s.trace();
    const LegendLayout at = legend_layout(f, map, ImGui::GetContentRegionAvail().x);
    ImGui::BeginGroup();
    color_bar(f, map, at.bar_width, "attention weight");
    ImGui::EndGroup();
    if (at.beside) ImGui::SameLine(0, f.px(20));
    ImGui::BeginGroup();
    ImGui::TextColored(colors::muted, "Not on the photo:");
    ImGui::PushFont(f.fonts.mono);
    // CLS (and DeiT's distillation token) one to a line; registers two to a line.
    const int first_register = t ? 1 + t->dist_tokens : static_cast<int>(map.prefix.size());
    for (size_t i = 0; i < map.prefix.size(); ++i) {
        const int token = static_cast<int>(i);
        if (token > first_register && (token - first_register) % 2 == 1) ImGui::SameLine(0, f.px(16));
        ImGui::Text("%-5s %.4f", t ? vit::token_name(*t, token).c_str() : "", map.prefix[i]);
    }
    ImGui::PopFont();
    ImGui::EndGroup();
    tooltip("Weights on tokens that are not patches: they have no place on the photo.");
}

void PhotoPanel::style_controls(const Frame& f) {
    gfx::OverlayStyle st = f.s.style;
    bool changed = false;
    const float w = f.px(100), gap = ImGui::GetStyle().ItemInnerSpacing.x;
    auto labelled = [&](const char* label, float item_w) { return item_w + gap + ImGui::CalcTextSize(label).x; };

    ImGui::SetNextItemWidth(w);
    int cm = st.colormap == gfx::Colormap::Diverging ? 0 : static_cast<int>(st.colormap);
    if (ImGui::Combo("colormap", &cm, kColormapLabels, 3)) st.colormap = static_cast<gfx::Colormap>(cm), changed = true;
    same_line_if_fits(labelled("scale", w * 1.4f));
    ImGui::SetNextItemWidth(w * 1.4f);
    int nm = static_cast<int>(st.normalization);
    if (ImGui::Combo("scale", &nm, gfx::kNormalizationLabels, 3))
        st.normalization = static_cast<gfx::Normalization>(nm), changed = true;
    tooltip(
        "How a weight becomes a colour: relative to the row's largest patch weight, on the absolute 0..1 scale, "
        "or logarithmically (small weights become visible).");
    same_line_if_fits(labelled("opacity", w));
    ImGui::SetNextItemWidth(w);
    if (ImGui::SliderFloat("opacity", &st.opacity, 0.f, 1.f, "%.2f")) changed = true;
    same_line_if_fits(check_width("fade"));
    if (ImGui::Checkbox("fade", &st.fade)) changed = true;
    tooltip("Opacity follows the weight: weak patches leave the photo visible. Off: one opacity for every patch.");
    same_line_if_fits(check_width("smooth"));
    if (ImGui::Checkbox("smooth", &st.bilinear)) changed = true;
    tooltip("Bilinear between patch centres; off shows each patch as the one value it has.");
    same_line_if_fits(check_width("grid"));
    if (ImGui::Checkbox("grid", &st.show_grid)) changed = true;
    if (changed) f.emit(session::act::SetStyle{st});
}

void PhotoPanel::classes(const Frame& f) {
    const auto& top = f.s.loaded.top5;
    if (top.empty()) return;
    ImGui::PushFont(f.fonts.bold);
    ImGui::TextUnformatted("What the model sees (top-5 classes)");
    ImGui::PopFont();
    const float bar_w = std::min(ImGui::GetContentRegionAvail().x * 0.35f, f.px(220));
    for (const vit::ClassScore& c : top) {
        char pct[32];
        std::snprintf(pct, sizeof pct, "%.1f %%", 100.0 * c.probability);
        ImGui::ProgressBar(c.probability, ImVec2(bar_w, 0), pct);
        ImGui::SameLine();
        ImGui::Text("%s", bounded(c.label).c_str());
    }
}

void PhotoPanel::draw(const Frame& f, QuestionView* page) {
    const session::AppState& s = f.s;
    error_banner(f);
    toolbar(f);
    if (s.classroom && s.prediction.phase != session::AppState::Prediction::Phase::Off) predict_bar(f);
    if (s.sweep_path.recording) {
        ImGui::TextColored(colors::accent,
                           "Recording a sweep path: %zu patch%s. Click patches in order, then File > "
                           "Export sweep (GIF).",
                           s.sweep_path.tokens.size(), s.sweep_path.tokens.size() == 1 ? "" : "es");
        ImGui::SameLine();
        if (ImGui::SmallButton("Stop")) f.emit(session::act::RecordSweepPath{false});
    }

    std::optional<MapData> map;
    if (const vit::Trace* t = s.trace())
        if (auto row = shown_row(s, s.sel.layer); row && !maps_hidden(s)) map = weights_map(*t, *row, s.style);

    // The photo takes what the caption, legend, controls and classes below leave.
    const float line = ImGui::GetFrameHeightWithSpacing();
    // Classroom mode: a caption one line long where it can be.
    const std::string caption =
        map ? shown_caption(s, s.sel.layer) +
                  (s.classroom ? " · weights aᵢⱼ" : " · softmax weights aᵢⱼ of query i over the patches")
        : !s.trace()                           ? ""
        : session::live_exercise_hides_maps(s) ? "Map hidden on purpose: it would give the exercise's answer away."
        : maps_hidden(s)                       ? "The map is hidden until Reveal."
                                               : "No heads visible: click head thumbnails to show them.";
    ImVec2 avail = ImGui::GetContentRegionAvail();
    const float caption_h = ImGui::CalcTextSize(caption.c_str(), nullptr, false, avail.x).y;
    const float legend_h = map ? legend_layout(f, *map, avail.x).height : 0;
    // Classroom mode leaves out the style controls and the classes: the photo gets their room.
    const float rest = s.classroom ? 0 : line * (s.loaded.top5.empty() ? 2.f : 7.7f);
    const float below = caption_h + legend_h + rest + 3 * ImGui::GetStyle().ItemSpacing.y;
    avail.y = std::max(f.px(80), avail.y - below);
    photo(f, map ? &*map : nullptr, fit_photo(s, avail), page);

    ImGui::Spacing();
    ImGui::PushTextWrapPos(0);  // narrow panels (classroom type): the caption wraps between words
    ImGui::TextColored(colors::muted, "%s", caption.c_str());
    ImGui::PopTextWrapPos();
    if (map) legend(f, *map);
    if (s.classroom) return;
    style_controls(f);
    ImGui::Separator();
    classes(f);
}

}  // namespace ui
