#include "gfx/colorbar_ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace gfx {
namespace {

std::string format_fixed(double v, int decimals) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    if (std::string_view(buf).find_first_not_of("-0.") == std::string_view::npos)
        return std::string(1, '0');  // not "-0.00"
    return buf;
}

std::string format_general(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

// The smallest step of the form {1, 2, 2.5, 5} x 10^k that is >= raw.
double nice_step(double raw, int& decimals) {
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * decade >= raw * (1 - 1e-6)) {
            const double step = m * decade;
            decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)) + (m == 2.5 ? 1 : 0));
            return step;
        }
    decimals = 0;
    return 10 * decade;
}

}  // namespace

double value_at_position(const OverlayStyle& s, float row_max, double t) {
    const double n = s.value_min + t * (static_cast<double>(s.value_max) - s.value_min);
    switch (s.normalization) {
        case Normalization::Absolute: return n;
        case Normalization::Log: return row_max * std::pow(10.0, 3.0 * n - 3.0);
        case Normalization::RowMax: break;
    }
    return n * row_max;
}

std::vector<Tick> colorbar_ticks(const OverlayStyle& s, float row_max, int max_ticks) {
    std::vector<Tick> ticks;
    const double a = value_at_position(s, row_max, 0.0), b = value_at_position(s, row_max, 1.0);
    if (!(b > a) || !std::isfinite(a) || !std::isfinite(b)) {
        ticks.push_back({0.f, format_general(a)});
        return ticks;
    }
    if (s.normalization == Normalization::Log && a > 0) {
        // Positions are linear in log10(value).
        const double la = std::log10(a), lb = std::log10(b);
        auto add = [&](double v) {
            if (v >= a * (1 - 1e-9) && v <= b * (1 + 1e-9))
                ticks.push_back({static_cast<float>((std::log10(v) - la) / (lb - la)), format_general(v)});
        };
        for (int e = static_cast<int>(std::floor(la)); e <= static_cast<int>(std::ceil(lb)); ++e)
            add(std::pow(10.0, e));
        if (static_cast<int>(ticks.size()) < 3) {
            ticks.clear();
            for (int e = static_cast<int>(std::floor(la)); e <= static_cast<int>(std::ceil(lb)); ++e)
                for (double m : {1.0, 2.0, 5.0}) add(m * std::pow(10.0, e));
        }
        return ticks;
    }
    int decimals = 0;
    const double step = nice_step((b - a) / std::max(1, max_ticks - 1), decimals);
    const long long first = static_cast<long long>(std::ceil(a / step - 1e-9));
    for (long long i = first; i * step <= b + step * 1e-9; ++i)
        ticks.push_back({static_cast<float>((i * step - a) / (b - a)), format_fixed(i * step, decimals)});
    return ticks;
}

}  // namespace gfx
