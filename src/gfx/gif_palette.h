// One frame reduced to a GIF's 256 colours by libimagequant (Debian
// libimagequant-dev), the quantizer pngquant and gifski use. giflib's own
// median cut split the colour bar into bands and averaged low map weights
// over the photo into grey-brown colours found nowhere in the frame;
// libimagequant picks palette entries that minimise the error the eye sees,
// so the palette holds the colormap's and the photo's own colours.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "gfx/rgba_image.h"

namespace gfx {

struct IndexedFrame {
    std::vector<std::array<uint8_t, 3>> palette;  // at most 256 colours
    std::vector<uint8_t> indices;                 // width * height, row by row
};

// dither: Floyd-Steinberg error diffusion over the palette (smoother bar,
// grainier photo) or plain nearest colours. fixed: colours every palette
// keeps (libimagequant's fixed colours), e.g. samples of the colour bar: the
// bar is a small part of the frame, and left to the quantizer alone it got
// 26 colours for 423 px and showed bands. Throws vit::Error.
IndexedFrame quantize_frame(const RgbaImage& frame, bool dither, const std::vector<std::array<uint8_t, 3>>& fixed = {});

}  // namespace gfx
