// The classroom room: predict-then-reveal (the class marks where it expects
// the query to look before the map shows) and the side-by-side panes, the
// projector's two ways of putting maps before a class.
#pragma once
#include <vector>

namespace session {

struct ClassroomRoom {
    // Predict, then reveal (classroom mode): Predict hides the map while the
    // class marks the patches it expects the query to attend to; Reveal shows
    // the map and the weight on the marked patches (classroom/prediction.h).
    struct Prediction {
        enum class Phase { Off, Predicting, Revealed };
        Phase phase = Phase::Off;
        std::vector<int> marked;  // patch tokens, in the order marked
    } prediction;
    // View > Side by side: two maps at full size on one colour scale, in
    // place of the panels; each pane a layer and head of the open photo or
    // of the second photo (File > Compare with…), for the selected query.
    struct SidePane {
        int layer = 0, head = 0;
        bool second_photo = false;
        bool operator==(const SidePane& o) const {
            return layer == o.layer && head == o.head && second_photo == o.second_photo;
        }
    };
    struct SideBySide {
        bool open = false;
        SidePane left, right;
    } side_by_side;
};

}  // namespace session
