#include "vit/image/preprocess.h"
#include "vit/base/charconv_compat.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

#include "vit/base/error.h"
#include "vit/image/preprocess_steps.h"

// The filter weights must be rounded as Pillow rounds them (a separate
// multiply and add, as built for baseline x86-64) to get its fixed-point
// coefficients bit for bit; a fused multiply-add would change the last bit.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace vit {
namespace {

// Pillow's 8-bit resampling: weights as integers with this many fraction
// bits, leaving 8 bits for the value and 2 for overshoot and sign.
constexpr int kPrecisionBits = 32 - 8 - 2;

struct Filter {
    double (*weight)(double x);
    double support;  // half-width at scale 1
};

double bilinear_weight(double x) {
    if (x < 0.0) x = -x;
    return x < 1.0 ? 1.0 - x : 0.0;
}

// Keys' cubic convolution with a = -0.5, evaluated in Pillow's operation order.
double bicubic_weight(double x) {
    constexpr double a = -0.5;
    if (x < 0.0) x = -x;
    if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1;
    if (x < 2.0) return (((x - 5) * x + 8) * x - 4) * a;
    return 0.0;
}

Filter filter_for(const std::string& interpolation) {
    if (interpolation == "bicubic") return {bicubic_weight, 2.0};
    if (interpolation == "bilinear") return {bilinear_weight, 1.0};
    throw Error("unsupported interpolation \"" + interpolation + "\" (vitscope resizes with bicubic or bilinear)");
}

// For each output pixel along one axis: the first input pixel it reads, how
// many it reads, and their fixed-point weights (ksize slots per output).
struct Taps {
    int ksize = 0;
    std::vector<int> first, count;
    std::vector<int32_t> weights;
};

Taps compute_taps(int in_size, int out_size, const Filter& filter) {
    const double scale = static_cast<double>(in_size) / out_size;
    const double filter_scale = std::max(scale, 1.0);  // widen the filter when shrinking: antialiasing
    const double support = filter.support * filter_scale;
    Taps taps;
    taps.ksize = static_cast<int>(std::ceil(support)) * 2 + 1;
    taps.first.resize(out_size);
    taps.count.resize(out_size);
    taps.weights.assign(static_cast<size_t>(out_size) * taps.ksize, 0);
    std::vector<double> w(taps.ksize);
    for (int i = 0; i < out_size; ++i) {
        const double center = (i + 0.5) * scale;
        const double inv_scale = 1.0 / filter_scale;
        // Truncating casts round here because the operands are non-negative once clamped.
        const int lo = std::max(static_cast<int>(center - support + 0.5), 0);
        const int n = std::min(static_cast<int>(center + support + 0.5), in_size) - lo;
        double sum = 0.0;
        for (int k = 0; k < n; ++k) {
            w[k] = filter.weight((k + lo - center + 0.5) * inv_scale);
            sum += w[k];
        }
        int32_t* out = &taps.weights[static_cast<size_t>(i) * taps.ksize];
        for (int k = 0; k < n; ++k) {
            const double normalised = sum != 0.0 ? w[k] / sum : w[k];
            const double fixed = normalised * (1 << kPrecisionBits);
            out[k] = static_cast<int32_t>(normalised < 0 ? fixed - 0.5 : fixed + 0.5);  // round half away from zero
        }
        taps.first[i] = lo;
        taps.count[i] = n;
    }
    return taps;
}

uint8_t clip8(int32_t acc) {  // acc cannot overflow: |weights| sum to well under 2^31 / 255
    return static_cast<uint8_t>(std::clamp(acc >> kPrecisionBits, 0, 255));
}

constexpr int32_t kHalf = 1 << (kPrecisionBits - 1);  // rounds the final shift to nearest

// Resizes rows [row0, row0 + out.height) of `in` to out.width columns.
void resample_horizontal(const Image& in, int row0, const Taps& taps, Image& out) {
    for (int y = 0; y < out.height; ++y) {
        const uint8_t* src = &in.rgb[static_cast<size_t>(row0 + y) * in.width * 3];
        uint8_t* dst = &out.rgb[static_cast<size_t>(y) * out.width * 3];
        for (int x = 0; x < out.width; ++x) {
            const int32_t* k = &taps.weights[static_cast<size_t>(x) * taps.ksize];
            const uint8_t* p = src + static_cast<size_t>(taps.first[x]) * 3;
            int32_t r = kHalf, g = kHalf, b = kHalf;
            for (int i = 0; i < taps.count[x]; ++i) {
                r += p[i * 3 + 0] * k[i];
                g += p[i * 3 + 1] * k[i];
                b += p[i * 3 + 2] * k[i];
            }
            dst[x * 3 + 0] = clip8(r);
            dst[x * 3 + 1] = clip8(g);
            dst[x * 3 + 2] = clip8(b);
        }
    }
}

// Resizes `in` to out.height rows; taps.first counts rows of `in`.
void resample_vertical(const Image& in, const Taps& taps, Image& out) {
    const size_t row_bytes = static_cast<size_t>(in.width) * 3;
    for (int y = 0; y < out.height; ++y) {
        const int32_t* k = &taps.weights[static_cast<size_t>(y) * taps.ksize];
        const uint8_t* src = &in.rgb[static_cast<size_t>(taps.first[y]) * row_bytes];
        uint8_t* dst = &out.rgb[static_cast<size_t>(y) * row_bytes];
        for (size_t c = 0; c < row_bytes; ++c) {
            int32_t acc = kHalf;
            for (int i = 0; i < taps.count[y]; ++i) acc += src[i * row_bytes + c] * k[i];
            dst[c] = clip8(acc);
        }
    }
}

Image blank(int width, int height) {
    Image image;
    image.width = width;
    image.height = height;
    image.rgb.resize(static_cast<size_t>(width) * height * 3);
    return image;
}

// The config's float as the decimal Python read from config.json (0.9, not
// 0.899999976), so floor(input_size / crop_pct) lands where timm's does.
double as_written(float value) {
    char text[32];
    const auto [end, ec] = vit::shortest_chars(text, text + sizeof text, value);
    double out = value;
    vit::decimal_from_chars(text, end, out);
    return out;
}

// Python's round(): halves go to the even neighbour (needs the default rounding mode).
int round_half_even(double value) { return static_cast<int>(std::nearbyint(value)); }

// torchvision's CenterCrop offset along one axis; negative when the image is
// smaller than the crop and torchvision pads it with zeros.
int crop_offset(int image_size, int crop_size) {
    if (crop_size > image_size) return -((crop_size - image_size) / 2);
    return round_half_even((image_size - crop_size) / 2.0);
}

// PIL's nearest-neighbour scaling (ImagingScaleAffine): output pixel i reads
// input pixel int(p), p running from half a step in steps of in/out, summed
// one step at a time in double as Pillow does (so its rounding is Pillow's too).
std::vector<int> nearest_sources(int in_size, int out_size) {
    const double step = static_cast<double>(static_cast<float>(in_size)) / out_size;
    std::vector<int> source(out_size);
    double p = step * 0.5;
    for (int i = 0; i < out_size; ++i, p += step) source[i] = p < in_size ? static_cast<int>(p) : -1;
    return source;
}

Image resize_nearest(const Image& in, int out_w, int out_h) {
    const std::vector<int> xs = nearest_sources(in.width, out_w), ys = nearest_sources(in.height, out_h);
    Image out = blank(out_w, out_h);  // zeros: where Pillow finds no source pixel it leaves black
    for (int y = 0; y < out_h; ++y) {
        if (ys[y] < 0) continue;
        for (int x = 0; x < out_w; ++x) {
            if (xs[x] < 0) continue;
            for (int c = 0; c < 3; ++c) out.rgb[(static_cast<size_t>(y) * out_w + x) * 3 + c] = in.at(xs[x], ys[y], c);
        }
    }
    return out;
}

}  // namespace

namespace detail {

void check_resize_target(const Image& image, long long w, long long h) {
    if (static_cast<double>(w) * static_cast<double>(h) > static_cast<double>(kMaxImagePixels))
        throw Error("resizing the " + std::to_string(image.width) + " x " + std::to_string(image.height) +
                    " photo to " + std::to_string(w) + " x " + std::to_string(h) +
                    " px would make it over 64 megapixels");
}

Size shorter_side_to(const Image& image, int side) {
    const bool portrait = image.width <= image.height;
    const int short_side = portrait ? image.width : image.height;
    const int long_side = portrait ? image.height : image.width;
    const double long_exact = static_cast<double>(side) * long_side / short_side;
    // A very elongated photo (say 60000 x 2) would resize to billions of pixels.
    if (long_exact * side > static_cast<double>(kMaxImagePixels))
        throw Error("a " + std::to_string(image.width) + " x " + std::to_string(image.height) +
                    " photo is too elongated: resizing its shorter side to " + std::to_string(side) +
                    " px would make it over 64 megapixels");
    // Python's int(side * long / short): the exact product, one rounded division, truncated.
    const int long_scaled =
        static_cast<int>(static_cast<double>(static_cast<long long>(side) * long_side) / short_side);
    return portrait ? Size{side, long_scaled} : Size{long_scaled, side};
}

Input cut_input(const Image& resized, int left, int top, int size, const ValueTable& values, int photo_w, int photo_h) {
    Input input;
    input.size = size;
    input.chw.resize(static_cast<size_t>(3) * size * size);
    for (int c = 0; c < 3; ++c) {
        for (int y = 0; y < size; ++y) {
            for (int x = 0; x < size; ++x) {
                const int sx = x + left, sy = y + top;
                const bool inside = sx >= 0 && sx < resized.width && sy >= 0 && sy < resized.height;
                const uint8_t v = inside ? resized.at(sx, sy, c) : 0;
                input.chw[(static_cast<size_t>(c) * size + y) * size + x] = values[c][v];
            }
        }
    }
    const double scale_x = static_cast<double>(resized.width) / photo_w;
    const double scale_y = static_cast<double>(resized.height) / photo_h;
    input.crop = {left / scale_x, top / scale_y, size / scale_x, size / scale_y};
    return input;
}

}  // namespace detail

int resize_side(const PreprocessConfig& cfg, int input_size) {
    return static_cast<int>(std::floor(input_size / as_written(cfg.crop_pct)));
}

Image resize_pil(const Image& image, int out_w, int out_h, const std::string& interpolation) {
    if (image.width <= 0 || image.height <= 0 ||
        image.rgb.size() != static_cast<size_t>(image.width) * image.height * 3)
        throw Error("cannot resize an empty or malformed image");
    if (out_w <= 0 || out_h <= 0)
        throw Error("cannot resize to " + std::to_string(out_w) + " x " + std::to_string(out_h) + " pixels");
    if (interpolation == "nearest") {
        if (out_w == image.width && out_h == image.height) return image;
        return resize_nearest(image, out_w, out_h);
    }
    const Filter filter = filter_for(interpolation);
    const bool horizontal = out_w != image.width, vertical = out_h != image.height;
    if (!horizontal && !vertical) return image;

    Taps rows = compute_taps(image.height, out_h, filter);
    Image narrowed;
    const Image* source = &image;
    if (horizontal) {
        // Only the rows the vertical pass reads (all of them when the height stays).
        const int first_row = vertical ? rows.first.front() : 0;
        const int end_row = vertical ? rows.first.back() + rows.count.back() : image.height;
        narrowed = blank(out_w, end_row - first_row);
        resample_horizontal(image, first_row, compute_taps(image.width, out_w, filter), narrowed);
        for (int& first : rows.first) first -= first_row;
        if (!vertical) return narrowed;
        source = &narrowed;
    }
    Image out = blank(source->width, out_h);
    resample_vertical(*source, rows, out);
    return out;
}

Input preprocess(const Image& image, const PreprocessConfig& cfg, int input_size) {
    if (input_size < 0) throw Error("the input size must be positive, not " + std::to_string(input_size));
    const int size = input_size > 0 ? input_size : cfg.input_size;
    if (size <= 0) throw Error("the model's input size must be positive, not " + std::to_string(size));
    if (image.width <= 0 || image.height <= 0) throw Error("cannot preprocess an empty image");
    // The input itself is size x size floats: bound it like a photo.
    if (static_cast<long long>(size) * size > kMaxImagePixels)
        throw Error("an input of " + std::to_string(size) + " x " + std::to_string(size) + " px is over 64 megapixels");
    if (cfg.hf) return detail::preprocess_hf(image, cfg, input_size);
    if (!(cfg.crop_pct > 0.0f)) throw Error("crop_pct must be positive");

    // timm: scale_size = floor(img_size / crop_pct); torchvision Resize(int)
    // gives the shorter side that length and the longer int(scale * long / short).
    const detail::Size resized_size = detail::shorter_side_to(image, resize_side(cfg, size));
    const Image resized = resize_pil(image, resized_size.w, resized_size.h, cfg.interpolation);

    detail::ValueTable values;
    for (int c = 0; c < 3; ++c)
        for (int v = 0; v < 256; ++v)  // ToTensor then Normalize, in float32 and in that order, as torchvision does
            values[c][v] = (static_cast<float>(v) / 255.0f - cfg.mean[c]) / cfg.std[c];
    const int left = crop_offset(resized.width, size), top = crop_offset(resized.height, size);
    return detail::cut_input(resized, left, top, size, values, image.width,
                             image.height);  // torchvision pads with black
}

}  // namespace vit
