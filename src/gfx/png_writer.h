// PNG files through stb_image_write, with optional text chunks (the figure
// records its caption and layout in them), written whole or not at all.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "rgba_image.h"

namespace gfx {

// One iTXt chunk: key of 1-79 printable Latin-1 characters, UTF-8 value.
struct PngText {
    std::string key, value;
};

// The PNG file's bytes for top-down RGBA pixels.
std::string encode_png(const uint8_t* rgba, int width, int height, const std::vector<PngText>& text = {});

// Writes PATH.tmp and renames it over PATH once complete, so a failure never
// leaves a partial file. Throws vit::Error naming the path.
void write_png(const std::string& path, const uint8_t* rgba, int width, int height,
               const std::vector<PngText>& text = {});
void write_png(const std::string& path, const RgbaImage& image, const std::vector<PngText>& text = {});

}  // namespace gfx
