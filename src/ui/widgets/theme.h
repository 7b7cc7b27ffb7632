// The window's look: a dark theme for screens and a light one for bright
// rooms, projectors and print, each with one accent colour; sizes scaled for HiDPI.
#pragma once
#include <imgui.h>

#include "session/state/app_state.h"

namespace ui {

using Theme = session::AppState::Theme;

// Colours used across panels, so the same thing looks the same everywhere.
// Text colours keep at least 4.5:1 contrast (WCAG AA) against the theme's
// window background (tests/ui/widgets/theme_test.cpp measures it).
struct Palette {
    ImVec4 accent;  // the selected query, links
    ImVec4 pinned;  // the pinned key
    ImVec4 muted;   // secondary text: plain-language explanations
    ImVec4 strong;  // equations and names, a little apart from prose
    ImVec4 error;
    ImVec4 ok;
    ImVec4 whatif;      // everything counterfactual
    ImVec4 whatif_bg;   // behind a what-if's badge and banner
    ImVec4 error_bg;    // behind the error banner
    ImVec4 error_text;  // the error banner's text
    ImVec4 card_bg;     // the tour's card
    ImVec4 bar_bg;      // the status bar
    // A plot's data series and their names in its legend and tables: five
    // distinct hues, each readable as text on the window (grey, blue, green,
    // orange, magenta).
    ImVec4 series[5];
};

const Palette& palette(Theme theme);

// The theme's ImGui colours and the palette below, sizes times `scale`.
void apply_theme(Theme theme, float scale);

namespace detail {
inline Palette shown = palette(Theme::Dark);  // the palette of the theme applied last
}

// The colours of the theme on show.
namespace colors {
inline const ImVec4& accent = detail::shown.accent;
inline const ImVec4& pinned = detail::shown.pinned;
inline const ImVec4& muted = detail::shown.muted;
inline const ImVec4& strong = detail::shown.strong;
inline const ImVec4& error = detail::shown.error;
inline const ImVec4& ok = detail::shown.ok;
inline const ImVec4& whatif = detail::shown.whatif;
inline const ImVec4& whatif_bg = detail::shown.whatif_bg;
inline const ImVec4& error_bg = detail::shown.error_bg;
inline const ImVec4& error_text = detail::shown.error_text;
inline const ImVec4& card_bg = detail::shown.card_bg;
inline const ImVec4& bar_bg = detail::shown.bar_bg;
inline const ImVec4 (&series)[5] = detail::shown.series;
}  // namespace colors

}  // namespace ui
