#include "vit/image/exif_orientation.h"

#include <climits>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include <libexif/exif-data.h>

namespace vit::detail {

int exif_orientation(const uint8_t* exif, size_t size) {
    static constexpr uint8_t kHeader[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (!exif || size == 0 || size > UINT_MAX - sizeof kHeader) return 1;
    // libexif wants the header; WebP and PNG blocks usually come without it.
    std::vector<uint8_t> block;
    if (size < sizeof kHeader || std::memcmp(exif, kHeader, sizeof kHeader) != 0)
        block.assign(kHeader, kHeader + sizeof kHeader);
    block.insert(block.end(), exif, exif + size);

    const std::unique_ptr<ExifData, void (*)(ExifData*)> data(exif_data_new(), &exif_data_unref);
    if (!data) return 1;
    // As stored: no mandatory tags added, none "fixed".
    exif_data_unset_option(data.get(), EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_load_data(data.get(), block.data(), static_cast<unsigned int>(block.size()));
    const ExifEntry* e = exif_content_get_entry(data->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
    if (!e || !e->data || e->components == 0) return 1;
    // Pillow reads any integer type and, when there are several values, the first.
    const ExifByteOrder order = exif_data_get_byte_order(data.get());
    const unsigned size_needed = exif_format_get_size(e->format);
    if (size_needed == 0 || e->size < size_needed) return 1;
    long value = 0;
    switch (e->format) {
        case EXIF_FORMAT_BYTE: value = e->data[0]; break;
        case EXIF_FORMAT_SBYTE: value = static_cast<int8_t>(e->data[0]); break;
        case EXIF_FORMAT_SHORT: value = exif_get_short(e->data, order); break;
        case EXIF_FORMAT_SSHORT: value = exif_get_sshort(e->data, order); break;
        case EXIF_FORMAT_LONG: value = static_cast<long>(exif_get_long(e->data, order)); break;
        case EXIF_FORMAT_SLONG: value = exif_get_slong(e->data, order); break;
        default: return 1;
    }
    return value >= 1 && value <= 8 ? static_cast<int>(value) : 1;
}

void apply_orientation(Image& image, int orientation) {
    if (orientation < 2 || orientation > 8) return;
    const int w = image.width, h = image.height;
    const bool swap = orientation >= 5;  // the quarter turns and transposes swap width and height
    Image out;
    out.width = swap ? h : w;
    out.height = swap ? w : h;
    out.rgb.resize(image.rgb.size());
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x) {
            int sx = x, sy = y;  // the stored pixel that lands at (x, y)
            switch (orientation) {
                case 2: sx = w - 1 - x; break;
                case 3: sx = w - 1 - x, sy = h - 1 - y; break;
                case 4: sy = h - 1 - y; break;
                case 5: sx = y, sy = x; break;
                case 6: sx = y, sy = h - 1 - x; break;
                case 7: sx = w - 1 - y, sy = h - 1 - x; break;
                case 8: sx = w - 1 - y, sy = x; break;
            }
            std::memcpy(&out.rgb[(static_cast<size_t>(y) * out.width + x) * 3],
                        &image.rgb[(static_cast<size_t>(sy) * w + sx) * 3], 3);
        }
    out.orientation = orientation;
    image = std::move(out);
}

}  // namespace vit::detail
