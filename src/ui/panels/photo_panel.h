// The photo as opened, at its own aspect ratio, with the model's crop, the
// patch grid and the selected map; hover names a patch, click makes it the
// query. Below: the colour bar, the weight left on CLS (and registers), the
// overlay style and the model's top-5 classes.
#pragma once
#include "ui/questions/question_view.h"
#include "ui/widgets/frame.h"
#include "ui/widgets/map_view.h"

namespace ui {

class PhotoPanel {
public:
    // page: the Questions page on show, which may mark the photo; null when none.
    void draw(const Frame& f, QuestionView* page);

private:
    void toolbar(const Frame& f);
    void photo(const Frame& f, const MapData* map, ImVec2 size, QuestionView* page);
    void legend(const Frame& f, const MapData& map);
    void style_controls(const Frame& f);
    void classes(const Frame& f);

    MapView view_;
};

// A spinner and the worker's stage, centred on the rectangle (min, max).
void busy_overlay(const Frame& f, ImVec2 min, ImVec2 max);

}  // namespace ui
