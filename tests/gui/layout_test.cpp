// The window's three panels (ui::compute_layout) at several window sizes and
// UI scales, in classroom mode too: side by side from the left edge to the right one, between the
// menu bar and the status bar, on whole pixels, never overlapping. Needs
// ImGui's ImVec2 only (no context, no display).
#include <cmath>

#include <gtest/gtest.h>

#include "ui/widgets/layout.h"

namespace {

// Menu and status bar heights at UI scale 1 (a 13 px font with ImGui's padding).
constexpr float kMenuBar = 19, kStatusBar = 26;

TEST(ComputeLayoutTest, PanelsFillTheWindowWithoutOverlap) {
    for (auto [w, h] : {std::pair{1280.f, 800.f}, {1600.f, 1000.f}, {1920.f, 1080.f}, {2560.f, 1440.f},
                        {3840.f, 2160.f}, {1366.f, 768.f}, {1001.f, 757.f}})
        for (float scale : {1.f, 1.25f, 1.5f, 2.f, 3.f})
            for (bool classroom : {false, true}) {
                SCOPED_TRACE(testing::Message() << w << " x " << h << " at scale " << scale << (classroom ? ", classroom" : ""));
                const float top = kMenuBar * scale, bottom = kStatusBar * scale;
                const ui::Layout l = ui::compute_layout(ImVec2(w, h), top, bottom, classroom);
                const ui::PanelRect order[] = {l.photo, l.heads, l.math};
                float x = 0;
                for (const ui::PanelRect& p : order) {
                    EXPECT_EQ(p.pos.x, x);                      // each starts where the last ended
                    EXPECT_EQ(p.pos.x, std::floor(p.pos.x));    // on whole pixels
                    EXPECT_GT(p.size.x, 0);
                    EXPECT_EQ(p.pos.y, top);                    // under the menu bar
                    EXPECT_EQ(p.size.y, h - top - bottom);      // down to the status bar
                    x += p.size.x;
                }
                EXPECT_EQ(x, w);  // the last reaches the right edge
                EXPECT_GE(l.photo.size.x, l.heads.size.x);
                if (classroom) EXPECT_GE(l.math.size.x, l.photo.size.x);  // one math step, large, gets the most
                else EXPECT_GE(l.photo.size.x, l.math.size.x);            // the photo gets the most room
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
