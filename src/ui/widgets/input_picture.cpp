#include "ui/widgets/input_picture.h"

namespace ui {

MapPhoto InputPicture::photo(const std::shared_ptr<const void>& source, const vit::Image& image,
                             const vit::Trace& trace) {
    if (source != source_) {
        texture_.upload(image);
        source_ = source;
        ++generation_;
    }
    MapPhoto p;
    p.texture = &texture_;
    p.generation = generation_;
    p.crop = vit::CropRect{0, 0, static_cast<double>(image.width), static_cast<double>(image.height)};
    p.trace = &trace;
    return p;
}

}  // namespace ui
