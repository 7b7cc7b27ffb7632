// The decoders image.cpp hands JPEG and WebP files to, each set up the way
// Pillow sets up the same library, so vitscope's pixels are PIL's pixels:
// libjpeg-turbo (jpeg_decode.cpp) and libwebp (webp_decode.cpp). PNG, BMP and
// GIF stay with stb_image (image.cpp). Internal to src/vit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "vit/image/image.h"

namespace vit::detail {

struct DecodedPhoto {
    Image image;                // as stored, before any EXIF orientation
    std::vector<uint8_t> exif;  // the file's EXIF block (TIFF data, maybe after "Exif\0\0"), empty if none
};

// Throws "NAME: W x H pixels is over the 64-megapixel limit" (image.cpp).
void refuse_if_huge(const std::string& name, long long width, long long height);

// Both throw vit::Error with a one-line message starting with `name`.
DecodedPhoto decode_jpeg(const uint8_t* bytes, size_t size, const std::string& name);
DecodedPhoto decode_webp(const uint8_t* bytes, size_t size, const std::string& name);

}  // namespace vit::detail
