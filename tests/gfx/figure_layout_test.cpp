// Where the exported figure puts things (gfx::figure_layout), as properties
// over photo shapes and figure sizes: every part inside the figure, no two
// overlapping, the photo's shape kept, the crop inside the photo. GL-free.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "gfx/figure.h"
#include "vit/base/error.h"

namespace {

using gfx::PixelRect;

bool inside(const PixelRect& r, int width, int height) {
    return r.x >= 0 && r.y >= 0 && r.w > 0 && r.h > 0 && r.x + r.w <= width && r.y + r.h <= height;
}

bool overlap(const PixelRect& a, const PixelRect& b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

struct Case {
    int photo_w, photo_h;
    vit::CropRect crop;
};

// The crop a centre-crop preprocessing would take: the middle square.
vit::CropRect centre_square(int w, int h) {
    const double side = std::min(w, h);
    return {(w - side) / 2, (h - side) / 2, side, side};
}

TEST(FigureLayoutTest, PartsInsideTheFigureAndApart) {
    std::vector<Case> cases;
    for (auto [w, h] : {std::pair{640, 480}, {480, 640}, {224, 224}, {4000, 3000}, {3000, 100}, {100, 3000}, {1, 1}})
        cases.push_back({w, h, centre_square(w, h)});
    cases.push_back({500, 400, {0, 0, 500, 400}});  // squashed to the input: the whole photo
    for (const Case& c : cases)
        for (int size : {64, 300, 1024, 2048, 4096}) {
            SCOPED_TRACE(testing::Message() << c.photo_w << " x " << c.photo_h << " photo, size " << size);
            vit::Image photo;
            photo.width = c.photo_w;
            photo.height = c.photo_h;
            gfx::FigureSpec spec;
            spec.photo = &photo;
            spec.crop = c.crop;
            spec.grid = 14;
            spec.size = size;
            const gfx::FigureLayout L = gfx::figure_layout(spec);

            EXPECT_TRUE(inside(L.photo_panel, L.width, L.height));
            EXPECT_TRUE(inside(L.map_panel, L.width, L.height));
            EXPECT_TRUE(inside(L.colorbar, L.width, L.height));
            EXPECT_FALSE(overlap(L.photo_panel, L.map_panel));
            EXPECT_FALSE(overlap(L.photo_panel, L.colorbar));
            EXPECT_FALSE(overlap(L.map_panel, L.colorbar));
            EXPECT_LT(L.photo_panel.x + L.photo_panel.w, L.map_panel.x);  // a gap between the panels
            EXPECT_GE(L.colorbar.y, L.map_panel.y + L.map_panel.h);       // the bar under the map

            // The photo panel's long side is the size asked for, its shape the photo's (to a pixel).
            EXPECT_EQ(std::max(L.photo_panel.w, L.photo_panel.h), size);
            const double aspect = double(c.photo_w) / c.photo_h;
            if (aspect >= 1) {
                EXPECT_NEAR(L.photo_panel.h, std::max(1.0, size / aspect), 0.5 + 1e-9);
            } else {
                EXPECT_NEAR(L.photo_panel.w, std::max(1.0, size * aspect), 0.5 + 1e-9);
            }
            // The map panel is a square as tall as the photo, its bar as wide.
            EXPECT_EQ(L.map_panel.w, L.map_panel.h);
            EXPECT_EQ(L.map_panel.h, L.photo_panel.h);
            EXPECT_EQ(L.map_panel.y, L.photo_panel.y);
            EXPECT_EQ(L.colorbar.w, L.map_panel.w);
            EXPECT_FLOAT_EQ(L.unit, size / 2048.f);

            // The crop, scaled with the photo, lies inside the photo panel.
            const double eps = 1e-9 * size;
            EXPECT_GE(L.crop_x, -eps);
            EXPECT_GE(L.crop_y, -eps);
            EXPECT_LE(L.crop_x + L.crop_w, L.photo_panel.w + eps);
            EXPECT_LE(L.crop_y + L.crop_h, L.photo_panel.h + eps);
            EXPECT_NEAR(L.crop_w / L.photo_panel.w, c.crop.w / c.photo_w, 1e-9);
            EXPECT_NEAR(L.crop_h / L.photo_panel.h, c.crop.h / c.photo_h, 1e-9);
        }
}

TEST(FigureLayoutTest, TheLayoutScalesWithTheSize) {
    vit::Image photo;
    photo.width = 640, photo.height = 480;
    gfx::FigureSpec spec;
    spec.photo = &photo;
    spec.crop = centre_square(640, 480);
    spec.size = 1024;
    const gfx::FigureLayout small = gfx::figure_layout(spec);
    spec.size = 2048;
    const gfx::FigureLayout large = gfx::figure_layout(spec);
    // Margins, gaps and text room are in units of size / 2048: doubling the size doubles all (to rounding).
    EXPECT_NEAR(large.width, 2 * small.width, 4);
    EXPECT_NEAR(large.height, 2 * small.height, 4);
    EXPECT_NEAR(large.map_panel.x, 2 * small.map_panel.x, 2);
    EXPECT_NEAR(large.colorbar.y, 2 * small.colorbar.y, 2);
}

TEST(FigureLayoutTest, RefusesNoPhotoAndTinySizes) {
    gfx::FigureSpec spec;
    EXPECT_THROW(gfx::figure_layout(spec), vit::Error);
    vit::Image empty;
    spec.photo = &empty;
    EXPECT_THROW(gfx::figure_layout(spec), vit::Error);
    vit::Image photo;
    photo.width = photo.height = 8;
    spec.photo = &photo;
    spec.size = 63;
    EXPECT_THROW(gfx::figure_layout(spec), vit::Error);
    spec.size = 64;
    EXPECT_NO_THROW(gfx::figure_layout(spec));
}

TEST(AttentionCaptionTest, HeadOrMeanAndTheQuery) {
    EXPECT_EQ(gfx::attention_caption(8, 1, 78, 5, 7), "layer 8 \u00b7 head 1 \u00b7 query patch (5, 7) (token 78)");
    EXPECT_EQ(gfx::attention_caption(0, -1, 0, -1, -1), "layer 0 \u00b7 mean of heads \u00b7 query CLS");
    EXPECT_EQ(gfx::attention_caption(3, 2, 2, -1, -1), "layer 3 \u00b7 head 2 \u00b7 query token 2");
}

}  // namespace
