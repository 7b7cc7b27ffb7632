#include "ui/widgets/map_card.h"

#include <algorithm>
#include <string>

#include "ui/widgets/color_bar.h"
#include "vit/forward/token_name.h"

namespace ui {

float caption_height(std::initializer_list<const char*> texts, float width) {
    float h = 0;
    for (const char* t : texts) h = std::max(h, ImGui::CalcTextSize(t, nullptr, false, width).y);
    return h;
}

MapHit map_card(const Frame& f, MapView& view, const char* id, const MapCaption& caption, const MapData& map,
                const gfx::Marks& marks, ImVec2 size, const MapPhoto* photo, const char* unit) {
    ImGui::BeginGroup();
    ImGui::PushID(id);
    const float top = ImGui::GetCursorPosY();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
    ImGui::TextColored(caption.colour, "%s", caption.text);
    ImGui::PopTextWrapPos();
    const float below = top + caption.height + ImGui::GetStyle().ItemSpacing.y;
    if (ImGui::GetCursorPosY() < below) ImGui::SetCursorPosY(below);
    const std::string map_id = std::string("##") + id;  // figures record the map's cells by this name
    const MapHit hit = view.show(f, map_id.c_str(), &map, marks, size, photo);
    color_bar(f, map, size.x, unit);
    ImGui::PopID();
    ImGui::EndGroup();
    return hit;
}

void weight_hover(const Frame& f, const MapHit& hit, const vit::Trace& t, const vit::Vec& row, const char* value_name,
                  bool clickable, const vit::Trace* original, const vit::PatchPermutation* back) {
    if (!hit.hovered || hit.token < 0) return;
    const int token = original && back ? vit::moved_token(*original, *back, hit.token) : hit.token;
    const std::string name = vit::token_name(original ? *original : t, token);
    f.emit(session::act::HoverKey{token});
    ImGui::SetTooltip("%s%s\n%s %.4f%s", original ? "here: the content of " : "", name.c_str(), value_name,
                      row[hit.token], clickable ? "\nclick: make it the query" : "");
    if (clickable && hit.clicked) f.emit(session::act::SelectQuery{token});
}

}  // namespace ui
