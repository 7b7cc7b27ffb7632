// Captions above maps that stand side by side: each wraps in its map's width
// and takes the height of the row's tallest, so the maps line up.
#pragma once
#include <initializer_list>

#include <imgui.h>

namespace ui {

// The height of the tallest of `texts` wrapped in `width`.
float caption_height(std::initializer_list<const char*> texts, float width);

// Draws text wrapped in `width` and leaves the cursor `height` below where it began.
void map_caption(const char* text, float width, float height, ImVec4 colour = ImGui::GetStyleColorVec4(ImGuiCol_Text));

}  // namespace ui
