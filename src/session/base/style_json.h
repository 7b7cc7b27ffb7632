// The overlay style's saved fields (colormap, normalization, opacity, fade,
// bilinear, grid): written the same way by the settings, the lessons and the
// state file, and read back by one reader.
#pragma once
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "gfx/overlay_style.h"

namespace session {

nlohmann::json style_json(const gfx::OverlayStyle& style);

// How a file's style is read. Strict (a lesson, written by vitscope): every
// field there and in range. Lenient (the settings, which people edit): a
// missing field keeps its value and a number out of range is clamped.
enum class StyleReading { Strict, Lenient };

// Reads the saved fields of the object `j` into `style`. A field that is
// missing (Strict) or cannot be read is passed to `bad` with why, in the
// lesson's words ("\"colormap\" is not viridis, magma, turbo or
// diverging"), and leaves its value as it was.
using StyleProblem = std::function<void(const std::string& key, const std::string& why)>;
void read_style(const nlohmann::json& j, gfx::OverlayStyle& style, StyleReading how, const StyleProblem& bad);

}  // namespace session
