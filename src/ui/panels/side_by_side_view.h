// View > Side by side: two maps at full size in place of the three panels,
// each a layer and head of the open photo or of the second photo, for the
// selected query, both on one colour scale (session/classroom/side_by_side.h) with one
// colour bar, so equal colours mean equal weights.
#pragma once
#include "ui/widgets/frame.h"
#include "ui/widgets/layout.h"
#include "ui/widgets/map_view.h"

namespace ui {

class SideBySideView {
public:
    // area: where the panels would be.
    void draw(const Frame& f, const PanelRect& area);

private:
    void pane_controls(const Frame& f, bool right);
    MapView left_, right_;
};

}  // namespace ui
