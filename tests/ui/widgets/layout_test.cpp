// The window's three panels (ui::compute_layout) at several window sizes and
// UI scales: side by side from the left edge to the right one, between the
// menu bar and the status bar, on whole pixels, never overlapping. Needs
// ImGui's ImVec2 only (no context, no display).
#include <cmath>

#include <gtest/gtest.h>

#include "ui/widgets/layout.h"

namespace {

// Menu and status bar heights at UI scale 1 (a 13 px font with ImGui's padding).
constexpr float kMenuBar = 19, kStatusBar = 26;

TEST(ComputeLayoutTest, PanelsFillTheWindowWithoutOverlap) {
    for (auto [w, h] : {std::pair{1280.f, 800.f},
                        {1600.f, 1000.f},
                        {1920.f, 1080.f},
                        {2560.f, 1440.f},
                        {3840.f, 2160.f},
                        {1366.f, 768.f},
                        {1001.f, 757.f}})
        for (float scale : {1.f, 1.25f, 1.5f, 2.f, 3.f}) {
            SCOPED_TRACE(testing::Message() << w << " x " << h << " at scale " << scale);
            const float top = kMenuBar * scale, bottom = kStatusBar * scale;
            const ui::Layout l = ui::compute_layout(ImVec2(w, h), top, bottom, false);
            const ui::PanelRect order[] = {l.photo, l.heads, l.math};
            float x = 0;
            for (const ui::PanelRect& p : order) {
                EXPECT_EQ(p.pos.x, x);                    // each starts where the last ended
                EXPECT_EQ(p.pos.x, std::floor(p.pos.x));  // on whole pixels
                EXPECT_GT(p.size.x, 0);
                EXPECT_EQ(p.pos.y, top);                // under the menu bar
                EXPECT_EQ(p.size.y, h - top - bottom);  // down to the status bar
                x += p.size.x;
            }
            EXPECT_EQ(x, w);  // the last reaches the right edge
            EXPECT_GE(l.photo.size.x, l.heads.size.x);
            EXPECT_GE(l.photo.size.x, l.math.size.x);  // the photo gets the most room
        }
}

// Classroom mode: the photo's column from the menu bar to the status bar on
// the left, the heads strip over the math step on the right; together they
// tile the window. The photo's column is wide enough for a 4:3 photo 360 px
// tall (480 px plus the panel's padding) from 1024 px on.
TEST(ComputeLayoutTest, ClassroomGivesThePhotoItsColumn) {
    for (auto [w, h] : {std::pair{1024.f, 768.f}, {1280.f, 720.f}, {1920.f, 1080.f}, {1366.f, 768.f}, {3840.f, 2160.f}})
        for (float scale : {1.5f, 2.f}) {
            SCOPED_TRACE(testing::Message() << w << " x " << h << " at scale " << scale);
            const float top = kMenuBar * scale, bottom = kStatusBar * scale, rest = h - top - bottom;
            const ui::Layout l = ui::compute_layout(ImVec2(w, h), top, bottom, true);
            EXPECT_EQ(l.photo.pos.x, 0);
            EXPECT_EQ(l.photo.pos.y, top);
            EXPECT_EQ(l.photo.size.y, rest);
            EXPECT_GE(l.photo.size.x, 500);
            EXPECT_EQ(l.photo.size.x, std::floor(l.photo.size.x));
            for (const ui::PanelRect& p : {l.heads, l.math}) {
                EXPECT_EQ(p.pos.x, l.photo.size.x);
                EXPECT_EQ(p.pos.x + p.size.x, w);
            }
            EXPECT_EQ(l.heads.pos.y, top);
            EXPECT_EQ(l.math.pos.y, l.heads.pos.y + l.heads.size.y);  // the math step right under the strip
            EXPECT_EQ(l.math.pos.y + l.math.size.y, top + rest);      // down to the status bar
            EXPECT_GE(l.heads.size.y, 125);
            EXPECT_GT(l.math.size.y, 2 * l.heads.size.y);  // a strip, not a panel
        }
}

TEST(ComputeLayoutTest, ATinyWindowKeepsPanelsUsable) {
    const ui::Layout l = ui::compute_layout(ImVec2(320, 120), 57, 78);  // bars taller than the window
    for (const ui::PanelRect& p : {l.photo, l.heads, l.math}) {
        EXPECT_EQ(p.size.y, 100);  // at least 100 px tall, even if that runs past the window
        EXPECT_GT(p.size.x, 0);
    }
    EXPECT_EQ(l.math.pos.x + l.math.size.x, 320);
}

}  // namespace
