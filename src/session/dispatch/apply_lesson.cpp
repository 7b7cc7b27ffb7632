#include "session/dispatch/apply_lesson.h"

#include <algorithm>

#include "session/dispatch/actions.h"

namespace session {

void apply_lesson(AppState& s, const Lesson& l) {
    const SavedSelection& sel = l.selection;
    apply(s, act::SetLayer{sel.layer});
    apply(s, act::SetHead{sel.head});
    for (size_t h = 0; h < s.sel.head_visible.size(); ++h)
        s.sel.head_visible[h] = std::find(sel.visible_heads.begin(), sel.visible_heads.end(), static_cast<int>(h)) !=
                                sel.visible_heads.end();
    apply(s, act::SetMapSource{sel.map});
    apply(s, act::SelectQuery{sel.query});
    s.sel.pinned_key = -1;
    if (sel.pinned_key >= 0) apply(s, act::PinKey{sel.pinned_key});
    if (l.tab == AppState::Tab::Questions) apply(s, act::ShowQuestion{l.question});
    else {
        s.question = l.question;
        apply(s, act::ShowTab{l.tab});
    }
    apply(s, act::SetClassroom{l.classroom});
    apply(s, act::SetMathStep{l.math_step});
    apply(s, act::SetStyle{l.style});
    apply(s, act::SetTemperature{l.temperature});
}

}  // namespace session
