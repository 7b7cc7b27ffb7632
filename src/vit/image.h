// Photos as opened: 8-bit RGB at their original size, through stb_image.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace vit {

constexpr long long kMaxImagePixels = 64LL * 1000 * 1000;  // refused from the header, before decoding

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;  // width*height*3, row-major from the top-left
    uint8_t at(int x, int y, int c) const { return rgb[(static_cast<size_t>(y) * width + x) * 3 + c]; }
};

// JPEG/PNG/BMP/GIF (first frame). Grey and alpha become RGB (alpha dropped).
// Throws vit::Error: missing/unreadable file, empty, not an image, truncated,
// over kMaxImagePixels.
Image load_image(const std::string& path);
Image decode_image(const uint8_t* bytes, size_t size);  // the same from memory
// The same, naming the image `name` in error messages (load_image passes the path).
Image decode_image(const uint8_t* bytes, size_t size, const std::string& name);

}  // namespace vit
