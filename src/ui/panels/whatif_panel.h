// Counterfactuals for the selected query and head, recomputed live from the
// trace and always labelled as what-ifs: no scaling, no softmax, a
// temperature, similarity from values. The real weights sit first for
// comparison.
#pragma once
#include <array>

#include "ui/widgets/frame.h"
#include "ui/widgets/map_view.h"

namespace ui {

class WhatIfPanel {
public:
    void draw(const Frame& f);

private:
    std::array<MapView, 5> views_;  // the real row, then one per what-if
};

}  // namespace ui
