// Names of colormaps and normalisations, as the command line, the settings
// file and the UI's menus spell them.
#pragma once
#include <optional>
#include <string_view>

#include "gfx/overlay_style.h"

namespace gfx {

inline constexpr Colormap kColormaps[] = {Colormap::Viridis, Colormap::Magma, Colormap::Turbo, Colormap::Diverging};
inline constexpr Normalization kNormalizations[] = {Normalization::RowMax, Normalization::Absolute, Normalization::Log};
// The normalisations in the window's words (the combo under the photo, View > Scale), in kNormalizations' order.
inline constexpr const char* kNormalizationLabels[] = {"row max", "absolute (0..1)", "log (3 decades)"};

const char* name_of(Colormap c);       // "viridis", "magma", "turbo", "diverging"
const char* name_of(Normalization n);  // "row-max", "absolute", "log"
std::optional<Colormap> colormap_from_name(std::string_view name);
std::optional<Normalization> normalization_from_name(std::string_view name);

}  // namespace gfx
