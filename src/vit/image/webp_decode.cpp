// WebP through libwebp, the way Pillow 9.4 reads it (_webp.c,
// WebPImagePlugin.py): WebPAnimDecoder with its default options (RGBA, not
// premultiplied) for still and animated files alike, the first frame as its
// canvas shows it, alpha then dropped as convert("RGB") drops it, without
// blending. The EXIF chunk is the one Pillow's get_chunk("EXIF") returns.
#include <memory>

#include <webp/decode.h>
#include <webp/demux.h>

#include "vit/base/error.h"
#include "vit/image/photo_decoders.h"

namespace vit::detail {

DecodedPhoto decode_webp(const uint8_t* bytes, size_t size, const std::string& name) {
    const std::string damaged = name + " is a damaged or unsupported WebP (";
    // The canvas size from the headers, checked before the decoder allocates it.
    WebPBitstreamFeatures features;
    const VP8StatusCode status = WebPGetFeatures(bytes, size, &features);
    if (status == VP8_STATUS_NOT_ENOUGH_DATA) throw Error(name + " is truncated (the WebP ends inside its headers)");
    if (status != VP8_STATUS_OK) throw Error(damaged + "libwebp cannot read its headers)");
    refuse_if_huge(name, features.width, features.height);

    const WebPData data{bytes, size};
    const std::unique_ptr<WebPAnimDecoder, void (*)(WebPAnimDecoder*)> decoder(WebPAnimDecoderNew(&data, nullptr),
                                                                               &WebPAnimDecoderDelete);
    if (!decoder) throw Error(damaged + "libwebp cannot read its chunks)");
    WebPAnimInfo info;
    if (!WebPAnimDecoderGetInfo(decoder.get(), &info)) throw Error(damaged + "libwebp cannot read its chunks)");
    uint8_t* rgba = nullptr;  // the canvas, owned by the decoder
    int timestamp = 0;
    if (!WebPAnimDecoderGetNext(decoder.get(), &rgba, &timestamp) || !rgba)
        throw Error(damaged + "libwebp cannot decode its first frame)");

    DecodedPhoto out;
    out.image.width = static_cast<int>(info.canvas_width);
    out.image.height = static_cast<int>(info.canvas_height);
    const size_t pixels = static_cast<size_t>(info.canvas_width) * info.canvas_height;
    out.image.rgb.resize(pixels * 3);
    for (size_t i = 0; i < pixels; ++i)
        for (int c = 0; c < 3; ++c) out.image.rgb[i * 3 + c] = rgba[i * 4 + c];

    WebPChunkIterator exif;
    if (WebPDemuxGetChunk(WebPAnimDecoderGetDemuxer(decoder.get()), "EXIF", 1, &exif)) {
        out.exif.assign(exif.chunk.bytes, exif.chunk.bytes + exif.chunk.size);
        WebPDemuxReleaseChunkIterator(&exif);
    }
    return out;
}

}  // namespace vit::detail
