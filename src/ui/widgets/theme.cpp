#include "ui/widgets/theme.h"

namespace ui {
namespace {

// Function-local statics (ImVec4 has no constexpr constructor): made on first use,
// so detail::shown may be initialised from them in any order.
const Palette& dark_palette() {
    static const Palette p{
        .accent = {0.35f, 0.65f, 1.00f, 1.f},
        .pinned = {1.00f, 0.62f, 0.05f, 1.f},  // as the shader draws the pinned key
        .muted = {0.66f, 0.68f, 0.72f, 1.f},
        .strong = {0.97f, 0.97f, 0.92f, 1.f},
        .error = {1.00f, 0.42f, 0.38f, 1.f},
        .ok = {0.45f, 0.85f, 0.50f, 1.f},
        .whatif = {1.00f, 0.66f, 0.20f, 1.f},
        .whatif_bg = {0.36f, 0.22f, 0.05f, 1.f},
        .error_bg = {0.35f, 0.09f, 0.08f, 1.f},
        .error_text = {1.00f, 0.85f, 0.82f, 1.f},
        .card_bg = {0.10f, 0.12f, 0.16f, 1.f},
        .bar_bg = {0.14f, 0.145f, 0.16f, 1.f},
        .series = {{0.62f, 0.64f, 0.68f, 1.f},
                   {0.35f, 0.65f, 1.00f, 1.f},
                   {0.45f, 0.85f, 0.50f, 1.f},
                   {1.00f, 0.66f, 0.20f, 1.f},
                   {0.85f, 0.35f, 0.75f, 1.f}},
    };
    return p;
}

// Darker hues of the same colours: on white, orange and green need to be
// deep to be read (the pinned key's orange stays the shader's on the photo).
const Palette& light_palette() {
    static const Palette p{
        .accent = {0.05f, 0.35f, 0.75f, 1.f},
        .pinned = {0.68f, 0.32f, 0.00f, 1.f},
        .muted = {0.30f, 0.32f, 0.36f, 1.f},
        .strong = {0.05f, 0.06f, 0.10f, 1.f},
        .error = {0.75f, 0.10f, 0.10f, 1.f},
        .ok = {0.08f, 0.45f, 0.12f, 1.f},
        .whatif = {0.62f, 0.30f, 0.00f, 1.f},
        .whatif_bg = {1.00f, 0.90f, 0.76f, 1.f},
        .error_bg = {1.00f, 0.87f, 0.85f, 1.f},
        .error_text = {0.45f, 0.05f, 0.05f, 1.f},
        .card_bg = {0.93f, 0.95f, 0.99f, 1.f},
        .bar_bg = {0.90f, 0.90f, 0.91f, 1.f},
        .series = {{0.33f, 0.35f, 0.39f, 1.f},
                   {0.05f, 0.35f, 0.75f, 1.f},
                   {0.08f, 0.45f, 0.16f, 1.f},
                   {0.70f, 0.33f, 0.00f, 1.f},
                   {0.60f, 0.10f, 0.50f, 1.f}},
    };
    return p;
}

void dark_colors(ImVec4* c) {
    ImGui::StyleColorsDark();
    c[ImGuiCol_TextDisabled] = ImVec4(0.60f, 0.62f, 0.66f, 1.f);  // ImGui's 0.5 grey reads 4.3:1 here, under WCAG AA
    c[ImGuiCol_WindowBg] = ImVec4(0.105f, 0.110f, 0.120f, 1.f);
    c[ImGuiCol_PopupBg] = ImVec4(0.13f, 0.135f, 0.15f, 0.98f);
    c[ImGuiCol_TitleBg] = ImVec4(0.16f, 0.17f, 0.19f, 1.f);
    c[ImGuiCol_TitleBgActive] = ImVec4(0.16f, 0.17f, 0.19f, 1.f);
    c[ImGuiCol_MenuBarBg] = ImVec4(0.14f, 0.145f, 0.16f, 1.f);
    c[ImGuiCol_Border] = ImVec4(0.24f, 0.25f, 0.28f, 1.f);
    c[ImGuiCol_FrameBg] = ImVec4(0.19f, 0.20f, 0.23f, 1.f);
    c[ImGuiCol_FrameBgHovered] = ImVec4(0.25f, 0.27f, 0.31f, 1.f);
    c[ImGuiCol_FrameBgActive] = ImVec4(0.28f, 0.31f, 0.36f, 1.f);
    c[ImGuiCol_Button] = ImVec4(0.21f, 0.23f, 0.27f, 1.f);
    c[ImGuiCol_ButtonHovered] = ImVec4(0.27f, 0.36f, 0.50f, 1.f);
    c[ImGuiCol_ButtonActive] = ImVec4(0.25f, 0.45f, 0.70f, 1.f);
    c[ImGuiCol_Header] = ImVec4(0.22f, 0.28f, 0.38f, 1.f);
    c[ImGuiCol_HeaderHovered] = ImVec4(0.27f, 0.36f, 0.50f, 1.f);
    c[ImGuiCol_HeaderActive] = ImVec4(0.25f, 0.45f, 0.70f, 1.f);
    c[ImGuiCol_SliderGrab] = ImVec4(0.35f, 0.65f, 1.00f, 1.f);
    c[ImGuiCol_SliderGrabActive] = ImVec4(0.50f, 0.75f, 1.00f, 1.f);
    c[ImGuiCol_CheckMark] = ImVec4(0.45f, 0.72f, 1.00f, 1.f);
    c[ImGuiCol_Tab] = ImVec4(0.17f, 0.18f, 0.21f, 1.f);
    c[ImGuiCol_TabHovered] = ImVec4(0.27f, 0.36f, 0.50f, 1.f);
    c[ImGuiCol_TabActive] = ImVec4(0.23f, 0.33f, 0.48f, 1.f);
    c[ImGuiCol_Separator] = ImVec4(0.24f, 0.25f, 0.28f, 1.f);
    c[ImGuiCol_TableHeaderBg] = ImVec4(0.17f, 0.18f, 0.21f, 1.f);
    c[ImGuiCol_TableRowBgAlt] = ImVec4(1.f, 1.f, 1.f, 0.03f);
}

void light_colors(ImVec4* c) {
    ImGui::StyleColorsLight();
    c[ImGuiCol_Text] = ImVec4(0.06f, 0.07f, 0.09f, 1.f);
    c[ImGuiCol_TextDisabled] = ImVec4(0.38f, 0.40f, 0.44f, 1.f);
    c[ImGuiCol_WindowBg] = ImVec4(0.985f, 0.985f, 0.98f, 1.f);
    c[ImGuiCol_PopupBg] = ImVec4(1.f, 1.f, 1.f, 0.99f);
    c[ImGuiCol_TitleBg] = ImVec4(0.90f, 0.91f, 0.93f, 1.f);
    c[ImGuiCol_TitleBgActive] = ImVec4(0.90f, 0.91f, 0.93f, 1.f);
    c[ImGuiCol_MenuBarBg] = ImVec4(0.92f, 0.92f, 0.93f, 1.f);
    c[ImGuiCol_Border] = ImVec4(0.76f, 0.77f, 0.80f, 1.f);
    c[ImGuiCol_FrameBg] = ImVec4(0.90f, 0.91f, 0.93f, 1.f);
    c[ImGuiCol_FrameBgHovered] = ImVec4(0.84f, 0.88f, 0.95f, 1.f);
    c[ImGuiCol_FrameBgActive] = ImVec4(0.78f, 0.85f, 0.96f, 1.f);
    c[ImGuiCol_Button] = ImVec4(0.87f, 0.89f, 0.92f, 1.f);
    c[ImGuiCol_ButtonHovered] = ImVec4(0.78f, 0.85f, 0.96f, 1.f);
    c[ImGuiCol_ButtonActive] = ImVec4(0.68f, 0.79f, 0.95f, 1.f);
    c[ImGuiCol_Header] = ImVec4(0.80f, 0.86f, 0.96f, 1.f);
    c[ImGuiCol_HeaderHovered] = ImVec4(0.74f, 0.82f, 0.95f, 1.f);
    c[ImGuiCol_HeaderActive] = ImVec4(0.68f, 0.79f, 0.95f, 1.f);
    c[ImGuiCol_SliderGrab] = ImVec4(0.05f, 0.35f, 0.75f, 1.f);
    c[ImGuiCol_SliderGrabActive] = ImVec4(0.03f, 0.28f, 0.62f, 1.f);
    c[ImGuiCol_CheckMark] = ImVec4(0.05f, 0.35f, 0.75f, 1.f);
    c[ImGuiCol_Tab] = ImVec4(0.88f, 0.89f, 0.92f, 1.f);
    c[ImGuiCol_TabHovered] = ImVec4(0.78f, 0.85f, 0.96f, 1.f);
    c[ImGuiCol_TabActive] = ImVec4(0.74f, 0.82f, 0.95f, 1.f);
    c[ImGuiCol_Separator] = ImVec4(0.76f, 0.77f, 0.80f, 1.f);
    c[ImGuiCol_TableHeaderBg] = ImVec4(0.90f, 0.91f, 0.93f, 1.f);
    c[ImGuiCol_TableRowBgAlt] = ImVec4(0.f, 0.f, 0.f, 0.03f);
}

}  // namespace

const Palette& palette(Theme theme) { return theme == Theme::Light ? light_palette() : dark_palette(); }

void apply_theme(Theme theme, float scale) {
    ImGuiStyle& st = ImGui::GetStyle();
    if (theme == Theme::Light) light_colors(st.Colors);
    else dark_colors(st.Colors);
    st.Colors[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);  // no second fill over the window: llvmpipe pays per pixel
    detail::shown = palette(theme);
    st.WindowRounding = 0;
    st.FrameRounding = 3;
    st.GrabRounding = 3;
    st.TabRounding = 3;
    st.WindowBorderSize = 1;
    st.FrameBorderSize = 0;
    st.WindowPadding = ImVec2(10, 8);
    st.FramePadding = ImVec2(6, 3);
    st.ItemSpacing = ImVec2(8, 5);
    st.ItemInnerSpacing = ImVec2(5, 4);
    st.ScrollbarSize = 12;
    st.WindowTitleAlign = ImVec2(0.0f, 0.5f);
    st.ScaleAllSizes(scale);
}

}  // namespace ui
