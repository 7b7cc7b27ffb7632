// Animated GIFs through giflib (Debian libgif-dev): frames added one at a
// time (a long sweep never sits in memory whole), each reduced to its own
// 256-colour palette by libimagequant (gif_palette.h), looping forever. The file is
// written under the output rule (vit/base/output_file.h): a temporary name of
// this run's, renamed into place by finish(); a writer destroyed before that
// removes its temporary file, so a failure leaves nothing.
#pragma once
#include <memory>
#include <string>

#include "gfx/animation_writer.h"
#include "vit/base/output_file.h"

struct GifFileType;

namespace gfx {

class GifWriter : public AnimationWriter {
public:
    // Every frame is width x height. Throws vit::Error naming the path.
    GifWriter(const std::string& path, int width, int height, const vit::OutputRules& rules, bool dither = false,
              std::vector<std::array<uint8_t, 3>> fixed_colours = {});
    ~GifWriter() override;
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    // delay_ms: how long the frame shows (GIF counts in 1/100 s).
    void add(const RgbaImage& frame, int delay_ms) override;
    void finish() override;

private:
    std::string path_;
    std::unique_ptr<vit::OutputTemp> temp_;
    int width_, height_;
    bool dither_;
    std::vector<std::array<uint8_t, 3>> fixed_;
    GifFileType* gif_ = nullptr;
};

}  // namespace gfx
