#include "vit/base/memory_budget.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "vit/base/error.h"

namespace vit {

size_t parse_memory_budget(const std::string& text) {
    const std::string what = "VITSCOPE_MEMORY_BUDGET '" + text + "'";
    if (text.empty() || text.size() > 32) throw Error(what + " is not a size like 512M or 4G");
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    const std::string unit(end);
    const double scale = unit.empty() ? 1 : unit == "K" ? 1 << 10 : unit == "M" ? 1 << 20 : unit == "G" ? 1 << 30 : 0;
    if (end == text.c_str() || !std::isfinite(value) || !(value > 0) || scale == 0)
        throw Error(what + " is not a size like 512M or 4G");
    // Checked in double before the conversion: a size_t cannot hold 1e30, and converting it would be undefined.
    const double bytes = value * scale;
    if (bytes < kMinMemoryBudget || bytes > kMaxMemoryBudget)
        throw Error(what + " is outside 16M to 64T");
    return static_cast<size_t>(bytes);
}

size_t default_memory_budget() {
    const char* env = std::getenv("VITSCOPE_MEMORY_BUDGET");
    if (!env || !*env) return size_t{2} << 30;
    return parse_memory_budget(env);
}

std::string gib(size_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1u << 30));
    return text;
}

}  // namespace vit
