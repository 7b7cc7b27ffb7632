// std::bit_cast, and std::to_chars / std::from_chars for floating point, as
// vit::bit_cast, vit::shortest_chars and vit::decimal_from_chars: the standard
// library's where it has them (libstdc++ of GCC 12, the desktop build's), and
// the same results from the C library where it has not (libc++ of LLVM 14,
// the browser build's emscripten).
#pragma once
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>
#include <type_traits>

namespace vit {

#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 15000
#define VIT_STD_FLOAT_CHARS 0
#else
#define VIT_STD_FLOAT_CHARS 1
#endif
inline constexpr bool kStdFloatChars = VIT_STD_FLOAT_CHARS;

template <class To, class From>
constexpr To bit_cast(const From& from) noexcept {
    static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<From>);
    return __builtin_bit_cast(To, from);
}

// The shortest decimal that reads back as value, as std::to_chars(first, last, value) writes it.
template <class T>
std::to_chars_result shortest_chars(char* first, char* last, T value) {
    if constexpr (kStdFloatChars) {
        return std::to_chars(first, last, value);
    } else {
        // The fewest significant digits that read back as the value: those
        // std::to_chars picks (correctly rounded, so the closest of that length).
        char text[64];
        for (int digits = 1; digits <= 17; ++digits) {
            std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(value));
            if (static_cast<T>(std::strtod(text, nullptr)) == value) break;
        }
        const std::size_t n = std::strlen(text);
        if (n > static_cast<std::size_t>(last - first)) return {last, std::errc::value_too_large};
        std::memcpy(first, text, n);
        return {first + n, std::errc()};
    }
}

// A decimal number from [first, last) as std::from_chars reads a double (no
// leading '+' or spaces, no hex); ec is invalid_argument where none starts.
inline std::from_chars_result decimal_from_chars(const char* first, const char* last, double& value) {
#if VIT_STD_FLOAT_CHARS
    return std::from_chars(first, last, value);
#else
    const std::string text(first, last);
    if (text.empty() || text[0] == '+' || std::isspace(static_cast<unsigned char>(text[0])) ||
        text.find_first_of("xX") != std::string::npos)
        return {first, std::errc::invalid_argument};
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str()) return {first, std::errc::invalid_argument};
    value = v;
    return {first + (end - text.c_str()), std::errc()};
#endif
}

}  // namespace vit
