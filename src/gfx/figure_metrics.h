// Sizes in the figure, in units of size / 2048 (so a 2048 px figure uses
// them as pixels); shared by the layout and the renderer.
#pragma once

namespace gfx::figure_metrics {

constexpr double kMargin = 72;
constexpr double kPanelGap = 56;
constexpr double kPanelTitlePx = 44;    // text above each panel
constexpr double kBelowPanels = 44;     // panels to caption / colour bar
constexpr double kCaptionTitlePx = 52;  // caption line 1 (bold)
constexpr double kCaptionPx = 42;       // caption lines 2 and 3
constexpr double kLineSpacing = 1.45;   // baseline to baseline, in font heights
constexpr double kBarHeight = 52;
constexpr double kTickLength = 16;
constexpr double kTickPx = 38;
constexpr double kTickLabelGap = 6;  // tick mark to its label
constexpr double kLinePx = 2;        // grid lines in the panels, frames

}  // namespace gfx::figure_metrics
