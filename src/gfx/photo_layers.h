// The photo as a map shows it under its values: sampled from its mipmapped
// texture, dimmed outside the model's crop, the background beyond its edges.
// Drawn once per photo, view and size into an RGBA8 target and kept for every
// map that shares them, which overlay.frag then reads one texel per pixel:
// llvmpipe's filtered sampling of the photo took about a quarter of the
// maps' time, and a window shows 48 maps of one size over one photo.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "gfx/overlay_style.h"
#include "gfx/render_target.h"
#include "gfx/textures.h"
#include "vit/image/preprocess.h"

namespace gfx {

// Sets program's vec4 `name` to rect (photo pixels) in the photo's uv: x0, y0, x1, y1.
void set_photo_rect(GLuint program, const char* name, const vit::CropRect& rect, const PhotoTexture& photo);

class PhotoLayers {
public:
    PhotoLayers();
    ~PhotoLayers();
    PhotoLayers(const PhotoLayers&) = delete;
    PhotoLayers& operator=(const PhotoLayers&) = delete;

    // The layer for a width x height viewport showing `view` of the photo
    // (photo pixels), with the style's dimming and background, drawn now
    // unless kept from before.
    const RenderTarget& get(const PhotoTexture& photo, const vit::CropRect& crop, const vit::CropRect& view, int width,
                            int height, const OverlayStyle& style);

private:
    // What a layer shows, but for the photo's content: a new upload to the
    // same texture (the next photo opened) is drawn again into the same storage.
    struct Key {
        GLuint texture = 0;
        vit::CropRect crop, view;
        int width = 0, height = 0;
        float dim = 0;
        std::array<float, 3> background{};
        bool operator==(const Key&) const = default;
    };
    struct Layer {
        Key key;
        uint64_t photo_version = 0;  // the upload drawn
        RenderTarget target;
        uint64_t last_used = 0;
    };
    Layer& slot_for(const Key& key);
    void draw(const PhotoTexture& photo, const Key& key, RenderTarget& target);

    std::vector<Layer> layers_;
    uint64_t uses_ = 0;
    GLuint program_ = 0, vao_ = 0;
};

}  // namespace gfx
