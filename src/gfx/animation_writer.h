// An animation written one frame at a time (a long sweep never sits in memory
// whole), whole or not at all: the file appears at its path only when
// finish() succeeds, and a writer destroyed before that leaves nothing.
// OUT.gif: 256 colours a frame (gif_writer.h); OUT.webp: full colour,
// lossless (webp_anim_writer.h).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gfx/rgba_image.h"
#include "vit/base/output_file.h"

namespace gfx {

class AnimationWriter {
public:
    virtual ~AnimationWriter() = default;
    // delay_ms: how long the frame shows. Every frame has the first one's size.
    virtual void add(const RgbaImage& frame, int delay_ms) = 0;
    virtual void finish() = 0;
};

struct AnimationOptions {
    vit::OutputRules rules;  // how the file may be written (vit/base/output_file.h)
    bool dither = false;     // GIF only: error diffusion over the 256 colours
    // GIF only: colours every frame's palette keeps (the colour bar's samples, gif_palette.h).
    std::vector<std::array<uint8_t, 3>> fixed_colours;
};

// The writer for PATH's extension (.gif or .webp, any case). Throws vit::Error.
std::unique_ptr<AnimationWriter> open_animation(const std::string& path, int width, int height,
                                                const AnimationOptions& options = {});

// Whether PATH ends in .webp (any case): the one place the choice is made.
bool is_webp_path(const std::string& path);

}  // namespace gfx
