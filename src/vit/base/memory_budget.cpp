#include "vit/base/memory_budget.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "vit/base/error.h"

namespace vit {

size_t parse_memory_budget(const std::string& text) {
    const std::string what = "VITSCOPE_MEMORY_BUDGET '" + text.substr(0, 32) + (text.size() > 32 ? "…'" : "'");
    const std::string expected = " is not a size like 512M, 4G or 1T (16M to 64T)";
    if (text.empty() || text.size() > 32) throw Error(what + expected);
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    const std::string unit(end);
    const double scale = unit.empty()  ? 1.0
                         : unit == "K" ? 0x1p10
                         : unit == "M" ? 0x1p20
                         : unit == "G" ? 0x1p30
                         : unit == "T" ? 0x1p40
                                       : 0.0;
    if (end == text.c_str() || !std::isfinite(value) || !(value > 0) || scale == 0) throw Error(what + expected);
    // Checked in double before the conversion: a size_t cannot hold 1e30, and converting it would be undefined.
    const double bytes = value * scale;
    if (bytes < kMinMemoryBudget || bytes > kMaxMemoryBudget) throw Error(what + " is outside 16M to 64T");
    return static_cast<size_t>(bytes);
}

size_t default_memory_budget() {
    const char* env = std::getenv("VITSCOPE_MEMORY_BUDGET");
    if (!env || !*env) return size_t{2} << 30;
    return parse_memory_budget(env);
}

std::string byte_size(size_t bytes) {
    // Three significant digits in the largest unit that keeps one whole: 16 MiB and 22 MiB never both read "0.02 GiB".
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 6) value /= 1024, ++unit;
    char text[40];
    if (unit == 0) std::snprintf(text, sizeof text, "%zu bytes", bytes);
    else
        std::snprintf(text, sizeof text,
                      value < 10    ? "%.2f %s"
                      : value < 100 ? "%.1f %s"
                                    : "%.0f %s",
                      value, units[unit]);
    return text;
}

}  // namespace vit
