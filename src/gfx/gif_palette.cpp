#include "gfx/gif_palette.h"

#include <libimagequant.h>

#include <memory>

#include "vit/base/error.h"

namespace gfx {
namespace {

struct AttrDeleter {
    void operator()(liq_attr* a) const { liq_attr_destroy(a); }
};
struct ImageDeleter {
    void operator()(liq_image* i) const { liq_image_destroy(i); }
};
struct ResultDeleter {
    void operator()(liq_result* r) const { liq_result_destroy(r); }
};

}  // namespace

IndexedFrame quantize_frame(const RgbaImage& frame, bool dither, const std::vector<std::array<uint8_t, 3>>& fixed) {
    std::unique_ptr<liq_attr, AttrDeleter> attr(liq_attr_create());
    if (!attr) throw vit::Error("cannot reduce a frame to 256 colours: out of memory");
    liq_set_max_colors(attr.get(), 256);
    liq_set_speed(attr.get(), 4);  // libimagequant's default balance of time and quality
    std::unique_ptr<liq_image, ImageDeleter> image(
        liq_image_create_rgba(attr.get(), frame.pixels.data(), frame.width, frame.height, 0));
    if (!image) throw vit::Error("cannot reduce a frame to 256 colours: bad frame");
    for (const auto& c : fixed)
        if (liq_image_add_fixed_color(image.get(), liq_color{c[0], c[1], c[2], 255}) != LIQ_OK)
            throw vit::Error("cannot reduce a frame to 256 colours: too many fixed colours");
    liq_result* raw = nullptr;
    if (liq_image_quantize(image.get(), attr.get(), &raw) != LIQ_OK || !raw)
        throw vit::Error("cannot reduce a frame to 256 colours");
    std::unique_ptr<liq_result, ResultDeleter> result(raw);
    liq_set_dithering_level(result.get(), dither ? 1.0f : 0.0f);

    IndexedFrame out;
    out.indices.resize(static_cast<size_t>(frame.width) * frame.height);
    if (liq_write_remapped_image(result.get(), image.get(), out.indices.data(), out.indices.size()) != LIQ_OK)
        throw vit::Error("cannot reduce a frame to 256 colours");
    const liq_palette* palette = liq_get_palette(result.get());
    for (unsigned i = 0; i < palette->count; ++i)
        out.palette.push_back({palette->entries[i].r, palette->entries[i].g, palette->entries[i].b});
    return out;
}

}  // namespace gfx
