#include "ui/widgets/theme.h"

namespace ui {

void apply_theme(float scale) {
    ImGui::StyleColorsDark();
    ImGuiStyle& st = ImGui::GetStyle();
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
    ImVec4* c = st.Colors;
    c[ImGuiCol_WindowBg] = ImVec4(0.105f, 0.110f, 0.120f, 1.f);
    c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);  // no second fill over the window: llvmpipe pays per pixel
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
    st.ScaleAllSizes(scale);
}

}  // namespace ui
