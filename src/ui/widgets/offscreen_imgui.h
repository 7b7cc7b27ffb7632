// An ImGui context of its own (the window's may be mid-session) with the
// window's fonts and theme, rendering through ImGui's OpenGL backend into the
// current GL context, for pictures drawn offscreen (page figures, tour
// slides). The caller's ImGui context is current again afterwards.
#pragma once
#include <imgui.h>

#include "ui/widgets/fonts.h"
#include "ui/widgets/theme.h"

namespace ui {

class OffscreenImGui {
public:
    // font_size in logical pixels; density: framebuffer pixels per logical
    // pixel; theme: light for figures meant for print and slides; ui_scale:
    // the style's sizes (padding, spacing), as the window's UI scale.
    OffscreenImGui(float font_size, float density, Theme theme, float ui_scale = 1);
    ~OffscreenImGui();
    OffscreenImGui(const OffscreenImGui&) = delete;
    OffscreenImGui& operator=(const OffscreenImGui&) = delete;
    const Fonts& fonts() const { return fonts_; }

private:
    void release();
    ImGuiContext* previous_;
    ImGuiContext* context_;
    Palette previous_palette_;
    Fonts fonts_;
};

}  // namespace ui
