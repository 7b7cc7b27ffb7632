// A lesson (files/lesson.h) applied to the window once its model and photo
// have run: through every room's actions, so each room reacts as to a click.
#pragma once
#include "session/files/lesson.h"
#include "session/state/app_state.h"

namespace session {

// Its selection, tab, page, style, classroom mode and what-if settings
// (clamped to the trace as apply does).
void apply_lesson(AppState& s, const Lesson& lesson);

}  // namespace session
