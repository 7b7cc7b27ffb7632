#include "gfx/gif_writer.h"

#include <gif_lib.h>

#include <cstdio>
#include <vector>

#include "gfx/gif_palette.h"
#include "vit/base/error.h"

namespace gfx {
namespace {

[[noreturn]] void fail(const std::string& path, int code) {
    const char* why = GifErrorString(code);
    throw vit::Error("cannot write " + path + ": " + (why ? why : "giflib error " + std::to_string(code)));
}

}  // namespace

GifWriter::GifWriter(const std::string& path, int width, int height, const vit::OutputRules& rules, bool dither,
                     std::vector<std::array<uint8_t, 3>> fixed_colours)
    : path_(path),
      temp_(std::make_unique<vit::OutputTemp>(path, rules)),
      width_(width),
      height_(height),
      dither_(dither),
      fixed_(std::move(fixed_colours)) {
    // Opened by the output rule rather than by giflib, which would make the file readable by its owner alone.
    int error = 0;
    gif_ = EGifOpenFileHandle(temp_->fd(), &error);
    if (!gif_) fail(path_, error);
    temp_->release_fd();            // giflib closes it
    EGifSetGifVersion(gif_, true);  // GIF89a: delays and the loop
    if (EGifPutScreenDesc(gif_, width, height, 8, 0, nullptr) == GIF_ERROR) fail(path_, gif_->Error);
    // The Netscape application extension: loop forever (count 0).
    const unsigned char netscape[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    const unsigned char loop[] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif_, sizeof netscape, netscape) == GIF_ERROR ||
        EGifPutExtensionBlock(gif_, sizeof loop, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif_) == GIF_ERROR)
        fail(path_, gif_->Error);
}

GifWriter::~GifWriter() {
    if (!gif_) return;
    int error = 0;
    EGifCloseFile(gif_, &error);  // temp_ then removes the file
}

void GifWriter::add(const RgbaImage& frame, int delay_ms) {
    if (frame.width != width_ || frame.height != height_)
        throw vit::Error("a frame of " + std::to_string(frame.width) + " x " + std::to_string(frame.height) +
                         " in a GIF of " + std::to_string(width_) + " x " + std::to_string(height_));
    IndexedFrame indexed = quantize_frame(frame, dither_, fixed_);
    // GIF palettes have a power-of-two size; unused entries stay black.
    std::vector<GifColorType> palette(256);
    for (size_t i = 0; i < indexed.palette.size(); ++i)
        palette[i] = {indexed.palette[i][0], indexed.palette[i][1], indexed.palette[i][2]};
    ColorMapObject* map = GifMakeMapObject(256, palette.data());
    if (!map) throw vit::Error("cannot write " + path_ + ": out of memory");
    std::vector<uint8_t>& indices = indexed.indices;

    GraphicsControlBlock gcb{};
    gcb.DisposalMode = DISPOSE_DO_NOT;
    gcb.DelayTime = (delay_ms + 5) / 10;
    gcb.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    EGifGCBToExtension(&gcb, extension);
    bool ok = EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, sizeof extension, extension) != GIF_ERROR &&
              EGifPutImageDesc(gif_, 0, 0, width_, height_, false, map) != GIF_ERROR;
    for (int y = 0; ok && y < height_; ++y)
        ok = EGifPutLine(gif_, &indices[static_cast<size_t>(y) * width_], width_) != GIF_ERROR;
    GifFreeMapObject(map);
    if (!ok) fail(path_, gif_->Error);
}

void GifWriter::finish() {
    int error = 0;
    const int closed = EGifCloseFile(gif_, &error);
    gif_ = nullptr;
    if (closed == GIF_ERROR) fail(path_, error);
    temp_->commit();
}

}  // namespace gfx
