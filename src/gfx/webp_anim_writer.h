// Animated WebP through libwebp's animation encoder (Debian libwebp-dev:
// libwebpmux's WebPAnimEncoder): every frame in full colour, lossless, so
// the map's colours are exactly the figure's; looping forever. The encoder
// keeps the compressed frames; finish() writes the file whole (atomic_file.h).
#pragma once
#include <string>

#include "gfx/animation_writer.h"

struct WebPAnimEncoder;

namespace gfx {

class WebpAnimWriter : public AnimationWriter {
public:
    // Throws vit::Error naming the path.
    WebpAnimWriter(const std::string& path, int width, int height, const vit::OutputRules& rules);
    ~WebpAnimWriter() override;
    WebpAnimWriter(const WebpAnimWriter&) = delete;
    WebpAnimWriter& operator=(const WebpAnimWriter&) = delete;

    void add(const RgbaImage& frame, int delay_ms) override;
    void finish() override;

private:
    std::string path_;
    vit::OutputRules rules_;
    int width_, height_;
    int timestamp_ms_ = 0;
    WebPAnimEncoder* encoder_ = nullptr;
};

}  // namespace gfx
