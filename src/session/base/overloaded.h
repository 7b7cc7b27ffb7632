// std::visit over lambdas: Overloaded{[](const A&) {...}, [](const B&) {...}}.
// Without a catch-all lambda, an alternative without its case does not
// compile, which is how the action and command dispatchers stay whole.
#pragma once

namespace session {

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace session
