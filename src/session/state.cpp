#include "session/state.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "session/actions.h"
#include "session/tour_show.h"

namespace session {

void adopt(AppState& s, Loaded loaded) {
    const vit::Trace* old = s.trace();
    const int old_grid = old ? old->grid : 0, old_prefix = old ? old->prefix : 0;
    const int old_row = old ? old->row_of(s.sel.query) : -1, old_col = old ? old->col_of(s.sel.query) : -1;
    const int pin_row = old ? old->row_of(s.sel.pinned_key) : -1, pin_col = old ? old->col_of(s.sel.pinned_key) : -1;
    const int old_heads = s.heads();
    s.loaded = std::move(loaded);
    const vit::Trace* t = s.trace();
    if (!t) return;
    s.last_forward_seconds = t->seconds;
    apply(s, act::SetLayer{s.sel.layer});
    const int heads = s.heads();
    s.sel.head = std::clamp(s.sel.head, 0, std::max(0, heads - 1));
    if (heads != old_heads) s.sel.head_visible.assign(heads, true);
    // Same patch when the grid matches, else CLS stays CLS and patches go to the centre.
    if (old_row >= 0 && old_grid == t->grid)
        s.sel.query = t->token_of(old_row, old_col);
    else if (s.sel.query < old_prefix || !old)
        s.sel.query = std::min(s.sel.query, t->prefix - 1);
    else
        s.sel.query = t->token_of(t->grid / 2, t->grid / 2);
    s.sel.hovered_key = -1;
    // The pin stays on its patch (or prefix token) while the grid matches, as the query does.
    if (old_grid != t->grid || (pin_row < 0 && s.sel.pinned_key >= t->prefix))
        s.sel.pinned_key = -1;
    else if (pin_row >= 0)
        s.sel.pinned_key = t->token_of(pin_row, pin_col);
    if (old_grid != t->grid) {  // their patches were on the old grid
        s.sweep_path.tokens.clear();
        s.prediction.marked.clear();
    }
    // A tour started before the first trace (--tour) sets its step's query and pin now.
    if (!old && s.tour.tour) show_tour_step(s, false);
}

const char* prediction_phase_name(AppState::Prediction::Phase phase) {
    switch (phase) {
        case AppState::Prediction::Phase::Off: return "off";
        case AppState::Prediction::Phase::Predicting: return "predicting";
        case AppState::Prediction::Phase::Revealed: return "revealed";
    }
    return "";
}

int math_step_number(const std::string& name) {
    for (int i = 0; i < kMathSteps; ++i)
        if (name == kMathStepNames[i]) return i + 1;
    return 0;
}

const char* theme_name(AppState::Theme theme) { return theme == AppState::Theme::Light ? "light" : "dark"; }

std::optional<AppState::Theme> theme_from_name(const std::string& name) {
    if (name == "dark") return AppState::Theme::Dark;
    if (name == "light") return AppState::Theme::Light;
    return std::nullopt;
}

const char* tab_name(AppState::Tab tab) {
    switch (tab) {
        case AppState::Tab::Math: return "math";
        case AppState::Tab::WhatIfs: return "whatifs";
        case AppState::Tab::Questions: return "questions";
    }
    return "";
}

std::string selection_slug(const AppState& s) {
    namespace fs = std::filesystem;
    std::string stem = s.loaded.image_path.empty() ? "vitscope" : fs::path(s.loaded.image_path).stem().string();
    const vit::Trace* t = s.trace();
    std::string slug = stem + "_L" + std::to_string(s.sel.layer);
    slug += s.sel.source == MapSource::MeanOfVisible ? "_Hmean" : "_H" + std::to_string(s.sel.head);
    if (t && t->is_patch(s.sel.query))
        slug += "_r" + std::to_string(t->row_of(s.sel.query)) + "c" + std::to_string(t->col_of(s.sel.query));
    else
        slug += s.sel.query == 0 ? "_cls" : "_t" + std::to_string(s.sel.query);
    // Keep file names portable: photo names may hold spaces or odd characters.
    for (char& ch : slug)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-' && ch != '.') ch = '_';
    return slug;
}

}  // namespace session
