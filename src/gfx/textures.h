// The textures the overlay renderer draws from: the photo (RGB) and a map's
// grid of values (one float per patch).
#pragma once
#include <cstdint>
#include <vector>

#include "gfx/gl.h"

#include "gfx/storage_size.h"

#include "vit/image/image.h"

namespace gfx {

// GL objects below need a current context for every call, the destructor included.
class PhotoTexture {
public:
    PhotoTexture() = default;
    PhotoTexture(const PhotoTexture&) = delete;  // owns a GL name: move, never copy
    PhotoTexture& operator=(const PhotoTexture&) = delete;
    PhotoTexture(PhotoTexture&& other) noexcept;
    PhotoTexture& operator=(PhotoTexture&& other) noexcept;
    // Photos larger than GL_MAX_TEXTURE_SIZE are box-filtered down to fit;
    // width()/height() stay the photo's own, which crop rectangles refer to.
    // Smooth: mipmapped and bilinear (photos); Nearest: each pixel a sharp
    // square when magnified (images of cells, e.g. a mosaic of small maps).
    enum class Filter { Smooth, Nearest };
    void upload(const vit::Image& image, Filter filter = Filter::Smooth);
    GLuint id() const { return tex_; }
    // New with every upload and never shared between textures: what was drawn
    // from one upload (PhotoLayers) knows when it is stale.
    uint64_t version() const { return version_; }
    int width() const { return w_; }
    int height() const { return h_; }
    // The photo fills the texture's top-left (u_max x v_max) share: storage
    // comes in size classes (sides 256, 320, 384, 448, 512, 640, ...) and is
    // kept while photos fit (storage_size.h). The rest repeats the photo's
    // edge pixels, so mipmaps do not darken its borders.
    float u_max() const { return capacity_.w > 0 ? static_cast<float>(texels_w_) / capacity_.w : 1.f; }
    float v_max() const { return capacity_.h > 0 ? static_cast<float>(texels_h_) / capacity_.h : 1.f; }
    ~PhotoTexture();

private:
    GLuint tex_ = 0;
    uint64_t version_ = 0;
    int w_ = 0, h_ = 0;                // the photo's own size
    int texels_w_ = 0, texels_h_ = 0;  // its size in the texture (smaller beyond GL_MAX_TEXTURE_SIZE)
    Extent capacity_;                  // the GL storage's size
    std::vector<uint8_t> staging_;     // capacity-sized RGB, kept for the same reason
};

// Mipmaps for a texture whose sides are, or are not, powers of two: Mesa's
// software renderer builds code for each such pair the first time (about
// 100 ms on 2 cores), which the first photo of a new shape waited for. Done
// once at start-up for all four pairs, on small throwaway textures.
void warm_up_photo_textures();

// grid x grid float values (row-major from the top-left patch), R32F.
class GridTexture {
public:
    GridTexture() = default;
    GridTexture(const GridTexture&) = delete;
    GridTexture& operator=(const GridTexture&) = delete;
    GridTexture(GridTexture&& other) noexcept;
    GridTexture& operator=(GridTexture&& other) noexcept;
    void upload(const std::vector<float>& values, int grid);  // values.size() must be grid*grid
    GLuint id() const { return tex_; }
    int grid() const { return grid_; }
    float min_value() const { return min_; }  // of the finite values uploaded
    float max_value() const { return max_; }
    ~GridTexture();

private:
    GLuint tex_ = 0;
    int grid_ = 0;
    float min_ = 0.f, max_ = 0.f;
};

}  // namespace gfx
