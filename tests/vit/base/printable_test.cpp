// vit/base/printable: quoted text cannot drive a terminal; every error is printable and bounded.
#include <gtest/gtest.h>

#include <string>

#include "vit/base/error.h"
#include "vit/base/printable.h"

namespace {

// No byte a terminal acts on: C0 controls, DEL, and C1 controls as UTF-8 (C2 80 to C2 9F).
bool terminal_safe(const std::string& s) {
    for (size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7F) return false;
        if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0) return false;
    }
    return true;
}

TEST(Printable, EscapesTheProbesTitleAndClearScreen) {
    EXPECT_EQ(vit::printable("T\033]0;HACKED\007\033[2J"), "T\\x1b]0;HACKED\\x07\\x1b[2J");
}

TEST(Printable, EscapesEveryControlAndKeepsText) {
    EXPECT_EQ(vit::printable("a\nb\rc\td\x7f"), "a\\nb\\rc\\td\\x7f");
    EXPECT_EQ(vit::printable(std::string("nul\0here", 8)), "nul\\x00here");
    EXPECT_EQ(vit::printable("\xC2\x9B"
                             "31m"),
              "\\u009b31m");                                                          // CSI as a C1 control
    EXPECT_EQ(vit::printable("√dₖ × 0.5 “ok” \xC2\xA0"), "√dₖ × 0.5 “ok” \xC2\xA0");  // text and NBSP unchanged
}

TEST(Printable, InvalidUtf8BecomesHexBytes) {
    EXPECT_EQ(vit::printable("a\xff"
                             "b"),
              "a\\xffb");
    EXPECT_EQ(vit::printable("\xC0\xAF"), "\\xc0\\xaf");                    // overlong '/'
    EXPECT_EQ(vit::printable("\xED\xA0\x80"), "\\xed\\xa0\\x80");           // a surrogate
    EXPECT_EQ(vit::printable("\xE2\x88"), "\\xe2\\x88");                    // cut short
    EXPECT_EQ(vit::printable("\xF4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
}

TEST(Printable, EveryByteValueComesOutSafeAndEscapingTwiceChangesNothing) {
    std::string all;
    for (int a = 0; a < 256; ++a)
        for (int b = 0; b < 256; b += 17) all += static_cast<char>(a), all += static_cast<char>(b);
    const std::string once = vit::printable(all);
    EXPECT_TRUE(terminal_safe(once));
    EXPECT_EQ(vit::printable(once), once);
}

TEST(Printable, ExcerptKeepsStartAndEnd) {
    std::string huge = "start ";
    huge.append(3000000, 'x').append(" end: do this");
    const std::string cut = vit::printable_excerpt(huge, 1000);
    EXPECT_LE(cut.size(), 1000u + 10);
    EXPECT_EQ(cut.rfind("start ", 0), 0u);
    EXPECT_NE(cut.find(" […] "), std::string::npos);
    EXPECT_EQ(cut.substr(cut.size() - 13), " end: do this");
    EXPECT_EQ(vit::printable_excerpt("short", 1000), "short");
}

TEST(Printable, ErrorsArePrintableAndBounded) {
    std::string message = "exercise 'T\033]0;HACKED\007' ";
    message.append(3000060, 'y');  // appended: GCC 12 warns falsely on "literal" + std::string&&
    const vit::Error e(message);
    const std::string what = e.what();
    EXPECT_TRUE(terminal_safe(what));
    EXPECT_LE(what.size(), vit::kMaxErrorBytes + 10);
    EXPECT_NE(what.find("\\x1b]0;HACKED\\x07"), std::string::npos);
}

}  // namespace
