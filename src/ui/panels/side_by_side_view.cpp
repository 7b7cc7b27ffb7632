#include "ui/panels/side_by_side_view.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "session/classroom/side_by_side.h"
#include "ui/widgets/color_bar.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/map_data.h"
#include "ui/widgets/theme.h"
#include "vit/forward/token_name.h"

namespace ui {

void SideBySideView::pane_controls(const Frame& f, bool right) {
    const session::AppState& s = f.s;
    session::AppState::SidePane p = right ? s.side_by_side.right : s.side_by_side.left;
    bool changed = false;
    ImGui::PushID(right);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(right ? "Right:" : "Left:");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(f.px(150));
    changed |= ImGui::SliderInt("layer", &p.layer, 0, std::max(0, s.layers() - 1));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(f.px(110));
    changed |= ImGui::SliderInt("head", &p.head, 0, std::max(0, s.heads() - 1));
    if (s.compared.ready()) {
        ImGui::SameLine();
        changed |= ImGui::Checkbox("second photo", &p.second_photo);
    }
    ImGui::PopID();
    if (changed) f.emit(session::act::SetSidePane{right, p});
}

void SideBySideView::draw(const Frame& f, const PanelRect& area) {
    const session::AppState& s = f.s;
    ImGui::SetNextWindowPos(area.pos);
    ImGui::SetNextWindowSize(area.size);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (ImGui::Begin("Side by side", nullptr, flags)) {
        const vit::Trace* t = s.trace();
        if (ImGui::Button("Back to the panels")) f.emit(session::act::ShowSideBySide{false});
        ImGui::SameLine();
        ImGui::TextColored(colors::muted, "Query %s · both maps on one colour scale",
                           t ? vit::token_name(*t, s.sel.query).c_str() : "—");
        pane_controls(f, false);
        ImGui::SameLine(0, f.px(40));
        pane_controls(f, true);

        const auto top = session::side_by_side_scale(s);
        const float gap = f.px(16);
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const ImVec2 box((avail.x - gap) * 0.5f, avail.y - ImGui::GetFrameHeightWithSpacing() * 3.5f);
        MapData shown;
        for (bool right : {false, true}) {
            const session::AppState::SidePane& p = right ? s.side_by_side.right : s.side_by_side.left;
            const vit::Trace* pt = session::pane_trace(s, p);
            const auto row = session::pane_row(s, p);
            if (right) ImGui::SameLine(0, gap);
            ImGui::BeginGroup();
            char caption[160];
            std::snprintf(caption, sizeof caption, "%s · layer %d · head %d", p.second_photo ? "second photo" : "photo",
                          p.layer, p.head);
            ImGui::PushFont(f.fonts.bold);
            ImGui::TextUnformatted(caption);
            ImGui::PopFont();
            const MapPhoto photo = p.second_photo ? compared_photo(f) : loaded_photo(f);
            const int pw = photo.texture ? photo.texture->width() : 1, ph = photo.texture ? photo.texture->height() : 1;
            const ImVec2 size = fit_size(pw, ph, box);
            std::optional<MapData> map;
            if (row && top && pt) {
                gfx::OverlayStyle st = s.style;
                st.normalization = gfx::Normalization::Absolute;  // one scale: 0 to the shared top
                map = weights_map(*pt, *row, st);
                map->style.value_max = *top;
                shown = *map;
            }
            MapView& view = right ? right_ : left_;
            const MapHit hit = view.show(f, right ? "##right" : "##left", map ? &*map : nullptr,
                                         pt ? marks_for(*pt, s.sel.query, -1, -1) : gfx::Marks{}, size, &photo);
            if (hit.hovered && hit.token >= 0 && row) {
                ImGui::BeginTooltip();
                ImGui::Text("patch (%d, %d) · weight %.4f", hit.row, hit.col, (*row)[hit.token]);
                ImGui::EndTooltip();
            }
            ImGui::EndGroup();
        }
        if (top && shown.grid > 0) {
            color_bar(f, shown, std::min(avail.x * 0.5f, f.px(520)), "attention weight");
            ImGui::SameLine(0, f.px(20));
            ImGui::TextColored(colors::muted,
                               "One scale for both maps: 0 to %.4f, the larger of their largest patch "
                               "weights.",
                               *top);
        }
    }
    ImGui::End();
}

}  // namespace ui
