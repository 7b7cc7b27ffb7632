#include "vit/image/input_image.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "vit/base/error.h"

namespace vit {

Image input_as_image(const Input& input, const PreprocessConfig& cfg) {
    const size_t plane = static_cast<size_t>(input.size) * input.size;
    if (input.size <= 0 || input.chw.size() != 3 * plane)
        throw Error("an input of size " + std::to_string(input.size) + " must hold 3 x size x size values, not " +
                    std::to_string(input.chw.size()));
    const bool normalize = !cfg.hf || cfg.hf->do_normalize;
    const double rescale = !cfg.hf ? 1.0 / 255.0 : cfg.hf->do_rescale ? cfg.hf->rescale_factor : 1.0;
    if (!(rescale > 0)) throw Error("cannot undo a rescale factor of " + std::to_string(rescale));
    Image image;
    image.width = image.height = input.size;
    image.rgb.resize(3 * plane);
    for (int c = 0; c < 3; ++c)
        for (size_t p = 0; p < plane; ++p) {
            double x = input.chw[c * plane + p];
            if (normalize) x = x * cfg.std[c] + cfg.mean[c];
            const double v = std::round(x / rescale);
            image.rgb[p * 3 + c] = std::isfinite(v) ? static_cast<uint8_t>(std::clamp(v, 0.0, 255.0)) : 0;
        }
    return image;
}

}  // namespace vit
