#include "gfx/animation_writer.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "gfx/gif_writer.h"
#include "gfx/webp_anim_writer.h"

namespace gfx {

bool is_webp_path(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".webp";
}

std::unique_ptr<AnimationWriter> open_animation(const std::string& path, int width, int height,
                                                const AnimationOptions& options) {
    if (is_webp_path(path)) return std::make_unique<WebpAnimWriter>(path, width, height, options.rules);
    return std::make_unique<GifWriter>(path, width, height, options.rules, options.dither, options.fixed_colours);
}

}  // namespace gfx
