// config.json's reader for the model level (config.cpp and each family's
// file in families/): fields of one JSON document, every error prefixed with
// the file's name.
#pragma once
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "vit/base/error.h"
#include "vit/base/untrusted_json.h"

namespace vit {

struct ConfigDoc {
    using json = nlohmann::json;
    std::string file;
    json j;

    [[noreturn]] void fail(const std::string& what) const { throw Error(file + ": " + what); }

    const json* find(const json& obj, const std::string& key) const {
        if (!obj.is_object()) return nullptr;
        auto it = obj.find(key);
        return it == obj.end() || it->is_null() ? nullptr : &*it;
    }

    int get_int(const json& v, const std::string& key) const {
        // Checked as a double first: a float like 1e300 does not fit an int.
        if (v.is_number()) {
            const double d = v.get<double>();
            if (d == std::floor(d) && std::abs(d) <= 1e9) return static_cast<int>(d);
        }
        fail("'" + key + "' must be an integer (at most 1e9 in size), not " + quote_for_error(v));
    }
    float get_float(const json& v, const std::string& key) const {
        if (!v.is_number()) fail("'" + key + "' must be a number, not " + quote_for_error(v));
        return v.get<float>();
    }
    // A positive ratio as Python reads it (a double): int(hidden * ratio) must truncate as it does there.
    double get_ratio(const json& v, const std::string& key) const {
        if (!v.is_number()) fail("'" + key + "' must be a number, not " + quote_for_error(v));
        const double r = v.get<double>();
        if (!(r > 0) || r > 1e6) fail("'" + key + "' must be positive (at most 1e6), not " + quote_for_error(v));
        return r;
    }
    std::string get_string(const json& v, const std::string& key) const {
        if (!v.is_string()) fail("'" + key + "' must be a string, not " + quote_for_error(v));
        return v.get<std::string>();
    }
    bool get_bool(const json& v, const std::string& key) const {
        if (!v.is_boolean()) fail("'" + key + "' must be true or false, not " + quote_for_error(v));
        return v.get<bool>();
    }
    // A class name is drawn on screen and in figures: one that long is no name.
    const std::string& label(const std::string& name) const {
        constexpr size_t kMaxLabelBytes = 1000;
        if (name.size() > kMaxLabelBytes)
            fail("a class name of " + std::to_string(name.size()) + " bytes (at most " +
                 std::to_string(kMaxLabelBytes) + ")");
        return name;
    }
    int positive(int value, const std::string& key) const {
        if (value <= 0) fail("'" + key + "' must be positive, not " + std::to_string(value));
        return value;
    }
    // An int, or a [h, w] / [c, h, w] list whose last two entries agree (square inputs only).
    int square_size(const json& v, const std::string& key) const {
        if (!v.is_array()) return positive(get_int(v, key), key);
        if (v.size() < 2) fail("'" + key + "' must list at least height and width");
        const int h = get_int(v[v.size() - 2], key), w = get_int(v[v.size() - 1], key);
        if (h != w)
            fail("'" + key + "' is " + std::to_string(h) + "x" + std::to_string(w) +
                 "; only square inputs are supported");
        return positive(h, key);
    }
    // Three channel values, or one value for all three, each within ±1000: a
    // mean of 1e308 would make the preprocessed input infinite and every number
    // after it NaN. (Means on the 0..255 scale stay well inside.)
    std::array<float, 3> rgb(const json& v, const std::string& key) const {
        auto channel = [&](const json& x) {
            if (!x.is_number()) fail("'" + key + "' must be a number, not " + quote_for_error(x));
            const double value = x.get<double>();
            if (!(std::abs(value) <= 1000))
                fail("'" + key + "' holds " + quote_for_error(x) + ", outside -1000..1000 (it would make the input " +
                     (std::isfinite(static_cast<float>(value)) ? "meaningless)" : "infinite)"));
            return static_cast<float>(value);
        };
        if (v.is_number()) {
            const float x = channel(v);
            return {x, x, x};
        }
        if (!v.is_array() || v.size() != 3) fail("'" + key + "' must list 3 channel values, not " + quote_for_error(v));
        return {channel(v[0]), channel(v[1]), channel(v[2])};
    }
};

}  // namespace vit
