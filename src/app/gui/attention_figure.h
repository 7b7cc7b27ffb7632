// The attention figure both exports make (Ctrl+E in the window and
// `vitscope export`): one spec from one selection, so the same selection
// gives the same PNG either way.
#pragma once
#include <string>
#include <vector>

#include "gfx/figure.h"
#include "session/base/selection.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/model/model.h"

namespace app {

struct FigureChoice {
    int layer = 0;
    session::MapSource source = session::MapSource::Head;
    int head = 0;                    // with MapSource::Head
    std::vector<int> visible_heads;  // with MapSource::MeanOfVisible
    int query = 0;
};

// Throws vit::Error when there is nothing to draw (no visible heads).
gfx::FigureSpec attention_figure(const vit::Image& photo, const std::string& photo_path, const vit::CropRect& crop,
                                 const vit::Model& model, const std::string& model_dir, const vit::Trace& trace,
                                 const FigureChoice& choice, const gfx::OverlayStyle& style);

}  // namespace app
