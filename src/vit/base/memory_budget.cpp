#include "vit/base/memory_budget.h"

#include <cstdio>
#include <cstdlib>

#include "vit/base/error.h"

namespace vit {

size_t default_memory_budget() {
    const char* env = std::getenv("VITSCOPE_MEMORY_BUDGET");
    if (!env || !*env) return size_t{2} << 30;
    char* end = nullptr;
    const double value = std::strtod(env, &end);
    const std::string unit(end);
    const double scale = unit.empty() ? 1 : unit == "K" ? 1 << 10 : unit == "M" ? 1 << 20 : unit == "G" ? 1 << 30 : 0;
    if (!(value > 0) || scale == 0)
        throw Error(std::string("VITSCOPE_MEMORY_BUDGET '") + env + "' is not a size like 512M or 4G");
    return static_cast<size_t>(value * scale);
}

std::string gib(size_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1u << 30));
    return text;
}

}  // namespace vit
