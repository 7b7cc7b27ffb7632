// Type-level helpers for the rooms' action and command lists: the window's
// Action and Command are every room's variants joined into one, and a value
// of the joined variant goes back to the one room whose variant holds its type.
#pragma once
#include <type_traits>
#include <variant>

namespace session {

// joined_variant_t<variant<A, B>, variant<>, variant<C>>: variant<A, B, C>.
template <class... Variants>
struct joined_variant;
template <class... A>
struct joined_variant<std::variant<A...>> {
    using type = std::variant<A...>;
};
template <class... A, class... B, class... Rest>
struct joined_variant<std::variant<A...>, std::variant<B...>, Rest...>
    : joined_variant<std::variant<A..., B...>, Rest...> {};
template <class... Variants>
using joined_variant_t = typename joined_variant<Variants...>::type;

// Whether T is one of the variant's alternatives (exactly, not by conversion).
template <class Variant, class T>
struct variant_holds;
template <class... A, class T>
struct variant_holds<std::variant<A...>, T> : std::bool_constant<(std::is_same_v<A, T> || ...)> {};
template <class Variant, class T>
inline constexpr bool variant_holds_v = variant_holds<Variant, std::remove_cvref_t<T>>::value;

}  // namespace session
