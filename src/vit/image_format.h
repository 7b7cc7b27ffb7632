// What kind of file a byte buffer holds, and whether it is complete. Used by
// image.cpp before handing bytes to stb_image, which accepts some files it
// should not: it guesses formats loosely (a text file can pass as TGA) and
// decodes truncated JPEG, BMP and GIF data as if the missing part were black.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace vit::detail {

enum class ImageFormat { Unknown, Jpeg, Png, Bmp, Gif };

// From the magic bytes at the start of the buffer.
ImageFormat sniff_format(const uint8_t* bytes, size_t size);
const char* format_name(ImageFormat format);  // "JPEG", "PNG", ...

// Width and height as the header states them, before any decoding (0, 0
// when the header is too short or malformed to say). JPEG: the first SOF
// segment; PNG: IHDR; BMP: the info header; GIF: the logical screen.
struct HeaderSize {
    long long width = 0, height = 0;
};
HeaderSize read_header_size(ImageFormat format, const uint8_t* bytes, size_t size);

// Empty when the file's structure is whole, else what is wrong, worded to
// follow the file's name: "is truncated (the JPEG ends before its
// end-of-image marker)". Walks the container only, never decodes pixels.
// JPEG: marker segments and scan data up to EOI (bytes after EOI are fine).
// PNG: chunks up to IEND. BMP: uncompressed pixel rows present. GIF: the
// first frame's blocks.
std::string check_container(ImageFormat format, const uint8_t* bytes, size_t size);

}  // namespace vit::detail
