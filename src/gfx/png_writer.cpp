#include "gfx/png_writer.h"

#include <stb/stb_image_write.h>
#include <zlib.h>

#include "vit/base/error.h"

namespace gfx {
namespace {

void put_u32(std::string& out, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<char>((v >> s) & 0xFF));
}

std::string itxt_chunk(const PngText& t) {
    if (t.key.empty() || t.key.size() > 79) throw vit::Error("PNG text key '" + t.key + "' must have 1-79 characters");
    std::string data = t.key;
    data.push_back('\0');
    data += std::string("\0\0", 2);  // not compressed, method 0
    data.push_back('\0');            // no language tag
    data.push_back('\0');            // no translated key
    data += t.value;
    std::string chunk;
    put_u32(chunk, static_cast<uint32_t>(data.size()));
    chunk += "iTXt" + data;
    // The chunk's CRC covers its type and data, not the length before them.
    put_u32(chunk, static_cast<uint32_t>(::crc32(0L, reinterpret_cast<const Bytef*>(chunk.data() + 4),
                                                 static_cast<uInt>(chunk.size() - 4))));
    return chunk;
}

void append(void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
}

}  // namespace

std::string encode_png(const uint8_t* rgba, int width, int height, const std::vector<PngText>& text) {
    std::string png;
    if (width <= 0 || height <= 0 || !stbi_write_png_to_func(append, &png, width, height, 4, rgba, width * 4))
        throw vit::Error("PNG encoding failed for a " + std::to_string(width) + " x " + std::to_string(height) +
                         " image");
    // Text chunks go right after the signature (8 bytes) and IHDR (25 bytes).
    constexpr size_t kAfterHeader = 8 + 25;
    std::string chunks;
    for (const auto& t : text) chunks += itxt_chunk(t);
    png.insert(kAfterHeader, chunks);
    return png;
}

void write_png(const std::string& path, const uint8_t* rgba, int width, int height, const std::vector<PngText>& text,
               const vit::OutputRules& rules) {
    vit::write_output(path, encode_png(rgba, width, height, text), rules);
}

void write_png(const std::string& path, const RgbaImage& image, const std::vector<PngText>& text,
               const vit::OutputRules& rules) {
    write_png(path, image.pixels.data(), image.width, image.height, text, rules);
}

}  // namespace gfx
