#include "vit/image/image_format.h"

#include <cstdlib>
#include <cstring>

namespace vit::detail {
namespace {

uint32_t be32(const uint8_t* p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }
uint32_t le32(const uint8_t* p) { return uint32_t(p[3]) << 24 | uint32_t(p[2]) << 16 | uint32_t(p[1]) << 8 | p[0]; }
uint32_t be16(const uint8_t* p) { return uint32_t(p[0]) << 8 | p[1]; }
uint32_t le16(const uint8_t* p) { return uint32_t(p[1]) << 8 | p[0]; }
uint32_t le24(const uint8_t* p) { return uint32_t(p[2]) << 16 | uint32_t(p[1]) << 8 | p[0]; }

bool starts_with(const uint8_t* bytes, size_t size, const char* magic, size_t magic_size) {
    return size >= magic_size && std::memcmp(bytes, magic, magic_size) == 0;
}

HeaderSize jpeg_header_size(const uint8_t* b, size_t n) {
    size_t i = 2;  // after SOI; frame headers come before the first scan
    while (i + 4 <= n && b[i] == 0xFF) {
        const uint8_t marker = b[i + 1];
        if (marker == 0xFF) {
            ++i;
            continue;
        }  // fill byte
        const size_t length = size_t(b[i + 2]) << 8 | b[i + 3];
        // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
        const bool frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (frame) return i + 9 <= n ? HeaderSize{be16(b + i + 7), be16(b + i + 5)} : HeaderSize{};
        if (marker == 0xDA || length < 2) break;
        i += 2 + length;
    }
    return {};
}

// The first chunk after "RIFF" size "WEBP" states the size: VP8X its canvas,
// VP8L and VP8 (lossless and lossy still images) their bitstream's frame.
HeaderSize webp_header_size(const uint8_t* b, size_t n) {
    if (n >= 30 && std::memcmp(b + 12, "VP8X", 4) == 0) return {1 + le24(b + 24), 1 + le24(b + 27)};
    if (n >= 25 && std::memcmp(b + 12, "VP8L", 4) == 0 && b[20] == 0x2F) {
        const uint32_t bits = le32(b + 21);  // 14 bits width - 1, 14 bits height - 1
        return {1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)};
    }
    if (n >= 30 && std::memcmp(b + 12, "VP8 ", 4) == 0 && std::memcmp(b + 23, "\x9D\x01\x2A", 3) == 0)
        return {le16(b + 26) & 0x3FFF, le16(b + 28) & 0x3FFF};  // the top 2 bits are upscaling hints
    return {};
}

// RIFF's size field covers everything after it; bytes past it are ignored.
std::string check_webp(const uint8_t* b, size_t n) {
    if (n < 12) return "is truncated (the WebP ends inside its RIFF header)";
    const uint64_t riff_end = uint64_t(le32(b + 4)) + 8;
    if (riff_end > n)
        return "is truncated (the WebP's RIFF header states " + std::to_string(riff_end) + " bytes, the file has " +
               std::to_string(n) + ")";
    return {};
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
    if (size >= 12 && std::memcmp(bytes, "RIFF", 4) == 0 && std::memcmp(bytes + 8, "WEBP", 4) == 0)
        return ImageFormat::WebP;
    return ImageFormat::Unknown;
}

const char* format_name(ImageFormat format) {
    switch (format) {
        case ImageFormat::Jpeg: return "JPEG";
        case ImageFormat::Png: return "PNG";
        case ImageFormat::Bmp: return "BMP";
        case ImageFormat::Gif: return "GIF";
        case ImageFormat::WebP: return "WebP";
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
        case ImageFormat::WebP: return webp_header_size(b, n);
        case ImageFormat::Unknown: break;
    }
    return {};
}

std::string check_container(ImageFormat format, const uint8_t* bytes, size_t size) {
    switch (format) {
        case ImageFormat::Png: return check_png(bytes, size);
        case ImageFormat::Bmp: return check_bmp(bytes, size);
        case ImageFormat::Gif: return check_gif(bytes, size);
        case ImageFormat::WebP: return check_webp(bytes, size);
        case ImageFormat::Jpeg:  // libjpeg finds a JPEG's end itself (jpeg_decode.cpp)
        case ImageFormat::Unknown: break;
    }
    return {};
}

std::vector<uint8_t> png_exif(const uint8_t* b, size_t n) {
    std::vector<uint8_t> exif;
    for (size_t i = 8; i + 8 <= n;) {  // chunks: length, type, data, CRC
        const size_t length = be32(b + i);
        if (length > n - i - 8) break;
        if (std::memcmp(b + i + 4, "IEND", 4) == 0) break;
        if (std::memcmp(b + i + 4, "eXIf", 4) == 0) exif.assign(b + i + 8, b + i + 8 + length);
        if (n - i - 8 - length < 4) break;
        i += length + 12;
    }
    return exif;
}

}  // namespace vit::detail
