// Checks a font file before stb_truetype reads it. stb_truetype trusts every
// offset and count in the file, so a truncated or hostile font makes it read
// past the buffer (a crash, or a wrong glyph from another's bytes). What it
// reads, the way it reads it, is checked here first: the table directory,
// each table inside the file, and inside the tables it uses (cmap, head,
// hhea, hmtx, loca, glyf, maxp, and kern or GPOS) each offset and count.
// No GL and no other dependency, so it is fuzzed and unit tested alone.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace gfx {

// Larger fonts are refused before they are read (DejaVu Sans is 0.7 MB, a
// whole CJK font about 20 MB).
inline constexpr uint64_t kMaxFontBytes = 64ULL << 20;

// What a reader of a checked font needs besides its bytes.
struct FontLayout {
    int offset = 0;       // where the font's table directory starts: 0, or a collection's first font
    int glyph_count = 0;  // maxp's count: a glyph index at or past it must never reach stb_truetype
};

// Empty when stb_truetype can use the font in data[0, size) without reading
// outside it, given glyph indices below layout->glyph_count; else what is
// wrong, as a phrase ("table glyf runs past the end of the file").
std::string font_problem(const unsigned char* data, size_t size, FontLayout* layout = nullptr);

}  // namespace gfx
