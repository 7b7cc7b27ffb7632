#include "session/dispatch/actions.h"

#include "session/dispatch/reactions.h"

namespace session {
namespace {

#define VITSCOPE_HOLDS(name, Name) +variant_holds_v<Name##Actions, X>
template <class X>
constexpr int rooms_holding = 0 VITSCOPE_ROOMS(VITSCOPE_HOLDS);
#undef VITSCOPE_HOLDS

// The one room whose actions hold X applies it.
template <class X>
void apply_in_room(AppState& s, const X& x) {
    static_assert(rooms_holding<X> == 1, "an action belongs to exactly one room");
#define VITSCOPE_APPLY_IN(name, Name) \
    if constexpr (variant_holds_v<Name##Actions, X>) apply_##name(s, Name##Actions{x});
    VITSCOPE_ROOMS(VITSCOPE_APPLY_IN)
#undef VITSCOPE_APPLY_IN
}

}  // namespace

void apply(AppState& s, const Action& a) {
    std::visit(
        [&](const auto& x) {
            react_before(s, x);
            apply_in_room(s, x);
            react_after(s, x);
        },
        a);
}

}  // namespace session
