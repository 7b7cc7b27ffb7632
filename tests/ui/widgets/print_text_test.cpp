// Figures for print leave out what tells the mouse what to do, and keep the rest word for word.
#include <gtest/gtest.h>

#include "ui/widgets/print_text.h"

using ui::without_mouse_hints;

TEST(PrintText, DropsSentencesThatAreMouseOrKeyboardInstructions) {
    EXPECT_EQ(without_mouse_hints("The maps show what the Map choice shows. Click a map to go to that layer."),
              "The maps show what the Map choice shows.");
    EXPECT_EQ(without_mouse_hints("Click a patch on the photo (or press an arrow key) to make it the query: distances "
                                  "are measured on the grid. One dot per head."),
              "One dot per head.");
    EXPECT_EQ(without_mouse_hints("Hover a cell to name it! Red: removing the head lowers p."),
              "Red: removing the head lowers p.");
    EXPECT_EQ(without_mouse_hints("Click one."), "");
}

TEST(PrintText, DropsParenthesisedHints) {
    EXPECT_EQ(without_mouse_hints("layer (a dot per head: click one)"), "layer");
    EXPECT_EQ(without_mouse_hints("weight (scaled to the largest) on the photo"),
              "weight (scaled to the largest) on the photo");
}

TEST(PrintText, KeepsEverythingElseAsItIs) {
    const char* plain = "0 bits: the same weights; 1 bit: no key in common. p = 0.5 of it. Pressure is not a hint.";
    EXPECT_EQ(without_mouse_hints(plain), plain);
    EXPECT_EQ(without_mouse_hints(""), "");
    EXPECT_EQ(without_mouse_hints("A sentence without an end"), "A sentence without an end");
    EXPECT_EQ(without_mouse_hints("Unclosed (no end"), "Unclosed (no end");  // not an aside: kept whole
    EXPECT_EQ(without_mouse_hints("Unclosed (click here"), "");              // a sentence that is a hint
}

TEST(PrintText, TheScopeMarksFramesDrawnForPrint) {
    EXPECT_FALSE(ui::drawing_for_print());
    {
        ui::PrintScope outer;
        EXPECT_TRUE(ui::drawing_for_print());
        {
            ui::PrintScope inner;
            EXPECT_TRUE(ui::drawing_for_print());
        }
        EXPECT_TRUE(ui::drawing_for_print());
    }
    EXPECT_FALSE(ui::drawing_for_print());
}
