// Secondary text must stay readable on a projector and on paper: WCAG 2's
// contrast ratio of each theme's text colours against its window background,
// worked out here from the colours the theme sets (relative luminance of
// sRGB, https://www.w3.org/TR/WCAG21/#dfn-relative-luminance), at least 4.5:1
// (level AA for body text) in both themes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "ui/widgets/theme.h"

namespace {

double channel(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

double luminance(const ImVec4& c) { return 0.2126 * channel(c.x) + 0.7152 * channel(c.y) + 0.0722 * channel(c.z); }

// A colour with alpha over an opaque background, as the GPU blends it.
ImVec4 over(const ImVec4& fg, const ImVec4& bg) {
    const float a = fg.w;
    return ImVec4(fg.x * a + bg.x * (1 - a), fg.y * a + bg.y * (1 - a), fg.z * a + bg.z * (1 - a), 1.f);
}

double contrast(const ImVec4& a, const ImVec4& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

class ThemeContrast : public ::testing::TestWithParam<ui::Theme> {
protected:
    void SetUp() override { ImGui::CreateContext(); }
    void TearDown() override {
        ui::apply_theme(ui::Theme::Dark, 1);  // the palette is global: leave the default
        ImGui::DestroyContext();
    }
};

TEST_P(ThemeContrast, TextAgainstItsBackgroundsIsAtLeastAA) {
    ui::apply_theme(GetParam(), 1);
    const ImVec4* c = ImGui::GetStyle().Colors;
    const ui::Palette& p = ui::palette(GetParam());
    const ImVec4 window = c[ImGuiCol_WindowBg];
    const ImVec4 row_alt = over(c[ImGuiCol_TableRowBgAlt], window);  // every other table row
    const ImVec4 bar = p.bar_bg, card = over(p.card_bg, window);
    // The colours secondary text is drawn in, and where.
    std::vector<std::pair<std::string, std::pair<ImVec4, ImVec4>>> pairs = {
        {"muted on the window", {ui::colors::muted, window}},
        {"muted on a table's alternate row", {ui::colors::muted, row_alt}},
        {"muted on the status bar", {ui::colors::muted, bar}},
        {"muted on the tour card", {ui::colors::muted, card}},
        {"disabled text (colour bar ends) on the window", {c[ImGuiCol_TextDisabled], window}},
        {"text on the window", {c[ImGuiCol_Text], window}},
        {"text on a button", {c[ImGuiCol_Text], c[ImGuiCol_Button]}},
        {"text on a table header", {c[ImGuiCol_Text], c[ImGuiCol_TableHeaderBg]}},
        {"accent on the window", {ui::colors::accent, window}},
        {"what-if on the window", {ui::colors::whatif, window}},
        {"what-if on its badge", {ui::colors::whatif, p.whatif_bg}},
        {"error on the window", {ui::colors::error, window}},
        {"ok on the window", {ui::colors::ok, window}},
        {"equations on the window", {ui::colors::strong, window}},
        {"error banner text", {p.error_text, p.error_bg}},
    };
    // A plot's series: lines and dots, and their names in the legend and tables.
    for (int i = 0; i < 5; ++i)
        pairs.push_back({"plot series " + std::to_string(i) + " on the window", {ui::colors::series[i], window}});
    for (const auto& [what, colours] : pairs) {
        const double ratio = contrast(colours.first, colours.second);
        EXPECT_GE(ratio, 4.5) << what;
        std::printf("    %-48s %5.2f:1\n", what.c_str(), ratio);
    }
}

// Every colour a chart draws its data in (the series, and the accent and what-if colours the pages'
// dots, bars and fitted lines use, all opaque) keeps WCAG's 3:1 for graphics against the window, the
// tour's card and the white page exported figures are drawn on.
TEST_P(ThemeContrast, ChartColoursKeepThreeToOneAgainstEveryBackground) {
    ui::apply_theme(GetParam(), 1);
    const ImVec4 window = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    const ui::Palette& p = ui::palette(GetParam());
    const ImVec4 card = over(p.card_bg, window), page(1, 1, 1, 1);
    std::vector<std::pair<std::string, ImVec4>> colours = {{"accent", ui::colors::accent},
                                                           {"what-if", ui::colors::whatif}};
    for (int i = 0; i < 5; ++i) colours.push_back({"series " + std::to_string(i), ui::colors::series[i]});
    for (const auto& [name, c] : colours) {
        EXPECT_EQ(c.w, 1.f) << name << " is drawn opaque";
        for (const auto& [where, bg] : {std::pair{"window", window}, {"tour card", card}})
            EXPECT_GE(contrast(c, bg), 3.0) << name << " on the " << where;
        if (GetParam() == ui::Theme::Light) {
            EXPECT_GE(contrast(c, page), 3.0) << name << " on a figure's white page";
        }
    }
}

TEST_P(ThemeContrast, PanelsUseTheAppliedThemesColours) {
    ui::apply_theme(GetParam(), 1);
    const ui::Palette& p = ui::palette(GetParam());
    EXPECT_EQ(ui::colors::muted.x, p.muted.x);
    EXPECT_EQ(ui::colors::whatif.y, p.whatif.y);
    EXPECT_EQ(ui::colors::series[3].x, p.series[3].x);
    // Light means a light window and dark text; dark the reverse.
    const ImVec4* c = ImGui::GetStyle().Colors;
    const bool light = GetParam() == ui::Theme::Light;
    EXPECT_EQ(luminance(c[ImGuiCol_WindowBg]) > 0.5, light);
    EXPECT_EQ(luminance(c[ImGuiCol_Text]) > 0.5, !light);
}

// WCAG's own examples: black on white is 21:1, a colour on itself 1:1.
TEST(ThemeContrastFormula, MatchesTheStandardsEnds) {
    EXPECT_NEAR(contrast(ImVec4(0, 0, 0, 1), ImVec4(1, 1, 1, 1)), 21.0, 1e-9);
    EXPECT_NEAR(contrast(ImVec4(0.3f, 0.5f, 0.7f, 1), ImVec4(0.3f, 0.5f, 0.7f, 1)), 1.0, 1e-9);
    // #777777 on white is the well-known 4.48:1 just under AA.
    const float g = 0x77 / 255.f;
    EXPECT_NEAR(contrast(ImVec4(g, g, g, 1), ImVec4(1, 1, 1, 1)), 4.48, 0.01);
}

INSTANTIATE_TEST_SUITE_P(BothThemes, ThemeContrast, ::testing::Values(ui::Theme::Dark, ui::Theme::Light),
                         [](const auto& info) {
                             return std::string(info.param == ui::Theme::Light ? "Light" : "Dark");
                         });

}  // namespace
