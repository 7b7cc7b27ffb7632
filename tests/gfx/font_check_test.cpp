// The font check (gfx/font_check.h) on Debian's DejaVu Sans: the intact
// fonts pass, and copies cut short or with one field broken in each table
// stb_truetype reads are refused saying which table. gfx::Font refuses the
// same bytes with a vit::Error naming the font, and draws with the intact
// one. GL-free: runs without a display.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gfx/font_check.h"
#include "gfx/text.h"
#include "vit/base/error.h"

namespace {

using Bytes = std::vector<unsigned char>;

const char* kDejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const char* kDejaVuBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

Bytes read_font(const char* path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << path << " missing (Debian's fonts-dejavu-core)";
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string problem(const Bytes& b) { return gfx::font_problem(b.data(), b.size()); }

uint32_t u32(const Bytes& b, size_t at) {
    return uint32_t(b[at]) << 24 | uint32_t(b[at + 1]) << 16 | uint32_t(b[at + 2]) << 8 | b[at + 3];
}
uint16_t u16(const Bytes& b, size_t at) { return uint16_t(b[at] << 8 | b[at + 1]); }
void put16(Bytes& b, size_t at, uint16_t v) { b[at] = v >> 8, b[at + 1] = v & 0xff; }
void put32(Bytes& b, size_t at, uint32_t v) { put16(b, at, v >> 16), put16(b, at + 2, v & 0xffff); }

size_t directory_end(const Bytes& b) { return 12 + 16 * size_t(u16(b, 4)); }

// Where a table's directory entry is, and where the table itself starts.
size_t entry_of(const Bytes& b, const std::string& tag) {
    for (size_t e = 12; e < directory_end(b); e += 16)
        if (std::string(b.begin() + e, b.begin() + e + 4) == tag) return e;
    ADD_FAILURE() << "no table " << tag;
    return 0;
}
size_t table(const Bytes& b, const std::string& tag) { return u32(b, entry_of(b, tag) + 8); }

// Where glyph g's outline starts in the file (DejaVu's loca holds 32-bit offsets).
size_t glyph_at(const Bytes& b, int g) { return table(b, "glyf") + u32(b, table(b, "loca") + 4 * g); }

// The first glyph made of components.
int first_composite(const Bytes& b) {
    const int count = u16(b, table(b, "maxp") + 4);
    for (int g = 0; g < count; ++g)
        if (u32(b, table(b, "loca") + 4 * g) != u32(b, table(b, "loca") + 4 * g + 4) &&
            int16_t(u16(b, glyph_at(b, g))) < 0)
            return g;
    ADD_FAILURE() << "no composite glyph";
    return 0;
}

TEST(FontCheck, TheDejaVuFontsPass) {
    for (const char* path : {kDejaVu, kDejaVuBold}) {
        const Bytes font = read_font(path);
        gfx::FontLayout layout;
        EXPECT_EQ(gfx::font_problem(font.data(), font.size(), &layout), "") << path;
        EXPECT_EQ(layout.offset, 0);
        EXPECT_GT(layout.glyph_count, 5000) << path;
    }
}

TEST(FontCheck, CutShortAtAnyLengthIsRefused) {
    const Bytes font = read_font(kDejaVu);
    // The probe's lengths, and cuts at the ends of the directory and of the last table.
    for (size_t length : {size_t(0), size_t(11), size_t(12), size_t(100), directory_end(font), directory_end(font) + 1,
                          size_t(5000), size_t(50000), size_t(300000), font.size() / 2, font.size() - 1}) {
        const Bytes cut(font.begin(), font.begin() + length);
        const std::string why = problem(cut);
        EXPECT_NE(why, "") << length << " bytes";
        EXPECT_TRUE(why.find("runs past the end") != std::string::npos || why.find("too short") != std::string::npos)
            << length << " bytes: " << why;
    }
    EXPECT_EQ(problem(Bytes(font.begin(), font.begin() + 300000)), "table glyf runs past the end of the file");
    EXPECT_EQ(problem(Bytes(font.begin(), font.begin() + 11)), "the file is too short for a font (11 bytes)");
}

TEST(FontCheck, AFileThatIsNoFontIsRefused) {
    const std::string text = "root:x:0:0:root:/root:/bin/bash\n";
    EXPECT_EQ(problem(Bytes(text.begin(), text.end())), "it does not start as a TrueType font or collection does");
}

TEST(FontCheck, ATableEntryPastTheEndIsRefusedNamingIt) {
    Bytes font = read_font(kDejaVu);
    put32(font, entry_of(font, "name") + 12, uint32_t(font.size()));  // a table no one reads, still checked
    EXPECT_EQ(problem(font), "table name runs past the end of the file");
    font = read_font(kDejaVu);
    const size_t entry = entry_of(font, "name");
    std::copy_n("\x1b[2J", 4, font.begin() + entry);  // a tag is quoted escaped
    put32(font, entry + 12, uint32_t(font.size()));
    EXPECT_EQ(problem(font), "table \\x1b[2J runs past the end of the file");
}

TEST(FontCheck, EachTableStbTruetypeReadsIsChecked) {
    const Bytes intact = read_font(kDejaVu);
    struct Case {
        const char* what;
        void (*spoil)(Bytes&);
        const char* says;
    };
    const Case cases[] = {
        {"a required table missing", [](Bytes& b) { std::copy_n("xxxx", 4, b.begin() + entry_of(b, "hhea")); },
         "table hhea is missing"},
        {"loca format 2", [](Bytes& b) { put16(b, table(b, "head") + 50, 2); },
         "table head: loca format 2 is neither 0 nor 1"},
        {"no glyphs", [](Bytes& b) { put16(b, table(b, "maxp") + 4, 0); }, "table maxp: the font has no glyphs"},
        {"more glyphs than loca has", [](Bytes& b) { put16(b, table(b, "maxp") + 4, 60000); }, "table hmtx"},
        {"more long metrics than hmtx holds", [](Bytes& b) { put16(b, table(b, "hhea") + 34, 65535); }, "table hmtx"},
        {"ascent below descent", [](Bytes& b) { put16(b, table(b, "hhea") + 4, uint16_t(-4000)); },
         "table hhea: ascent minus descent"},
        {"a glyph past glyf's end",
         [](Bytes& b) { put32(b, table(b, "loca") + 4 * 37, u32(b, entry_of(b, "glyf") + 12) + 8); },
         "table glyf: glyph 36 runs past the end of the table"},
        {"a glyph's points past its end", [](Bytes& b) { put16(b, glyph_at(b, 36) + 10, 60000); },
         "table glyf: glyph 36"},
        {"a glyph made of itself",
         [](Bytes& b) {
             const int g = first_composite(b);
             put16(b, glyph_at(b, g) + 12, uint16_t(g));
         },
         "is made of itself"},
        {"a component placed by point numbers",
         [](Bytes& b) {
             const size_t at = glyph_at(b, first_composite(b)) + 10;
             put16(b, at, u16(b, at) & ~2);
         },
         "places a component by point numbers"},
        {"a mapping past cmap's end", [](Bytes& b) { put16(b, table(b, "cmap") + 2, 4000); }, "table cmap"},
        {"GPOS's lookup list past its end", [](Bytes& b) { put16(b, table(b, "GPOS") + 8, 65000); }, "table GPOS"},
    };
    for (const Case& c : cases) {
        Bytes font = intact;
        c.spoil(font);
        const std::string why = problem(font);
        EXPECT_NE(why.find(c.says), std::string::npos) << c.what << ": " << why;
    }
}

TEST(FontCheck, FontRefusesWhatTheCheckRefusesAndDrawsWithTheRest) {
    const Bytes font = read_font(kDejaVu);
    try {
        gfx::Font cut(Bytes(font.begin(), font.begin() + 50000), "font cut.ttf");
        ADD_FAILURE() << "a cut font was taken";
    } catch (const vit::Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "font cut.ttf: not a usable TrueType font (table cmap runs past the end of the file)");
    }
    gfx::Font whole(font, "font DejaVuSans.ttf");
    gfx::RgbaImage image(120, 30);
    whole.draw(image, 2, 22, "AVo √Σ", 20, {0, 0, 0, 255});
    int inked = 0;
    for (size_t i = 0; i < image.pixels.size(); i += 4) inked += image.pixels[i] < 128;
    EXPECT_GT(inked, 100);
    EXPECT_GT(whole.width("AVo", 20), 20);
}

// Each input fuzz_font crashed on (tests/data/regressions/font/): refused, or
// drawn without tripping stb_truetype (Debian's libstb keeps its asserts on).
TEST(FontCheck, FuzzRegressionsAreRefusedOrDrawn) {
    const auto dir = std::filesystem::path(VITSCOPE_SOURCE_DIR) / "tests" / "data" / "regressions" / "font";
    int inputs = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        ++inputs;
        const Bytes bytes = read_font(e.path().c_str());
        try {
            gfx::Font font(bytes, "font " + e.path().filename().string());
            gfx::RgbaImage image(160, 40);
            for (float px : {9.f, 23.5f})
                font.draw(image, 1.25f, 30.5f, "AVWaTo .ae1 \xc3\xa9 \xe2\x88\x9a", px, {0, 0, 0, 255});
        } catch (const vit::Error&) {
        }
    }
    EXPECT_GT(inputs, 0);
}

}  // namespace
