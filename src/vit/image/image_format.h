// What kind of file a byte buffer holds, and whether it is complete. Used by
// image.cpp before handing bytes to a decoder: stb_image (PNG, BMP, GIF)
// accepts some files it should not: it guesses formats loosely (a text file
// can pass as TGA) and decodes truncated BMP and GIF data as if the missing
// part were black. JPEG files are left to libjpeg, which finds their end and
// their damage itself, as it does for Pillow.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vit::detail {

enum class ImageFormat { Unknown, Jpeg, Png, Bmp, Gif, WebP };

// From the magic bytes at the start of the buffer.
ImageFormat sniff_format(const uint8_t* bytes, size_t size);
const char* format_name(ImageFormat format);  // "JPEG", "PNG", ...

// Width and height as the header states them, before any decoding (0, 0
// when the header is too short or malformed to say). JPEG: the first SOF
// segment; PNG: IHDR; BMP: the info header; GIF: the logical screen; WebP:
// the VP8X canvas, or the VP8L / VP8 frame of a simple file.
struct HeaderSize {
    long long width = 0, height = 0;
};
HeaderSize read_header_size(ImageFormat format, const uint8_t* bytes, size_t size);

// Empty when the file's structure is whole, else what is wrong, worded to
// follow the file's name: "is truncated (the PNG ends before its IEND
// chunk)". Walks the container only, never decodes pixels. PNG: chunks up to
// IEND (bytes after IEND are fine). BMP: uncompressed pixel rows present.
// GIF: the first frame's blocks. WebP: the size in the RIFF header present.
// JPEG: nothing (libjpeg's business).
std::string check_container(ImageFormat format, const uint8_t* bytes, size_t size);

// The data of a PNG's eXIf chunk (the last one, as Pillow keeps the last),
// or empty. Chunks are walked up to IEND or the file's end.
std::vector<uint8_t> png_exif(const uint8_t* bytes, size_t size);

}  // namespace vit::detail
