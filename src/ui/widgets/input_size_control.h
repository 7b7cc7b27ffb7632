// The model input's size for the whole window (224, 288, ... 640 px for a
// patch-16 model, and the model's own): the photo, the grid and every panel
// follow the new grid. Sizes whose trace would not fit the memory budget are
// shown disabled, with the reason.
#pragma once
#include <string>
#include <vector>

#include "ui/widgets/frame.h"

namespace ui {

struct InputSizeChoice {
    int px = 0;
    std::string refusal;  // why this size cannot be chosen; empty when it can
};
// The sizes offered for the loaded model, smallest first.
std::vector<InputSizeChoice> input_size_choices(const session::AppState& s);

// A labelled combo at the cursor ("Input  224 px ▾"); emits cmd::SetInputSize.
void input_size_control(const Frame& f);

}  // namespace ui
