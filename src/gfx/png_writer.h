// PNG files through stb_image_write, with optional text chunks (the figure
// records its caption and layout in them), written whole or not at all.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gfx/rgba_image.h"
#include "vit/base/output_file.h"

namespace gfx {

// One iTXt chunk: key of 1-79 printable Latin-1 characters, UTF-8 value.
struct PngText {
    std::string key, value;
};

// The PNG file's bytes for top-down RGBA pixels.
std::string encode_png(const uint8_t* rgba, int width, int height, const std::vector<PngText>& text = {});

// Writes the file under the output rule (vit/base/output_file.h): whole or
// not at all, an existing file replaced only as `rules` allow. Throws vit::Error naming the path.
void write_png(const std::string& path, const uint8_t* rgba, int width, int height, const std::vector<PngText>& text,
               const vit::OutputRules& rules);
void write_png(const std::string& path, const RgbaImage& image, const std::vector<PngText>& text,
               const vit::OutputRules& rules);

}  // namespace gfx
