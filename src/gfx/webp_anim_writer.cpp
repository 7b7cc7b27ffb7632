#include "gfx/webp_anim_writer.h"

#include <webp/encode.h>
#include <webp/mux.h>

#include <string_view>

#include "vit/base/error.h"
#include "vit/base/output_file.h"

namespace gfx {

WebpAnimWriter::WebpAnimWriter(const std::string& path, int width, int height, const vit::OutputRules& rules)
    : path_(path), rules_(rules), width_(width), height_(height) {
    WebPAnimEncoderOptions options;
    if (!WebPAnimEncoderOptionsInit(&options)) throw vit::Error("cannot write " + path_ + ": libwebp version mismatch");
    options.anim_params.loop_count = 0;  // forever
    encoder_ = WebPAnimEncoderNew(width, height, &options);
    if (!encoder_)
        throw vit::Error("cannot write " + path_ + ": a " + std::to_string(width) + " x " + std::to_string(height) +
                         " WebP animation is refused by libwebp");
}

WebpAnimWriter::~WebpAnimWriter() {
    if (encoder_) WebPAnimEncoderDelete(encoder_);
}

void WebpAnimWriter::add(const RgbaImage& frame, int delay_ms) {
    if (frame.width != width_ || frame.height != height_)
        throw vit::Error("a frame of " + std::to_string(frame.width) + " x " + std::to_string(frame.height) +
                         " in a WebP of " + std::to_string(width_) + " x " + std::to_string(height_));
    WebPConfig config;
    if (!WebPConfigInit(&config)) throw vit::Error("cannot write " + path_ + ": libwebp version mismatch");
    config.lossless = 1;
    // Lossless effort: 0 to 6 and quality 0 to 100 trade time for size only,
    // never colours. Method 1 keeps a 196-frame sweep within seconds.
    config.method = 1;
    config.quality = 25;
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) throw vit::Error("cannot write " + path_ + ": libwebp version mismatch");
    picture.use_argb = 1;
    picture.width = width_;
    picture.height = height_;
    bool ok = WebPPictureImportRGBA(&picture, frame.pixels.data(), width_ * 4) &&
              WebPAnimEncoderAdd(encoder_, &picture, timestamp_ms_, &config);
    WebPPictureFree(&picture);
    if (!ok) throw vit::Error("cannot write " + path_ + ": " + WebPAnimEncoderGetError(encoder_));
    timestamp_ms_ += delay_ms;
}

void WebpAnimWriter::finish() {
    WebPData data;
    WebPDataInit(&data);
    // The last frame's end: a null frame at the time it stops showing.
    const bool ok =
        WebPAnimEncoderAdd(encoder_, nullptr, timestamp_ms_, nullptr) && WebPAnimEncoderAssemble(encoder_, &data);
    if (!ok) {
        WebPDataClear(&data);
        throw vit::Error("cannot write " + path_ + ": " + WebPAnimEncoderGetError(encoder_));
    }
    try {
        vit::write_output(path_, std::string_view(reinterpret_cast<const char*>(data.bytes), data.size), rules_);
    } catch (...) {
        WebPDataClear(&data);
        throw;
    }
    WebPDataClear(&data);
}

}  // namespace gfx
