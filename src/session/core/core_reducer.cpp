// apply_core: one case per core action, visited exhaustively.
#include <algorithm>
#include <cmath>

#include "session/base/overloaded.h"
#include "session/core/core_actions.h"

namespace session {
namespace {

int clamp_token(const CoreRoom& s, int token) { return s.trace() ? std::clamp(token, 0, s.trace()->tokens - 1) : 0; }

void set_layer(CoreRoom& s, int layer) {
    if (s.layers()) s.sel.layer = std::clamp(layer, 0, s.layers() - 1);
}

void move_query(CoreRoom& s, int drow, int dcol) {
    const vit::Trace* t = s.trace();
    if (!t || t->grid <= 0) return;
    if (!t->is_patch(s.sel.query)) {
        // From CLS (or a register) the arrows step onto the centre of the grid.
        s.sel.query = t->token_of(t->grid / 2, t->grid / 2);
        return;
    }
    const int r = std::clamp(t->row_of(s.sel.query) + drow, 0, t->grid - 1);
    const int c = std::clamp(t->col_of(s.sel.query) + dcol, 0, t->grid - 1);
    s.sel.query = t->token_of(r, c);
}

}  // namespace

void apply_core(AppState& app, const CoreActions& a) {
    CoreRoom& s = app;
    std::visit(Overloaded{
                   [&](const act::SelectQuery& x) {
                       s.sel.query = clamp_token(s, x.token);
                       if (s.sweep_path.recording && s.trace() && s.trace()->is_patch(s.sel.query))
                           s.sweep_path.tokens.push_back(s.sel.query);
                   },
                   [&](const act::MoveQuery& x) { move_query(s, x.drow, x.dcol); },
                   [&](const act::SetLayer& x) { set_layer(s, x.layer); },
                   [&](const act::StepLayer& x) { set_layer(s, s.sel.layer + x.delta); },
                   [&](const act::SetHead& x) {
                       if (s.heads()) s.sel.head = std::clamp(x.head, 0, s.heads() - 1);
                       s.sel.source = MapSource::Head;
                   },
                   [&](const act::ToggleHeadVisible& x) {
                       auto& v = s.sel.head_visible;
                       if (x.head >= 0 && x.head < static_cast<int>(v.size())) v[x.head] = !v[x.head];
                   },
                   [&](const act::SetMapSource& x) { s.sel.source = x.source; },
                   [&](const act::HoverKey& x) { s.sel.hovered_key = x.token < 0 ? -1 : clamp_token(s, x.token); },
                   [&](const act::PinKey& x) {
                       s.sel.pinned_key = (x.token < 0 || x.token == s.sel.pinned_key) ? -1 : clamp_token(s, x.token);
                   },
                   [&](const act::SetStyle& x) { s.style = x.style; },
                   [&](const act::SetTemperature& x) {
                       // std::clamp passes NaN through; a temperature that is not a number is ignored.
                       if (!std::isnan(x.temperature))
                           s.temperature = std::clamp(x.temperature, kMinTemperature, kMaxTemperature);
                   },
                   [&](const act::DismissError&) { s.last_error.clear(); },
                   [&](const act::ShowHelp& x) { s.show_help = x.show; },
                   [&](const act::ShowTab& x) { s.tab = x.tab; },
                   [&](const act::SetClassroom& x) { s.classroom = x.on; },
                   [&](const act::SetTheme& x) { s.theme = x.theme; },
                   [&](const act::SetMathStep& x) { s.math_step = std::clamp(x.step, 1, kMathSteps); },
                   [&](const act::RecordSweepPath& x) {
                       s.sweep_path.recording = x.on;
                       if (x.on) s.sweep_path.tokens.clear();
                   },
               },
               a);
}

}  // namespace session
