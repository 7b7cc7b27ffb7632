#include "vit/image/image.h"

#include <stb/stb_image.h>

#include <climits>
#include <cstdint>
#include <memory>
#include <utility>

#include "vit/base/error.h"
#include "vit/base/read_file.h"
#include "vit/image/exif_orientation.h"
#include "vit/image/image_format.h"
#include "vit/image/photo_decoders.h"

namespace vit {
namespace {

// Far above any photo worth opening, and refused before reading it.
constexpr uint64_t kMaxFileBytes = 512ULL << 20;

std::string stb_reason() {
    const char* reason = stbi_failure_reason();
    return reason ? reason : "unknown reason";
}

}  // namespace

namespace detail {

void refuse_if_huge(const std::string& name, long long width, long long height) {
    // Divided, not multiplied: two 32-bit header sizes overflow a product.
    if (width > 0 && height > 0 && width > kMaxImagePixels / height)
        throw Error(name + ": " + std::to_string(width) + " x " + std::to_string(height) +
                    " pixels is over the 64-megapixel limit");
}

}  // namespace detail

namespace {

// PNG, BMP and GIF. Asking for 3 channels turns grey, grey+alpha and RGBA
// into RGB (alpha dropped, as PIL's convert('RGB') does) and 16-bit samples
// into 8-bit.
detail::DecodedPhoto decode_with_stb(const uint8_t* bytes, size_t size, const std::string& name,
                                     detail::ImageFormat format) {
    using namespace detail;
    const std::string damaged = name + " is a damaged or unsupported " + format_name(format) + " (";
    int width = 0, height = 0, channels = 0;
    if (!stbi_info_from_memory(bytes, static_cast<int>(size), &width, &height, &channels))
        throw Error(damaged + stb_reason() + ")");
    if (width <= 0 || height <= 0) throw Error(damaged + "no pixels)");
    refuse_if_huge(name, width, height);

    // The flip flag is global in stb_image; the GL code may set it for its own
    // textures, so pin it off for this thread's decode.
    stbi_set_flip_vertically_on_load_thread(0);
    std::unique_ptr<stbi_uc, void (*)(void*)> pixels(stbi_load_from_memory(bytes, static_cast<int>(size), &width,
                                                                           &height, &channels, 3),
                                                     &stbi_image_free);
    if (!pixels) throw Error(damaged + stb_reason() + ")");

    DecodedPhoto out;
    out.image.width = width;
    out.image.height = height;
    out.image.rgb.assign(pixels.get(), pixels.get() + static_cast<size_t>(width) * height * 3);
    if (format == ImageFormat::Png) out.exif = png_exif(bytes, size);
    return out;
}

}  // namespace

Image decode_image(const uint8_t* bytes, size_t size, const std::string& name) {
    using namespace detail;
    if (size == 0) throw Error(name + " is empty");
    if (size > INT_MAX) throw Error(name + " is over 2 GiB, too large to decode");
    const ImageFormat format = sniff_format(bytes, size);
    if (format == ImageFormat::Unknown)
        throw Error(name + " is not an image vitscope can read (JPEG, PNG, WebP, BMP or GIF)");

    // A huge image is refused from its header, before any pixel memory is
    // allocated. Our own header read, because stbi_info itself refuses images
    // over 2^30 bytes with only "unknown image type".
    const HeaderSize header = read_header_size(format, bytes, size);
    refuse_if_huge(name, header.width, header.height);
    // The container is checked before the decoder reads any of it: stb_image
    // decodes truncated files as if the rest were black.
    if (const std::string problem = check_container(format, bytes, size); !problem.empty())
        throw Error(name + " " + problem);
    DecodedPhoto photo = format == ImageFormat::Jpeg   ? decode_jpeg(bytes, size, name)
                         : format == ImageFormat::WebP ? decode_webp(bytes, size, name)
                                                       : decode_with_stb(bytes, size, name, format);
    if (!photo.exif.empty()) apply_orientation(photo.image, exif_orientation(photo.exif.data(), photo.exif.size()));
    return std::move(photo.image);
}

Image decode_image(const uint8_t* bytes, size_t size) { return decode_image(bytes, size, "the image"); }

Image load_image(const std::string& path) {
    const std::string bytes = read_whole_file(path, kMaxFileBytes, "an image");
    return decode_image(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), path);
}

}  // namespace vit
