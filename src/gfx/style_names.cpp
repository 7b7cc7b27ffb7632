#include "gfx/style_names.h"

namespace gfx {

const char* name_of(Colormap c) {
    switch (c) {
        case Colormap::Viridis: return "viridis";
        case Colormap::Magma: return "magma";
        case Colormap::Turbo: return "turbo";
        case Colormap::Diverging: return "diverging";
    }
    return "viridis";
}

const char* name_of(Normalization n) {
    switch (n) {
        case Normalization::RowMax: return "row-max";
        case Normalization::Absolute: return "absolute";
        case Normalization::Log: return "log";
    }
    return "row-max";
}

std::optional<Colormap> colormap_from_name(std::string_view name) {
    for (Colormap c : kColormaps)
        if (name == name_of(c)) return c;
    return std::nullopt;
}

std::optional<Normalization> normalization_from_name(std::string_view name) {
    for (Normalization n : kNormalizations)
        if (name == name_of(n)) return n;
    return std::nullopt;
}

}  // namespace gfx
