#include "ui/panels/heads_panel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "session/core/shown_rows.h"
#include "ui/panels/predict_bar.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/theme.h"

namespace ui {
namespace {

// Thumbnails: the person's colormap as a heatmap over the whole crop, each
// relative to its own strongest patch, the photo showing through faintly, no
// grid lines: at 40 px a faded map over a full-colour photo could not be read.
gfx::OverlayStyle thumb_style(const session::AppState& s) {
    gfx::OverlayStyle st = s.style;
    st.show_grid = false;
    st.fade = false;
    st.opacity = 0.85f;
    // Per thumbnail: the absolute scale would leave most of them dark.
    if (st.normalization == gfx::Normalization::Absolute) st.normalization = gfx::Normalization::RowMax;
    st.dim_outside = 0.25f;
    return st;
}

void outline_last(const Frame& f, ImVec4 colour, float thickness) {
    ImGui::GetWindowDrawList()->AddRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), ImGui::GetColorU32(colour), 0,
                                        0, f.px(thickness));
}

void dim_last(const char* text) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    dl->AddRectFilled(a, b, IM_COL32(10, 10, 12, 185));
    const ImVec2 ts = ImGui::CalcTextSize(text);
    dl->AddText(ImVec2((a.x + b.x - ts.x) * 0.5f, (a.y + b.y - ts.y) * 0.5f), IM_COL32(200, 200, 200, 255), text);
}

}  // namespace

void HeadsPanel::layer_slider(const Frame& f) {
    const session::AppState& s = f.s;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Layer");
    // The number beside the name, not inside the slider, where its handle would cover it.
    ImGui::SameLine();
    ImGui::PushFont(f.fonts.bold);
    ImGui::PushStyleColor(ImGuiCol_Text, colors::accent);
    ImGui::Text("%d", s.sel.layer);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    // The arrows and a slider, beside the name when they fit (else below it).
    same_line_if_fits(2 * ImGui::GetFrameHeight() + ImGui::GetStyle().GrabMinSize + f.px(40));
    if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) f.emit(session::act::StepLayer{-1});
    ImGui::SameLine(0, f.px(3));
    ImGui::SetNextItemWidth(std::max(f.px(24), ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() - f.px(6)));
    int layer = s.sel.layer;
    if (ImGui::SliderInt("##layer", &layer, 0, std::max(0, s.layers() - 1), "")) f.emit(session::act::SetLayer{layer});
    tooltip(
        "Which transformer block's attention to show (PageUp / PageDown). Early layers look at nearby "
        "patches and colours; later ones at objects and the whole image.");
    ImGui::SameLine(0, f.px(3));
    if (ImGui::ArrowButton("##next", ImGuiDir_Right)) f.emit(session::act::StepLayer{+1});
}

void HeadsPanel::head_strip(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const int heads = s.heads();
    heads_.resize(heads);

    // Classroom mode's strip: the heads in one row under the slider, no title or hint (the slider names the layer).
    const bool strip = f.s.classroom;
    if (!strip) {
        ImGui::PushFont(f.fonts.bold);
        ImGui::Text("Heads of layer %d", s.sel.layer);
        ImGui::PopFont();
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(colors::muted, "Click a head to show or hide it; ● inspects it in the math panel.");
        ImGui::PopTextWrapPos();
    }

    // As many per row as fit at a useful size, the mean last; the strip: all of them in one row.
    const float avail = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
    const int per_row =
        strip ? heads + 1 : std::clamp(static_cast<int>((avail + gap) / (f.px(56) + gap)), 1, heads + 1);
    const float w = std::floor((avail - gap * (per_row - 1)) / per_row);
    // The strip's thumbnails take its height, each with its label below.
    const float label_h = ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
    const float tall = strip ? std::floor(ImGui::GetContentRegionAvail().y - label_h) : w;
    const ImVec2 size = fit_photo(s, ImVec2(w, std::max(f.px(24), std::min(w, tall))));
    const gfx::Marks marks = marks_for(t, s.sel.query, -1, -1);
    const gfx::OverlayStyle style = thumb_style(s);

    std::vector<std::array<float, 4>> rects;  // for the state file: tests measure the thumbnails
    for (int h = 0; h <= heads; ++h) {
        if (h % per_row) ImGui::SameLine();
        ImGui::BeginGroup();
        ImGui::PushID(h);
        const bool is_mean = h == heads;
        const std::optional<vit::Vec> row =
            session::map_row(t, s.sel.layer, is_mean ? session::MapSource::MeanOfVisible : session::MapSource::Head, h,
                             s.sel.visible_heads(), s.sel.query);
        const MapData map = row ? weights_map(t, *row, style) : MapData{};
        MapView& view = is_mean ? mean_ : heads_[h];
        // While the class predicts, the thumbnails show the photo alone: their maps would give the answer away.
        const MapHit hit = view.show(f, "##thumb", row && !maps_hidden(s) ? &map : nullptr, marks, size);
        rects.push_back({hit.min.x, hit.min.y, size.x, size.y});
        const bool shown = is_mean ? s.sel.source == session::MapSource::MeanOfVisible
                                   : s.sel.source == session::MapSource::Head && s.sel.head == h;
        if (!is_mean && !s.sel.head_visible[h]) dim_last("hidden");
        if (shown) outline_last(f, colors::accent, 2.5f);
        if (hit.clicked) {
            if (is_mean) f.emit(session::act::SetMapSource{session::MapSource::MeanOfVisible});
            else f.emit(session::act::ToggleHeadVisible{h});
        }
        if (is_mean) {
            const int n = static_cast<int>(s.sel.visible_heads().size());
            ImGui::Text(check_width("mean of 00") > size.x ? "mean" : "mean of %d", n);
            tooltip("The average of the visible heads' weights. Click to show it on the photo.");
        } else {
            char label[32];
            std::snprintf(label, sizeof label, "head %d", h);
            if (check_width(label) > size.x) std::snprintf(label, sizeof label, "H%d", h);  // narrow thumbnails
            if (ImGui::RadioButton(label, s.sel.head == h && s.sel.source == session::MapSource::Head))
                f.emit(session::act::SetHead{h});
            tooltip("Show this head on the photo and explain it in the math panel.");
        }
        ImGui::PopID();
        ImGui::EndGroup();
    }
    f.drawn.head_thumbs = std::move(rects);
}

void HeadsPanel::layer_grid(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const int layers = s.layers(), heads = s.heads(), cols = heads + 1;
    grid_.resize(static_cast<size_t>(layers) * cols);

    ImGui::PushFont(f.fonts.bold);
    ImGui::TextUnformatted("Every layer and head, same query");
    ImGui::PopFont();
    ImGui::TextColored(colors::muted, "Click a cell to jump there.");

    // Cells fit both the width and the height left, keeping the photo's aspect.
    const float label_w = ImGui::CalcTextSize("L00").x + f.px(6);
    const float gap = f.px(2);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float header = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 cell_box((avail.x - label_w) / cols - gap, (avail.y - header) / layers - gap);
    const ImVec2 cell = fit_photo(s, ImVec2(std::max(8.f, cell_box.x), std::max(6.f, cell_box.y)));
    const gfx::Marks marks = marks_for(t, s.sel.query, -1, -1);
    const gfx::OverlayStyle style = thumb_style(s);
    const std::vector<int> visible = s.sel.visible_heads();

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float text_h = ImGui::GetTextLineHeight();
    auto centred_text = [&](ImVec2 box, ImVec4 colour, const char* text) {
        const ImVec2 p = ImGui::GetCursorScreenPos(), ts = ImGui::CalcTextSize(text);
        dl->AddText(ImVec2(p.x + (box.x - ts.x) * 0.5f, p.y + (box.y - ts.y) * 0.5f), ImGui::GetColorU32(colour), text);
        ImGui::Dummy(box);
    };
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(gap, gap));
    ImGui::Dummy(ImVec2(label_w - gap, text_h));
    char label[32];
    for (int h = 0; h < cols; ++h) {
        ImGui::SameLine();
        std::snprintf(label, sizeof label, h == heads ? "mean" : "H%d", h);
        centred_text(ImVec2(cell.x, text_h), colors::muted, label);
    }
    std::vector<std::array<float, 4>> rects;
    for (int l = 0; l < layers; ++l) {
        std::snprintf(label, sizeof label, "L%d", l);
        centred_text(ImVec2(label_w - gap, cell.y), l == s.sel.layer ? colors::accent : colors::muted, label);
        for (int h = 0; h < cols; ++h) {
            ImGui::SameLine();
            ImGui::PushID(l * cols + h);
            const bool is_mean = h == heads;
            const std::optional<vit::Vec> row =
                session::map_row(t, l, is_mean ? session::MapSource::MeanOfVisible : session::MapSource::Head, h,
                                 visible, s.sel.query);
            const MapData map = row ? weights_map(t, *row, style) : MapData{};
            const MapHit hit =
                grid_[static_cast<size_t>(l) * cols + h].show(f, "##cell", row ? &map : nullptr, marks, cell);
            rects.push_back({hit.min.x, hit.min.y, cell.x, cell.y});
            const bool current =
                l == s.sel.layer && (is_mean ? s.sel.source == session::MapSource::MeanOfVisible
                                             : s.sel.source == session::MapSource::Head && s.sel.head == h);
            if (current) outline_last(f, colors::accent, 2.f);
            else if (!is_mean && !s.sel.head_visible[h]) dim_last("");
            if (hit.clicked) {
                f.emit(session::act::SetLayer{l});
                if (is_mean) f.emit(session::act::SetMapSource{session::MapSource::MeanOfVisible});
                else f.emit(session::act::SetHead{h});
            }
            if (hit.hovered) {
                if (is_mean) ImGui::SetTooltip("layer %d · mean of the visible heads", l);
                else ImGui::SetTooltip("layer %d · head %d", l, h);
            }
            ImGui::PopID();
        }
    }
    ImGui::PopStyleVar();
    f.drawn.layer_grid = std::move(rects);
}

void HeadsPanel::draw(const Frame& f) {
    if (!f.s.trace()) {
        ImGui::TextColored(colors::muted, f.s.work.busy ? "Waiting for the model…"
                                                        : "No model has run yet: File › Open model… (Ctrl+M).");
        return;
    }
    if (f.s.classroom) {
        // The projector's strip: the layer on the left, its heads in a row beside it, large; no grid.
        constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
        const float slider_w = std::min(f.px(190), ImGui::GetContentRegionAvail().x * 0.3f);
        ImGui::BeginChild("##layer", ImVec2(slider_w, 0), false, kFixed);
        layer_slider(f);
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("##heads", ImVec2(0, 0), false, kFixed);
        head_strip(f);
        ImGui::EndChild();
        return;
    }
    layer_slider(f);
    ImGui::Separator();
    head_strip(f);
    ImGui::Spacing();
    ImGui::Separator();
    layer_grid(f);
}

}  // namespace ui
