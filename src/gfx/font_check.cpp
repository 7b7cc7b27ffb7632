#include "gfx/font_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace gfx {
namespace {

// How a glyph stb_truetype draws may be built: its points with those of its
// components (DejaVu Sans's largest has a few hundred), and how deep
// components may nest (stb_truetype recurses once per level).
constexpr uint64_t kMaxGlyphPoints = 100000;
constexpr int kMaxComponentDepth = 16;
// Steps the GPOS check may take: a hostile table can make pair lookups share
// data so that checking them all would take minutes; a real one takes far fewer.
constexpr uint64_t kMaxGposSteps = 20'000'000;

struct Refused {
    std::string why;
};
[[noreturn]] void refuse(std::string why) { throw Refused{std::move(why)}; }

// A table's bytes [begin, end) in the file; begin 0 means absent, as stb_truetype takes it.
struct Table {
    std::string tag;
    uint64_t begin = 0, end = 0;
    const char* end_name = "the table";  // what `end` is the end of, for the errors
    bool present() const { return begin != 0; }
};

// A tag as text; bytes that are not printable ASCII as \xNN, so a message
// quoting a hostile file cannot drive the terminal.
std::string printable_tag(const unsigned char* p) {
    std::string s;
    for (int i = 0; i < 4; ++i) {
        if (p[i] >= 0x20 && p[i] < 0x7f) {
            s += static_cast<char>(p[i]);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", p[i]);
            s += buf;
        }
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();  // "SVG " reads as SVG
    return s;
}

// The extent of a glyph's drawn coordinates, the origin included (stb_truetype's
// line vertices carry control point 0,0 through a component's transform).
struct Extent {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    void add(int x, int y) {
        x0 = std::min(x0, x), x1 = std::max(x1, x);
        y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
};

class Checker {
public:
    Checker(const unsigned char* data, size_t size) : d_(data), n_(size) {}

    FontLayout check() {
        if (n_ < 12) refuse("the file is too short for a font (" + std::to_string(n_) + " bytes)");
        if (n_ > kMaxFontBytes) refuse("the file is larger than " + std::to_string(kMaxFontBytes >> 20) + " MB");
        find_font_start();
        read_directory();
        check_head_maxp_hhea();
        check_hmtx();
        check_loca();
        check_glyphs();
        check_cmap();
        if (gpos_.present()) check_gpos();
        else if (kern_.present()) check_kern();
        return {static_cast<int>(start_), glyphs_};
    }

private:
    uint16_t u16(uint64_t at) const { return static_cast<uint16_t>(d_[at] << 8 | d_[at + 1]); }
    int16_t i16(uint64_t at) const { return static_cast<int16_t>(u16(at)); }
    uint32_t u32(uint64_t at) const {
        return static_cast<uint32_t>(d_[at]) << 24 | static_cast<uint32_t>(d_[at + 1]) << 16 |
               static_cast<uint32_t>(d_[at + 2]) << 8 | d_[at + 3];
    }
    bool tag_is(uint64_t at, const char* tag) const {
        return d_[at] == static_cast<unsigned char>(tag[0]) && d_[at + 1] == static_cast<unsigned char>(tag[1]) &&
               d_[at + 2] == static_cast<unsigned char>(tag[2]) && d_[at + 3] == static_cast<unsigned char>(tag[3]);
    }

    // Bytes [at, at + len) lie inside table t, else the font is refused naming `what`.
    static void need(const Table& t, uint64_t at, uint64_t len, const std::string& what) {
        if (at < t.begin || at > t.end || len > t.end - at)
            refuse("table " + t.tag + ": " + what + " runs past the end of " + t.end_name);
    }

    void find_font_start() {
        static const unsigned char kTrueType[4] = {'1', 0, 0, 0}, kOpenType[4] = {0, 1, 0, 0};
        const bool single = std::equal(d_, d_ + 4, kTrueType) || std::equal(d_, d_ + 4, kOpenType) ||
                            tag_is(0, "typ1") || tag_is(0, "OTTO") || tag_is(0, "true");
        if (single) return;
        if (!tag_is(0, "ttcf")) refuse("it does not start as a TrueType font or collection does");
        if (n_ < 16) refuse("the collection's header runs past the end of the file");
        const uint32_t version = u32(4);
        if ((version != 0x00010000 && version != 0x00020000) || static_cast<int32_t>(u32(8)) < 1)
            refuse("the collection's header is not one stb_truetype reads");
        start_ = u32(12);
    }

    void read_directory() {
        if (start_ > n_ || n_ - start_ < 12) refuse("the table directory runs past the end of the file");
        const uint64_t count = u16(start_ + 4);
        if (n_ - start_ - 12 < 16 * count) refuse("the table directory runs past the end of the file");
        Table* wanted[] = {&cmap_, &head_, &hhea_, &hmtx_, &loca_, &glyf_, &maxp_, &kern_, &gpos_};
        const char* tags[] = {"cmap", "head", "hhea", "hmtx", "loca", "glyf", "maxp", "kern", "GPOS"};
        std::vector<bool> seen(std::size(tags), false);
        for (uint64_t i = 0; i < count; ++i) {
            const uint64_t entry = start_ + 12 + 16 * i;
            const uint64_t offset = u32(entry + 8), length = u32(entry + 12);
            if (offset > n_ || length > n_ - offset)
                refuse("table " + printable_tag(d_ + entry) + " runs past the end of the file");
            for (size_t k = 0; k < std::size(tags); ++k)
                if (!seen[k] && tag_is(entry, tags[k])) {  // stb_truetype takes the first by a name
                    seen[k] = true;
                    *wanted[k] = {tags[k], offset, offset + length};
                }
        }
        for (size_t k = 0; k < std::size(tags); ++k) wanted[k]->tag = tags[k];
        for (const Table* t : {&cmap_, &head_, &hhea_, &hmtx_, &maxp_, &loca_})
            if (!t->present()) refuse("table " + t->tag + " is missing");
        if (!glyf_.present()) refuse("table glyf is missing (only TrueType outlines are read, not CFF)");
    }

    void check_head_maxp_hhea() {
        need(head_, head_.begin, 54, "its header");
        loca_format_ = i16(head_.begin + 50);
        if (loca_format_ != 0 && loca_format_ != 1)
            refuse("table head: loca format " + std::to_string(loca_format_) + " is neither 0 nor 1");
        need(maxp_, maxp_.begin, 6, "its header");
        glyphs_ = u16(maxp_.begin + 4);
        if (glyphs_ == 0) refuse("table maxp: the font has no glyphs");
        need(hhea_, hhea_.begin, 36, "its header");
        const int height = i16(hhea_.begin + 4) - i16(hhea_.begin + 6);
        if (height <= 0) refuse("table hhea: ascent minus descent is " + std::to_string(height) + ", not positive");
        long_metrics_ = u16(hhea_.begin + 34);
        if (long_metrics_ == 0) refuse("table hhea: the font has no horizontal metrics");
    }

    void check_hmtx() {
        // Glyphs past the long metrics reuse the last advance and have a bearing each.
        const uint64_t g = glyphs_, l = long_metrics_;
        need(hmtx_, hmtx_.begin, l <= g ? 4 * l + 2 * (g - l) : 4 * g,
             "the metrics of " + std::to_string(g) + " glyphs");
    }

    void check_loca() {
        const uint64_t entry = loca_format_ == 0 ? 2 : 4;
        need(loca_, loca_.begin, entry * (glyphs_ + 1ULL), "the offsets of " + std::to_string(glyphs_) + " glyphs");
        glyph_start_.resize(glyphs_ + 1ULL);
        for (int g = 0; g <= glyphs_; ++g)
            glyph_start_[g] = loca_format_ == 0 ? 2ULL * u16(loca_.begin + 2ULL * g) : u32(loca_.begin + 4ULL * g);
        for (int g = 0; g < glyphs_; ++g) {
            if (glyph_start_[g] == glyph_start_[g + 1]) continue;  // no outline: never read
            if (glyph_start_[g] > glyph_start_[g + 1])
                refuse("table loca: glyph " + std::to_string(g) + " ends before it starts");
            if (glyph_start_[g + 1] > glyf_.end - glyf_.begin)
                refuse("table glyf: glyph " + std::to_string(g) + " runs past the end of the table");
        }
    }

    // Every outline as stb_truetype reads it, components followed.
    void check_glyphs() {
        state_.assign(glyphs_, 0);
        points_.assign(glyphs_, 0);
        extent_.assign(glyphs_, Extent{});
        nesting_.assign(glyphs_, 0);
        for (int g = 0; g < glyphs_; ++g) check_glyph(g, 0);
    }

    // Marks glyph g checked; its point count and extent in points_[g] and extent_[g].
    void check_glyph(int g, int depth) {
        if (state_[g] == 2) return;
        if (state_[g] == 1) refuse("table glyf: glyph " + std::to_string(g) + " is made of itself");
        if (depth > kMaxComponentDepth)
            refuse("table glyf: components nest more than " + std::to_string(kMaxComponentDepth) + " deep");
        state_[g] = 1;
        if (glyph_start_[g] != glyph_start_[g + 1]) {
            const Table glyph{"glyf", glyf_.begin + glyph_start_[g], glyf_.begin + glyph_start_[g + 1], "its data"};
            const std::string name = "glyph " + std::to_string(g);
            need(glyph, glyph.begin, 10, name + "'s header");
            const int contours = i16(glyph.begin);
            if (contours > 0) check_simple(g, glyph, contours, name);
            else if (contours < 0) check_composite(g, glyph, depth, name);
            if (points_[g] > kMaxGlyphPoints)
                refuse("table glyf: " + name + " has more than " + std::to_string(kMaxGlyphPoints) + " points");
        }
        state_[g] = 2;
    }

    void check_simple(int g, const Table& glyph, int contours, const std::string& name) {
        uint64_t p = glyph.begin + 10;
        need(glyph, p, 2ULL * contours + 2, name + "'s contour ends");
        std::vector<int> ends(contours);
        for (int c = 0; c < contours; ++c) {
            ends[c] = u16(p + 2ULL * c);
            if (c > 0 && ends[c] <= ends[c - 1]) refuse("table glyf: " + name + "'s contours end out of order");
        }
        const int n = ends.back() + 1;
        p += 2ULL * contours;
        const uint64_t instructions = u16(p);
        p += 2;
        need(glyph, p, instructions, name + "'s instructions");
        p += instructions;
        const std::string outline = name + "'s outline";
        std::vector<unsigned char> flags(n);
        for (int i = 0; i < n;) {
            need(glyph, p, 1, outline);
            const unsigned char f = d_[p++];
            int repeat = 0;
            if (f & 8) {
                need(glyph, p, 1, outline);
                repeat = d_[p++];
            }
            for (int k = 0; k <= repeat && i < n; ++k) flags[i++] = f;
        }
        std::vector<int16_t> xs(n), ys(n);
        for (int axis = 0; axis < 2; ++axis) {
            const unsigned char short_bit = axis == 0 ? 2 : 4, same_bit = axis == 0 ? 16 : 32;
            int v = 0;
            for (int i = 0; i < n; ++i) {
                if (flags[i] & short_bit) {
                    need(glyph, p, 1, outline);
                    const int dv = d_[p++];
                    v += (flags[i] & same_bit) ? dv : -dv;
                } else if (!(flags[i] & same_bit)) {
                    need(glyph, p, 2, outline);
                    v += i16(p);
                    p += 2;
                }
                (axis == 0 ? xs : ys)[i] = static_cast<int16_t>(v);  // stb_truetype keeps 16 bits
            }
        }
        // stb_truetype looks one point ahead when a contour starts off the curve:
        // at the last point that would read past its array.
        for (int i = 0, next = 0, c = 0; i < n; ++i) {
            if (i != next) continue;
            if (!(flags[i] & 1)) {
                if (i + 1 >= n) refuse("table glyf: " + name + "'s last contour is a lone off-curve point");
                if (flags[i + 1] & 1) ++i;
            }
            next = c < contours ? ends[c] + 1 : n;
            ++c;
        }
        Extent e;
        for (int i = 0; i < n; ++i) e.add(xs[i], ys[i]);
        extent_[g] = e;
        points_[g] = static_cast<uint64_t>(n) + 2ULL * contours;
    }

    void check_composite(int g, const Table& glyph, int depth, const std::string& name) {
        uint64_t p = glyph.begin + 10;
        const std::string parts = name + "'s components";
        uint64_t points = 0;
        Extent e;
        for (bool more = true; more;) {
            need(glyph, p, 4, parts);
            const uint16_t flags = u16(p), part = u16(p + 2);
            p += 4;
            if (!(flags & 2))
                refuse("table glyf: " + name + " places a component by point numbers, which is not supported");
            double m[6] = {1, 0, 0, 1, 0, 0};
            need(glyph, p, (flags & 1) ? 4 : 2, parts);
            if (flags & 1) {
                m[4] = i16(p), m[5] = i16(p + 2);
                p += 4;
            } else {
                m[4] = static_cast<signed char>(d_[p]), m[5] = static_cast<signed char>(d_[p + 1]);
                p += 2;
            }
            const int scales = (flags & 8) ? 1 : (flags & 0x40) ? 2 : (flags & 0x80) ? 4 : 0;
            need(glyph, p, 2ULL * scales, parts);
            if (scales == 1) m[0] = m[3] = i16(p) / 16384.0;
            if (scales == 2) m[0] = i16(p) / 16384.0, m[3] = i16(p + 2) / 16384.0;
            if (scales == 4)
                m[0] = i16(p) / 16384.0, m[1] = i16(p + 2) / 16384.0, m[2] = i16(p + 4) / 16384.0,
                m[3] = i16(p + 6) / 16384.0;
            p += 2ULL * scales;
            more = flags & 0x20;
            if (part >= glyphs_) continue;  // stb_truetype draws nothing for it
            check_glyph(part, depth + 1);
            nesting_[g] = std::max(nesting_[g], nesting_[part] + 1);
            if (nesting_[g] > kMaxComponentDepth)
                refuse("table glyf: components nest more than " + std::to_string(kMaxComponentDepth) + " deep");
            if (points_[part] == 0) continue;
            points += points_[part];
            if (points > kMaxGlyphPoints)
                refuse("table glyf: " + name + " has more than " + std::to_string(kMaxGlyphPoints) + " points");
            // stb_truetype moves the component's points as below and keeps 16 bits
            // of each: past them the conversion is undefined.
            const double sx = std::sqrt(m[0] * m[0] + m[1] * m[1]), sy = std::sqrt(m[2] * m[2] + m[3] * m[3]);
            const Extent& c = extent_[part];
            for (int x : {c.x0, c.x1})
                for (int y : {c.y0, c.y1}) {
                    const double tx = sx * (m[0] * x + m[2] * y + m[4]), ty = sy * (m[1] * x + m[3] * y + m[5]);
                    if (std::fabs(tx) > 32000 || std::fabs(ty) > 32000)
                        refuse("table glyf: " + name + " moves a component outside the coordinate range");
                    e.add(static_cast<int>(tx), static_cast<int>(ty));
                }
        }
        extent_[g] = e;
        points_[g] = points;
    }

    // The Unicode mapping stb_truetype picks (the last it understands) and its lookups.
    void check_cmap() {
        need(cmap_, cmap_.begin, 4, "its header");
        const uint64_t records = u16(cmap_.begin + 2);
        need(cmap_, cmap_.begin + 4, 8 * records, "its encoding records");
        uint64_t map = 0;
        for (uint64_t i = 0; i < records; ++i) {
            const uint64_t r = cmap_.begin + 4 + 8 * i;
            const uint16_t platform = u16(r), encoding = u16(r + 2);
            if (platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10))) map = cmap_.begin + u32(r + 4);
        }
        if (map == 0) refuse("table cmap has no Unicode mapping");
        need(cmap_, map, 2, "the Unicode mapping");
        const uint16_t format = u16(map);
        const std::string what = "the Unicode mapping (format " + std::to_string(format) + ")";
        if (format == 0) {
            need(cmap_, map, 6, what);
            const uint64_t bytes = u16(map + 2);
            if (bytes > 6) need(cmap_, map, bytes, what);
        } else if (format == 6) {
            need(cmap_, map, 10, what);
            need(cmap_, map, 10 + 2ULL * u16(map + 8), what);
        } else if (format == 4) {
            check_cmap_format4(map, what);
        } else if (format == 12 || format == 13) {
            need(cmap_, map, 16, what);
            need(cmap_, map, 16 + 12ULL * u32(map + 12), what);
        } else {
            refuse("table cmap: mapping format " + std::to_string(format) + " is not supported");
        }
    }

    void check_cmap_format4(uint64_t map, const std::string& what) {
        need(cmap_, map, 14, what);
        const uint64_t segments = u16(map + 6) >> 1, range = u16(map + 8) >> 1, shift = u16(map + 12) >> 1;
        const int selector = u16(map + 10);
        if (segments == 0) refuse("table cmap: the Unicode mapping has no segments");
        // stb_truetype's binary search starts at segment `shift` and steps by
        // range / 2, range / 4, ... `selector` times, trusting all three fields:
        // the furthest segment it can reach must exist.
        uint64_t furthest = shift;
        for (int k = 1; k <= std::min(selector, 17); ++k) furthest += range >> k;
        if (furthest >= segments) refuse("table cmap: the Unicode mapping's search fields point past its segments");
        need(cmap_, map, 16 + 8 * segments, what);
        const uint64_t ends = map + 14, starts = ends + 2 * segments + 2, range_offsets = map + 16 + 6 * segments;
        for (uint64_t s = 0; s < segments; ++s) {
            const uint16_t first = u16(starts + 2 * s), last = u16(ends + 2 * s), offset = u16(range_offsets + 2 * s);
            if (offset == 0 || first > last) continue;
            // The glyph of code point c is read at this offset + 2 (c - first).
            need(cmap_, range_offsets + 2 * s + offset, 2ULL * (last - first) + 2, what + "'s glyph indices");
        }
    }

    // The kern table's first subtable, as stb_truetype reads it when there is no GPOS.
    void check_kern() {
        need(kern_, kern_.begin, 4, "its header");
        if (u16(kern_.begin + 2) < 1) return;
        need(kern_, kern_.begin, 10, "its first subtable");
        if (u16(kern_.begin + 8) != 1) return;
        need(kern_, kern_.begin, 12, "its first subtable");
        need(kern_, kern_.begin, 18 + 6ULL * u16(kern_.begin + 10), "its kerning pairs");
    }

    void step(uint64_t n = 1) {
        gpos_steps_ += n;
        if (gpos_steps_ > kMaxGposSteps) refuse("table GPOS is too large to check");
    }

    // Pair adjustments (lookup type 2, formats 1 and 2 with advance-only values),
    // the only part of GPOS stb_truetype reads.
    void check_gpos() {
        need(gpos_, gpos_.begin, 4, "its header");
        if (u16(gpos_.begin) != 1 || u16(gpos_.begin + 2) != 0) return;
        need(gpos_, gpos_.begin, 10, "its header");
        const uint64_t list = gpos_.begin + u16(gpos_.begin + 8);
        need(gpos_, list, 2, "its lookup list");
        const uint64_t lookups = u16(list);
        need(gpos_, list + 2, 2 * lookups, "its lookup list");
        for (uint64_t i = 0; i < lookups; ++i) {
            step();
            const uint64_t lookup = list + u16(list + 2 + 2 * i);
            need(gpos_, lookup, 6, "a lookup");
            const uint64_t subtables = u16(lookup + 4);
            if (u16(lookup) != 2) continue;
            need(gpos_, lookup + 6, 2 * subtables, "a lookup's subtables");
            for (uint64_t s = 0; s < subtables; ++s) check_pair_adjustment(lookup + u16(lookup + 6 + 2 * s));
        }
    }

    // The coverage indices a coverage table can give, as ranges [first, last];
    // empty when stb_truetype never finds a glyph in it.
    std::vector<std::pair<uint64_t, uint64_t>> coverage(uint64_t at) {
        need(gpos_, at, 2, "a coverage table");
        const uint16_t format = u16(at);
        if (format == 1) {
            need(gpos_, at, 4, "a coverage table");
            const uint64_t count = u16(at + 2);
            need(gpos_, at + 4, 2 * count, "a coverage table");
            step(count);
            if (count == 0) return {};
            return {{0, count - 1}};
        }
        if (format == 2) {
            need(gpos_, at, 4, "a coverage table");
            const uint64_t count = u16(at + 2);
            need(gpos_, at + 4, 6 * count, "a coverage table");
            step(count);
            std::vector<std::pair<uint64_t, uint64_t>> out;
            for (uint64_t r = 0; r < count; ++r) {
                const uint64_t rec = at + 4 + 6 * r, first = u16(rec), last = u16(rec + 2), index = u16(rec + 4);
                if (first <= last) out.push_back({index, index + (last - first)});
            }
            return out;
        }
        return {};
    }

    void check_class_def(uint64_t at) {
        need(gpos_, at, 2, "a class definition");
        const uint16_t format = u16(at);
        if (format == 1) {
            need(gpos_, at, 6, "a class definition");
            need(gpos_, at + 6, 2ULL * u16(at + 4), "a class definition");
        } else if (format == 2) {
            need(gpos_, at, 4, "a class definition");
            need(gpos_, at + 4, 6ULL * u16(at + 2), "a class definition");
        }
    }

    void check_pair_adjustment(uint64_t table) {
        step();
        need(gpos_, table, 4, "a pair adjustment");
        const auto covered = coverage(table + u16(table + 2));
        if (covered.empty()) return;
        const uint16_t format = u16(table);
        if (format != 1 && format != 2) return;
        need(gpos_, table, 8, "a pair adjustment");
        if (u16(table + 4) != 4 || u16(table + 6) != 0) return;  // stb_truetype reads advance-only pairs
        if (format == 1) {
            need(gpos_, table, 10, "a pair adjustment");
            const uint64_t sets = u16(table + 8);
            // For any covered glyph stb_truetype reads its pair set's offset and
            // count before it compares the index with the number of sets.
            for (const auto& [first, last] : covered) {
                need(gpos_, table + 10 + 2 * first, 2 * (last - first + 1), "a pair adjustment's pair sets");
                step(last - first + 1);
                for (uint64_t c = first; c <= last; ++c) {
                    const uint64_t set = table + u16(table + 10 + 2 * c);
                    need(gpos_, set, 2, "a pair set");
                    if (c < sets) need(gpos_, set + 2, 4ULL * u16(set), "a pair set");
                }
            }
        } else {
            need(gpos_, table, 16, "a pair adjustment");
            check_class_def(table + u16(table + 8));
            check_class_def(table + u16(table + 10));
            const uint64_t classes1 = u16(table + 12), classes2 = u16(table + 14);
            need(gpos_, table + 16, 2 * classes1 * classes2, "a pair adjustment's class pairs");
        }
    }

    const unsigned char* d_;
    uint64_t n_;
    uint64_t start_ = 0;
    Table cmap_, head_, hhea_, hmtx_, loca_, glyf_, maxp_, kern_, gpos_;
    int loca_format_ = 0, glyphs_ = 0, long_metrics_ = 0;
    std::vector<uint64_t> glyph_start_;  // loca's offsets into glyf, glyphs_ + 1 of them
    std::vector<unsigned char> state_;   // per glyph: 0 unchecked, 1 being checked, 2 checked
    std::vector<uint64_t> points_;       // per glyph: the vertices stb_truetype makes of it
    std::vector<Extent> extent_;
    std::vector<int> nesting_;  // per glyph: how deep stb_truetype recurses through its components
    uint64_t gpos_steps_ = 0;
};

}  // namespace

std::string font_problem(const unsigned char* data, size_t size, FontLayout* layout) {
    try {
        const FontLayout checked = Checker(data, size).check();
        if (layout) *layout = checked;
        return "";
    } catch (const Refused& r) {
        return r.why;
    }
}

}  // namespace gfx
