// A rearranged model input (the shifted photo, the shuffled mosaic) as a
// texture that maps are drawn over: the pages that show one keep one of these
// per picture, uploaded again only when the experiment's result changes.
#pragma once
#include <memory>

#include "gfx/overlay_renderer.h"
#include "ui/widgets/map_view.h"
#include "vit/image/image.h"

namespace ui {

class InputPicture {
public:
    // `image` is the input square (vit::input_as_image) owned by `source`, an
    // experiment's result; uploads it when source is not the one shown.
    // Needs the GL context (every page draws inside the frame).
    MapPhoto photo(const std::shared_ptr<const void>& source, const vit::Image& image, const vit::Trace& trace);

private:
    gfx::PhotoTexture texture_;
    std::shared_ptr<const void> source_;
    int generation_ = 0;
};

}  // namespace ui
