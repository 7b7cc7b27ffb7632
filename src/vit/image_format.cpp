#include "image_format.h"

#include <algorithm>

#include <cstring>
#include <cstdlib>

namespace vit::detail {
namespace {

uint32_t be32(const uint8_t* p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }
uint32_t le32(const uint8_t* p) { return uint32_t(p[3]) << 24 | uint32_t(p[2]) << 16 | uint32_t(p[1]) << 8 | p[0]; }
uint32_t be16(const uint8_t* p) { return uint32_t(p[0]) << 8 | p[1]; }
uint32_t le16(const uint8_t* p) { return uint32_t(p[1]) << 8 | p[0]; }

bool starts_with(const uint8_t* bytes, size_t size, const char* magic, size_t magic_size) {
    return size >= magic_size && std::memcmp(bytes, magic, magic_size) == 0;
}

// Entropy-coded data after SOS: 0xFF is stuffed as FF 00 and restart markers
// FF D0..D7 sit inside it, so the scan ends at the first other marker.
// Returns that marker's position, or size when the data runs out first.
size_t skip_scan_data(const uint8_t* b, size_t n, size_t i) {
    while (i + 1 < n) {
        if (b[i] != 0xFF) { ++i; continue; }
        const uint8_t next = b[i + 1];
        if (next == 0x00 || (next >= 0xD0 && next <= 0xD7)) i += 2;
        else if (next == 0xFF) ++i;  // fill byte before a marker
        else return i;
    }
    return n;
}

HeaderSize jpeg_header_size(const uint8_t* b, size_t n) {
    size_t i = 2;  // after SOI; frame headers come before the first scan
    while (i + 4 <= n && b[i] == 0xFF) {
        const uint8_t marker = b[i + 1];
        if (marker == 0xFF) { ++i; continue; }  // fill byte
        const size_t length = size_t(b[i + 2]) << 8 | b[i + 3];
        // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
        const bool frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (frame) return i + 9 <= n ? HeaderSize{be16(b + i + 7), be16(b + i + 5)} : HeaderSize{};
        if (marker == 0xDA || length < 2) break;
        i += 2 + length;
    }
    return {};
}

// A DHT segment (its bytes after the length field): tables of a class/id byte,
// 16 code counts and the symbols. stb_image reads past its arrays when the
// counts add up to more than 256, so such a table is refused here first.
std::string check_huffman_tables(const uint8_t* b, size_t n, bool whole_segment) {
    const std::string bad = "is a damaged JPEG (a Huffman table (DHT) ";
    for (size_t i = 0; i < n;) {
        size_t codes = 0;  // counted over the counts present, even in a truncated table
        for (size_t k = 1; k <= 16 && i + k < n; ++k) codes += b[i + k];
        if (codes > 256) return bad + "defines " + std::to_string(codes) + " codes, more than 256)";
        if (n - i < 17 + codes)  // past the end: of the segment (damaged) or of the file (truncated, said later)
            return whole_segment ? bad + "runs past the end of its segment)" : std::string{};
        i += 17 + codes;
    }
    return {};
}

std::string check_jpeg(const uint8_t* b, size_t n) {
    const std::string cut = "is truncated (the JPEG ends before its end-of-image marker)";
    size_t i = 2;  // after SOI
    for (;;) {
        // Like libjpeg, tolerate stray bytes between segments; then skip fill bytes.
        while (i < n && b[i] != 0xFF) ++i;
        while (i < n && b[i] == 0xFF) ++i;
        if (i >= n) return cut;
        const uint8_t marker = b[i++];
        if (marker == 0xD9) return {};  // EOI: anything after it (thumbnails, motion video) is ignored
        if (marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) continue;  // no length field
        if (i + 2 > n) return cut;
        const size_t length = size_t(b[i]) << 8 | b[i + 1];
        if (length < 2) return "is a damaged JPEG (a marker segment has an impossible length)";
        if (marker == 0xC4)  // the tables present, even in a truncated file
            if (std::string bad = check_huffman_tables(b + i + 2, std::min(length, n - i) - 2, i + length <= n);
                !bad.empty())
                return bad;
        if (i + length > n) return cut;
        i += length;
        if (marker == 0xDA) i = skip_scan_data(b, n, i);  // SOS: the segment is followed by the scan
    }
}

std::string check_png(const uint8_t* b, size_t n) {
    const std::string cut = "is truncated (the PNG ends before its IEND chunk)";
    size_t i = 8;  // after the signature
    for (;;) {
        if (i + 8 > n) return cut;
        const uint32_t length = be32(b + i);
        if (length > 0x7FFFFFFFu) return "is a damaged PNG (a chunk has an impossible length)";
        if (n - i < size_t(length) + 12) return cut;  // length, type, data, CRC
        if (std::memcmp(b + i + 4, "IEND", 4) == 0) return {};
        i += size_t(length) + 12;
    }
}

std::string check_bmp(const uint8_t* b, size_t n) {
    const std::string cut = "is truncated (the BMP ends before its pixel data does)";
    if (n < 26) return cut;
    const uint32_t data_offset = le32(b + 10), header_size = le32(b + 14);
    long long width, height;
    uint32_t bits, compression = 0;
    if (header_size == 12) {  // OS/2 core header
        width = le16(b + 18), height = le16(b + 20), bits = le16(b + 24);
    } else {
        if (n < 34) return cut;
        width = int32_t(le32(b + 18)), height = int32_t(le32(b + 22));
        bits = le16(b + 28), compression = le32(b + 30);
    }
    // Only uncompressed rows have a size known from the header (0 = RGB, 3 and 6 = bit fields).
    if (compression != 0 && compression != 3 && compression != 6) return {};
    if (width <= 0 || bits == 0) return {};  // stb_image rejects these itself
    const unsigned long long row = (static_cast<unsigned long long>(width) * bits + 31) / 32 * 4;
    const unsigned long long needed = data_offset + row * static_cast<unsigned long long>(std::llabs(height));
    return n < needed ? cut : std::string{};
}

// Sub-blocks (a length byte, then that many bytes) up to a zero length.
// Returns the position after the terminator, or 0 when the data runs out.
size_t skip_gif_sub_blocks(const uint8_t* b, size_t n, size_t i) {
    while (i < n && b[i] != 0) i += size_t(b[i]) + 1;
    return i < n ? i + 1 : 0;
}

// Only the first frame is decoded, so only it must be whole: stb_image treats
// running out of LZW data as the end of the frame.
std::string check_gif(const uint8_t* b, size_t n) {
    const std::string cut = "is truncated (the GIF ends inside its first frame)";
    const auto colour_table = [](uint8_t flags) { return flags & 0x80 ? size_t(3) << ((flags & 7) + 1) : 0; };
    if (n < 13) return cut;
    size_t i = 13 + colour_table(b[10]);  // header, logical screen descriptor, global colours
    for (;;) {
        if (i >= n) return cut;
        const uint8_t block = b[i];
        if (block == 0x21) {  // extension: label, then sub-blocks
            i = i + 2 <= n ? skip_gif_sub_blocks(b, n, i + 2) : 0;
            if (i == 0) return cut;
        } else if (block == 0x2C) {  // image descriptor, local colours, LZW code size, data
            if (i + 10 > n) return cut;
            i += 10 + colour_table(b[i + 9]) + 1;
            return i <= n && skip_gif_sub_blocks(b, n, i) ? std::string{} : cut;
        } else {
            return "is a damaged GIF (no image before its end)";
        }
    }
}

}  // namespace

ImageFormat sniff_format(const uint8_t* bytes, size_t size) {
    if (starts_with(bytes, size, "\xFF\xD8\xFF", 3)) return ImageFormat::Jpeg;
    if (starts_with(bytes, size, "\x89PNG\r\n\x1A\n", 8)) return ImageFormat::Png;
    if (starts_with(bytes, size, "GIF87a", 6) || starts_with(bytes, size, "GIF89a", 6)) return ImageFormat::Gif;
    if (starts_with(bytes, size, "BM", 2)) return ImageFormat::Bmp;
    return ImageFormat::Unknown;
}

const char* format_name(ImageFormat format) {
    switch (format) {
        case ImageFormat::Jpeg: return "JPEG";
        case ImageFormat::Png: return "PNG";
        case ImageFormat::Bmp: return "BMP";
        case ImageFormat::Gif: return "GIF";
        case ImageFormat::Unknown: break;
    }
    return "image";
}

HeaderSize read_header_size(ImageFormat format, const uint8_t* b, size_t n) {
    switch (format) {
        case ImageFormat::Jpeg: return jpeg_header_size(b, n);
        case ImageFormat::Png:  // IHDR is the first chunk
            if (n >= 24 && std::memcmp(b + 12, "IHDR", 4) == 0) return {be32(b + 16), be32(b + 20)};
            break;
        case ImageFormat::Bmp:
            if (n >= 22 && le32(b + 14) == 12) return {le16(b + 18), le16(b + 20)};
            if (n >= 26) return {int32_t(le32(b + 18)), std::llabs(int32_t(le32(b + 22)))};  // negative: top-down rows
            break;
        case ImageFormat::Gif:
            if (n >= 10) return {le16(b + 6), le16(b + 8)};
            break;
        case ImageFormat::Unknown: break;
    }
    return {};
}

std::string check_container(ImageFormat format, const uint8_t* bytes, size_t size) {
    switch (format) {
        case ImageFormat::Jpeg: return check_jpeg(bytes, size);
        case ImageFormat::Png: return check_png(bytes, size);
        case ImageFormat::Bmp: return check_bmp(bytes, size);
        case ImageFormat::Gif: return check_gif(bytes, size);
        case ImageFormat::Unknown: break;
    }
    return {};
}

}  // namespace vit::detail
