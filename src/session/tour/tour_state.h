// The guided tour's room: the tour on show, its step, and the first run's offer.
#pragma once
#include <memory>
#include <string>

#include "session/tour/tour.h"

namespace vit {
struct RelevantQueryChoice;
}

namespace session {

struct TourStart;  // tour_show.h: what the steps set, as it was when the tour started

struct TourRoom {
    bool tour_offered = true;  // false on a first run: the window offers the tour once
    // The guided tour on show (Help > Guided tour): null when none.
    struct TourView {
        std::shared_ptr<const Tour> tour;
        int step = 0;
        std::string lesson_to_open;  // the step shown starts from this lesson: the window opens it and clears this
        bool text_folded = false;  // the card shows its title, key sentence and buttons only (H), for the panels' room;
                                   // classroom mode starts so
        // query=relevant's choice (tour_query.h) for the trace of this generation:
        // one backward pass per photo, made off the window's thread when a step
        // first needs it (relevant_wanted: the generation a step waits for);
        // null when it cannot be made.
        std::shared_ptr<const vit::RelevantQueryChoice> relevant;
        int relevant_generation = -1;
        int relevant_wanted = -1;
        // A step asked for (Next, Back, a script) that needs that choice before it is made: the card says what
        // it computes and the step shows once the choice arrives; -1: none.
        int pending_step = -1;
        // Every step is shown by restoring this and replaying the steps up to it, so Back is exactly the
        // reverse of Next.
        std::shared_ptr<const TourStart> start;
    } tour;
};

}  // namespace session
