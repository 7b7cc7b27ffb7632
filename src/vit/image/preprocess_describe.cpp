// The preprocessing in words, for `vitscope info`.
#include <charconv>
#include <string>

#include "vit/image/preprocess.h"
#include "vit/base/charconv_compat.h"

namespace vit {
namespace {

// The shortest decimal that reads back as the value (0.485f -> "0.485").
template <typename T>
std::string shortest(T value) {
    char text[32];
    const auto [end, ec] = vit::shortest_chars(text, text + sizeof text, value);
    return std::string(text, end);
}

std::string triple(const std::array<float, 3>& v) {
    std::string s = "(";  // appended piece by piece: "(" + std::string&& trips a false GCC 12 -Wrestrict
    s += shortest(v[0]);
    s += ", ";
    s += shortest(v[1]);
    s += ", ";
    s += shortest(v[2]);
    return s + ")";
}

std::string square(int n) { return std::to_string(n) + " x " + std::to_string(n); }

std::string normalise(const PreprocessConfig& cfg) {
    return "normalise mean " + triple(cfg.mean) + " std " + triple(cfg.std);
}

}  // namespace

std::string describe_preprocessing(const PreprocessConfig& cfg) {
    const std::string filter = cfg.interpolation + " (PIL)";
    if (!cfg.hf) {
        return "timm eval transform: resize shorter side to " + std::to_string(resize_side(cfg, cfg.input_size)) +
               " (aspect kept), " + filter + ", centre crop " + square(cfg.input_size) + " (crop_pct " +
               shortest(cfg.crop_pct) + "), rescale 1/255, " + normalise(cfg);
    }
    const HfImageProcessor& p = *cfg.hf;
    std::string s = p.name + ": ";
    if (!p.do_resize) s += "no resize";
    else if (p.shortest_edge > 0)
        s += "resize shorter side to " + std::to_string(p.shortest_edge) + " (aspect kept), " + filter;
    else
        s += "resize to " + std::to_string(p.resize_height) + " x " + std::to_string(p.resize_width) +
             " (aspect not kept), " + filter;
    if (p.do_center_crop) s += ", centre crop " + std::to_string(p.crop_height) + " x " + std::to_string(p.crop_width);
    else if (!p.do_resize) s += " and no crop (the photo goes in as it is, and must be square)";
    if (!p.do_rescale) s += ", no rescale (pixel values 0..255)";
    else if (p.rescale_factor == 1.0 / 255.0) s += ", rescale 1/255";
    else s += ", rescale x " + shortest(p.rescale_factor);
    s += p.do_normalize ? ", " + normalise(cfg) : ", no normalisation";
    return s;
}

}  // namespace vit
