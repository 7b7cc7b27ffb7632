// Photo textures and render targets keep their GL storage while what they
// hold fits (so the window's heap does not fragment over hundreds of photos),
// and what they show is still exactly the photo: drawn at 1:1 it is the
// photo's own pixels, drawn small its borders are not darkened by the spare
// storage around it. Runs on a real GL context (EGL surfaceless, llvmpipe).
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "gfx/headless_context.h"
#include "gfx/overlay_renderer.h"
#include "gfx/render_target.h"
#include "gfx/textures.h"

namespace {

vit::Image random_photo(int w, int h, unsigned seed) {
    vit::Image im;
    im.width = w;
    im.height = h;
    im.rgb.resize(static_cast<size_t>(w) * h * 3);
    std::mt19937 rng(seed);
    for (auto& v : im.rgb) v = static_cast<uint8_t>(rng() & 0xff);
    return im;
}

vit::Image flat_photo(int w, int h, uint8_t value) {
    vit::Image im = random_photo(w, h, 0);
    std::fill(im.rgb.begin(), im.rgb.end(), value);
    return im;
}

// The GL texture's own level-0 size, not what the class says of itself.
std::pair<int, int> storage_size(GLuint tex) {
    GLint w = 0, h = 0;
    glBindTexture(GL_TEXTURE_2D, tex);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h);
    return {w, h};
}

// The photo drawn whole, with no map, into a w x h target.
gfx::RgbaImage draw(gfx::OverlayRenderer& r, gfx::RenderTarget& target, const gfx::PhotoTexture& photo, int w, int h) {
    target.resize(w, h);
    target.bind();
    const vit::CropRect whole{0, 0, static_cast<double>(photo.width()), static_cast<double>(photo.height())};
    r.draw(photo, whole, nullptr, gfx::OverlayStyle{}, gfx::Marks{});
    return target.read();
}

int max_difference_from_photo(const gfx::RgbaImage& shown, const vit::Image& photo) {
    int worst = 0;
    for (int y = 0; y < photo.height; ++y)
        for (int x = 0; x < photo.width; ++x)
            for (int c = 0; c < 3; ++c)
                worst = std::max(worst, std::abs(int(shown.at(x, y)[c]) - int(photo.at(x, y, c))));
    return worst;
}

class TextureStorage : public ::testing::Test {
protected:
    gfx::HeadlessContext gl;
    gfx::OverlayRenderer renderer;
};

TEST_F(TextureStorage, APhotoThatFitsReusesTheStorageAndShowsItsOwnPixels) {
    gfx::PhotoTexture texture;
    gfx::RenderTarget target;
    const vit::Image wide = random_photo(600, 400, 1), tall = random_photo(300, 500, 2),
                     small = random_photo(270, 190, 3);

    texture.upload(wide);
    EXPECT_EQ(max_difference_from_photo(draw(renderer, target, texture, 600, 400), wide), 0);
    texture.upload(tall);  // taller than the storage: it grows to hold both
    const auto grown = storage_size(texture.id());
    EXPECT_GE(grown.first, 600);
    EXPECT_GE(grown.second, 500);
    EXPECT_EQ(max_difference_from_photo(draw(renderer, target, texture, 300, 500), tall), 0);

    for (const vit::Image* im : {&wide, &small, &tall}) {
        texture.upload(*im);
        EXPECT_EQ(storage_size(texture.id()), grown) << im->width << " x " << im->height;
        EXPECT_FLOAT_EQ(texture.u_max(), static_cast<float>(im->width) / grown.first);
        EXPECT_FLOAT_EQ(texture.v_max(), static_cast<float>(im->height) / grown.second);
        const gfx::RgbaImage shown = draw(renderer, target, texture, im->width, im->height);
        ASSERT_EQ(shown.width, im->width);
        ASSERT_EQ(shown.height, im->height);
        EXPECT_EQ(max_difference_from_photo(shown, *im), 0) << im->width << " x " << im->height;
    }
    // Far smaller photos get storage of their own size class again.
    const vit::Image tiny = random_photo(40, 30, 4);
    texture.upload(tiny);
    EXPECT_LT(storage_size(texture.id()).first, grown.first);
    EXPECT_EQ(max_difference_from_photo(draw(renderer, target, texture, 40, 30), tiny), 0);
}

// The photo under the maps is drawn once per texture, view and size and
// kept (gfx::PhotoLayers): the next photo uploaded to the same texture, at
// the same size and view, must show instead of the kept one; and two
// textures drawn alike in turn each show their own photo.
TEST_F(TextureStorage, ANewPhotoInTheSameTextureShowsAtTheSameSize) {
    gfx::PhotoTexture texture, other;
    gfx::RenderTarget target;
    const vit::Image first = random_photo(320, 240, 5), second = random_photo(320, 240, 6),
                     third = random_photo(320, 240, 7);
    other.upload(third);
    for (const vit::Image* im : {&first, &second, &first}) {
        texture.upload(*im);
        EXPECT_EQ(max_difference_from_photo(draw(renderer, target, texture, 320, 240), *im), 0);
        EXPECT_EQ(max_difference_from_photo(draw(renderer, target, other, 320, 240), third), 0);
    }
}

// The photo layers keep at most 16 M pixels; a larger one (the photo panel
// of a 12000 x 12000 window, issue 33) found no layer to reuse and crashed.
// It is drawn, and smaller ones after it are kept as before.
TEST_F(TextureStorage, APhotoLayerLargerThanTheLayersBudgetIsDrawn) {
    gfx::PhotoTexture texture;
    gfx::RenderTarget target;
    const vit::Image grey = flat_photo(320, 240, 200);
    texture.upload(grey);
    for (const auto& [w, h] : {std::pair{6000, 4500}, {320, 240}, {5000, 5000}}) {
        const gfx::RgbaImage shown = draw(renderer, target, texture, w, h);
        ASSERT_EQ(shown.width, w);
        ASSERT_EQ(shown.height, h);
        EXPECT_NEAR(shown.at(w / 2, h / 2)[0], 200, 1) << w << " x " << h;
        EXPECT_NEAR(shown.at(w - 2, h - 2)[1], 200, 1) << w << " x " << h;
    }
}

TEST_F(TextureStorage, ASmallDrawingOfAPhotoHasNoDarkBorder) {
    // Mipmaps average the spare storage into the photo's last texels: it must
    // repeat the photo's edge, so a white photo stays white however small.
    gfx::PhotoTexture texture;
    gfx::RenderTarget target;
    texture.upload(random_photo(900, 700, 5));  // storage larger than the next photo needs
    const vit::Image white = flat_photo(301, 203, 255);
    texture.upload(white);
    ASSERT_LT(texture.u_max(), 1.f);
    for (int w : {150, 75, 37, 9}) {
        const int h = std::max(1, w * 203 / 301);
        const gfx::RgbaImage shown = draw(renderer, target, texture, w, h);
        int darkest = 255;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                for (int c = 0; c < 3; ++c) darkest = std::min(darkest, int(shown.at(x, y)[c]));
        EXPECT_GE(darkest, 254) << "drawn " << w << " x " << h;
    }
}

TEST_F(TextureStorage, ARenderTargetKeepsItsStorageAndReadsBackTheSizeInUse) {
    gfx::PhotoTexture texture;
    gfx::RenderTarget target;
    const vit::Image big = random_photo(500, 300, 6), small = random_photo(200, 360, 7);
    texture.upload(big);
    draw(renderer, target, texture, 500, 300);
    texture.upload(small);
    const gfx::RgbaImage shown = draw(renderer, target, texture, 200, 360);  // taller: each side grows to the larger
    const auto storage = storage_size(target.texture());
    EXPECT_EQ(storage, std::make_pair(500, 360));
    EXPECT_EQ(max_difference_from_photo(shown, small), 0);
    EXPECT_FLOAT_EQ(target.u_max(), 200.f / storage.first);
    EXPECT_FLOAT_EQ(target.v_max(), 360.f / storage.second);

    target.resize(300, 200);  // fits, and uses more than a quarter: kept
    EXPECT_EQ(storage_size(target.texture()), storage);
    target.resize(20, 20);  // under a quarter of the storage: given back
    EXPECT_LT(storage_size(target.texture()).first, storage.first);
}

}  // namespace
