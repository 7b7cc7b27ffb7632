#include "session/dispatch/adopt.h"

#include <algorithm>

#include "session/dispatch/actions.h"
#include "session/tour/tour_room.h"

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
    if (old_row >= 0 && old_grid == t->grid) s.sel.query = t->token_of(old_row, old_col);
    else if (s.sel.query < old_prefix || !old) s.sel.query = std::min(s.sel.query, t->prefix - 1);
    else s.sel.query = t->token_of(t->grid / 2, t->grid / 2);
    s.sel.hovered_key = -1;
    // The pin stays on its patch (or prefix token) while the grid matches, as the query does.
    if (old_grid != t->grid || (pin_row < 0 && s.sel.pinned_key >= t->prefix)) s.sel.pinned_key = -1;
    else if (pin_row >= 0) s.sel.pinned_key = t->token_of(pin_row, pin_col);
    if (old_grid != t->grid) {  // their patches were on the old grid
        s.sweep_path.tokens.clear();
        s.prediction.marked.clear();
    }
    // A tour started before the first trace (--tour), or a step asked for while the photo was loading, shows
    // now, or waits for its query (tour_query.h).
    if (s.tour.tour && (!old || s.tour.pending_step >= 0))
        apply_tour(s, act::TourGo{s.tour.pending_step >= 0 ? s.tour.pending_step : s.tour.step});
}

}  // namespace session
