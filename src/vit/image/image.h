// Photos as opened: 8-bit RGB at their original size, upright. The pixels are
// PIL's: ImageOps.exif_transpose(Image.open(path)).convert("RGB"), JPEG
// through libjpeg-turbo and WebP through libwebp as Pillow sets them up
// (photo_decoders.h), PNG, BMP and GIF through stb_image.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace vit {

constexpr long long kMaxImagePixels = 64LL * 1000 * 1000;  // refused from the header, before decoding

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;  // width*height*3, row-major from the top-left
    int orientation = 1;       // the EXIF orientation applied (1: the photo was stored upright)
    uint8_t at(int x, int y, int c) const { return rgb[(static_cast<size_t>(y) * width + x) * 3 + c]; }
};

// JPEG/PNG/WebP/BMP/GIF (animations: the first frame). Grey and alpha become
// RGB (alpha dropped). The EXIF orientation of a JPEG, a PNG (eXIf chunk) or
// a WebP is applied. Throws vit::Error: missing/unreadable file, empty, not
// an image, truncated, damaged, over kMaxImagePixels.
Image load_image(const std::string& path);
Image decode_image(const uint8_t* bytes, size_t size);  // the same from memory
// The same, naming the image `name` in error messages (load_image passes the path).
Image decode_image(const uint8_t* bytes, size_t size, const std::string& name);

}  // namespace vit
