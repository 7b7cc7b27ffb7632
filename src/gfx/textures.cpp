#include "gfx/textures.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "vit/base/error.h"

namespace gfx {
namespace {

// Averages factor x factor blocks, for photos beyond the GPU's texture limit.
std::vector<uint8_t> shrink(const vit::Image& im, int factor, int& out_w, int& out_h) {
    out_w = (im.width + factor - 1) / factor;
    out_h = (im.height + factor - 1) / factor;
    std::vector<uint8_t> out(static_cast<size_t>(out_w) * out_h * 3);
    for (int y = 0; y < out_h; ++y)
        for (int x = 0; x < out_w; ++x) {
            const int x1 = std::min(im.width, (x + 1) * factor), y1 = std::min(im.height, (y + 1) * factor);
            for (int c = 0; c < 3; ++c) {
                unsigned sum = 0, n = 0;
                for (int yy = y * factor; yy < y1; ++yy)
                    for (int xx = x * factor; xx < x1; ++xx, ++n) sum += im.at(xx, yy, c);
                out[(static_cast<size_t>(y) * out_w + x) * 3 + c] = static_cast<uint8_t>((sum + n / 2) / n);
            }
        }
    return out;
}

// The smallest of 256, 320, 384, 448, 512, 640, ... (quarter steps between
// powers of two, so at most a quarter of a side is spare) that holds side,
// and at most the GPU's limit.
int side_class(int side, int max_size) {
    int c = 256;
    while (c < side) c += static_cast<int>(std::bit_floor(static_cast<unsigned>(c)) / 4);
    return std::min(c, max_size);
}

// Copies w x h RGB pixels into the top-left of a cw x ch buffer and repeats
// the last column and row into the rest.
void pad_with_edges(const uint8_t* src, int w, int h, std::vector<uint8_t>& dst, int cw, int ch) {
    const size_t row = static_cast<size_t>(cw) * 3;
    for (int y = 0; y < ch; ++y) {
        uint8_t* out = dst.data() + y * row;
        if (y >= h) {
            std::copy_n(dst.data() + (h - 1) * row, row, out);
            continue;
        }
        std::copy_n(src + static_cast<size_t>(y) * w * 3, static_cast<size_t>(w) * 3, out);
        for (int x = w; x < cw; ++x) std::copy_n(out + (w - 1) * 3, 3, out + x * 3);
    }
}

}  // namespace

void warm_up_photo_textures() {
    for (const auto& [w, h] : {std::pair{256, 256}, {320, 256}, {256, 320}, {320, 320}}) {  // side classes
        vit::Image grey;
        grey.width = w, grey.height = h;
        grey.rgb.assign(static_cast<size_t>(w) * h * 3, 128);
        PhotoTexture().upload(grey);
    }
}

void PhotoTexture::upload(const vit::Image& image, Filter filter) {
    if (image.width <= 0 || image.height <= 0) throw vit::Error("cannot show an empty photo");
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    int factor = 1;
    while ((image.width + factor - 1) / factor > max_size || (image.height + factor - 1) / factor > max_size) ++factor;

    int tw = image.width, th = image.height;
    std::vector<uint8_t> shrunk;
    const uint8_t* data = image.rgb.data();
    if (factor > 1) {
        shrunk = shrink(image, factor, tw, th);
        data = shrunk.data();
    }
    const Extent storage = storage_for({side_class(tw, max_size), side_class(th, max_size)}, capacity_);
    const bool allocate = !tex_ || storage != capacity_;
    staging_.resize(static_cast<size_t>(storage.w) * storage.h * 3);
    if (allocate) staging_.shrink_to_fit();
    pad_with_edges(data, tw, th, staging_, storage.w, storage.h);

    if (!tex_) glGenTextures(1, &tex_);
    GLint unpack = 4;
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &unpack);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);  // RGB rows need not be 4-byte aligned
    glBindTexture(GL_TEXTURE_2D, tex_);
    if (allocate)
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, storage.w, storage.h, 0, GL_RGB, GL_UNSIGNED_BYTE, staging_.data());
    else glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, storage.w, storage.h, GL_RGB, GL_UNSIGNED_BYTE, staging_.data());
    capacity_ = storage;
    texels_w_ = tw;
    texels_h_ = th;
    if (filter == Filter::Smooth) {
        glGenerateMipmap(GL_TEXTURE_2D);  // clean downscaling when the view is smaller than the photo
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    } else {
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, unpack);
    w_ = image.width;
    h_ = image.height;
    static std::atomic<uint64_t> uploads{0};
    version_ = ++uploads;
}

PhotoTexture::PhotoTexture(PhotoTexture&& o) noexcept { *this = std::move(o); }

PhotoTexture& PhotoTexture::operator=(PhotoTexture&& o) noexcept {
    std::swap(tex_, o.tex_);  // o's destructor frees what this held
    std::swap(version_, o.version_);
    std::swap(w_, o.w_);
    std::swap(h_, o.h_);
    std::swap(texels_w_, o.texels_w_);
    std::swap(texels_h_, o.texels_h_);
    std::swap(capacity_, o.capacity_);
    std::swap(staging_, o.staging_);
    return *this;
}

PhotoTexture::~PhotoTexture() {
    if (tex_) glDeleteTextures(1, &tex_);
}

void GridTexture::upload(const std::vector<float>& values, int grid) {
    if (grid <= 0 || values.size() != static_cast<size_t>(grid) * grid)
        throw vit::Error("grid texture: " + std::to_string(values.size()) + " values for a " + std::to_string(grid) +
                         " x " + std::to_string(grid) + " grid");
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (float v : values)
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    min_ = std::isfinite(lo) ? lo : 0.f;
    max_ = std::isfinite(hi) ? hi : 0.f;

    if (!tex_) glGenTextures(1, &tex_);
    glBindTexture(GL_TEXTURE_2D, tex_);
    GLint unpack = 4;
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &unpack);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, grid, grid, 0, GL_RED, GL_FLOAT, values.data());
    glPixelStorei(GL_UNPACK_ALIGNMENT, unpack);
    // The shader reads texels with texelFetch; the filter only matters to anyone else.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    grid_ = grid;
}

GridTexture::GridTexture(GridTexture&& o) noexcept { *this = std::move(o); }

GridTexture& GridTexture::operator=(GridTexture&& o) noexcept {
    std::swap(tex_, o.tex_);
    std::swap(grid_, o.grid_);
    std::swap(min_, o.min_);
    std::swap(max_, o.max_);
    return *this;
}

GridTexture::~GridTexture() {
    if (tex_) glDeleteTextures(1, &tex_);
}

}  // namespace gfx
