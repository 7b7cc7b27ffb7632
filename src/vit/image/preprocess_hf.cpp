// transformers' image processors as they run with PIL (ViTImageProcessor,
// DeiTImageProcessor, BitImageProcessor .preprocess): resize (the array goes
// to PIL, is resized there and comes back as 8-bit pixels), centre crop,
// rescale, normalise, each when its do_* flag is set, in that order.
#include <cstdint>
#include <string>

#include "vit/base/error.h"
#include "vit/image/preprocess_steps.h"

namespace vit::detail {
namespace {

// transformers' center_crop along one axis: (size - crop) // 2 when the image
// is large enough; otherwise it is first padded with zeros, ceil((crop - size)
// / 2) of them before it, so the crop starts that far before the image.
int hf_crop_offset(int image_size, int crop_size) {
    if (image_size >= crop_size) return (image_size - crop_size) / 2;
    return -((crop_size - image_size + 1) / 2);
}

std::string dims(int w, int h) { return std::to_string(w) + " x " + std::to_string(h); }

}  // namespace

Input preprocess_hf(const Image& image, const PreprocessConfig& cfg, int requested) {
    const HfImageProcessor& p = *cfg.hf;
    const int base = cfg.input_size;
    int size = requested > 0 ? requested : base;
    // Another input size (--size) scales every length of the pipeline alike.
    const auto at_size = [&](int n) { return static_cast<int>(static_cast<long long>(n) * size / base); };

    Image resized_copy;
    const Image* resized = &image;
    if (p.do_resize) {
        Size target;
        if (p.shortest_edge > 0) {
            target = shorter_side_to(image, at_size(p.shortest_edge));
        } else {
            target = {at_size(p.resize_width), at_size(p.resize_height)};  // squashed: the aspect ratio is not kept
            check_resize_target(image, target.w, target.h);
        }
        resized_copy = resize_pil(image, target.w, target.h, cfg.interpolation);
        resized = &resized_copy;
    } else if (!p.do_center_crop) {
        // Neither resized nor cropped: the photo itself is the input.
        if (image.width != image.height)
            throw Error("the preprocessor neither resizes (do_resize false) nor crops, so the " +
                        dims(image.width, image.height) +
                        " photo would go to the model as it is; vitscope runs square inputs only");
        if (requested > 0 && requested != image.width)
            throw Error("the preprocessor does not resize (do_resize false), so the input size cannot be changed to " +
                        std::to_string(requested));
        size = image.width;
    }

    const int left = p.do_center_crop ? hf_crop_offset(resized->width, size) : 0;
    const int top = p.do_center_crop ? hf_crop_offset(resized->height, size) : 0;

    ValueTable values;
    for (int c = 0; c < 3; ++c) {
        for (int v = 0; v < 256; ++v) {
            // rescale: float64 product, then float32; normalize: float32 arithmetic (numpy's order and types).
            float x = p.do_rescale ? static_cast<float>(v * p.rescale_factor) : static_cast<float>(v);
            if (p.do_normalize) x = (x - cfg.mean[c]) / cfg.std[c];
            values[c][v] = x;
        }
    }
    return cut_input(*resized, left, top, size, values, image.width, image.height);
}

}  // namespace vit::detail
