#include "session/base/style_json.h"

#include <algorithm>

#include "gfx/style_names.h"

namespace session {

nlohmann::json style_json(const gfx::OverlayStyle& style) {
    return {{"colormap", gfx::name_of(style.colormap)},
            {"normalization", gfx::name_of(style.normalization)},
            {"opacity", style.opacity},
            {"fade", style.fade},
            {"bilinear", style.bilinear},
            {"grid", style.show_grid}};
}

void read_style(const nlohmann::json& j, gfx::OverlayStyle& style, StyleReading how, const StyleProblem& bad) {
    const bool strict = how == StyleReading::Strict;
    // The field's value, or null when it is missing (and said so when required).
    const auto field = [&](const char* key) -> const nlohmann::json* {
        if (j.contains(key)) return &j[key];
        if (strict) bad(key, std::string("no \"") + key + "\"");
        return nullptr;
    };
    const auto quoted = [](const char* key) { return std::string("\"") + key + "\""; };
    if (const auto* v = field("colormap")) {
        const auto c = v->is_string() ? gfx::colormap_from_name(v->get<std::string>()) : std::nullopt;
        if (c) style.colormap = *c;
        else bad("colormap", quoted("colormap") + " is not viridis, magma, turbo or diverging");
    }
    if (const auto* v = field("normalization")) {
        const auto n = v->is_string() ? gfx::normalization_from_name(v->get<std::string>()) : std::nullopt;
        if (n) style.normalization = *n;
        else bad("normalization", quoted("normalization") + " is not row-max, absolute or log");
    }
    if (const auto* v = field("opacity")) {
        const double x = v->is_number() ? v->get<double>() : -1;
        if (v->is_number() && !strict) style.opacity = static_cast<float>(std::clamp(x, 0.0, 1.0));
        else if (x >= 0 && x <= 1) style.opacity = static_cast<float>(x);
        else bad("opacity", quoted("opacity") + (v->is_number() ? " is outside 0..1" : " is not a number"));
    }
    for (auto [key, flag] : {std::pair<const char*, bool*>{"fade", &style.fade},
                             {"bilinear", &style.bilinear},
                             {"grid", &style.show_grid}}) {
        if (const auto* v = field(key)) {
            if (v->is_boolean()) *flag = v->get<bool>();
            else bad(key, quoted(key) + " is not true or false");
        }
    }
}

}  // namespace session
