// The one line parse_exercises refuses an exercises file's text with (the
// file named f.exercises); empty when it accepts it. For the format's tests.
#pragma once
#include <string>

#include "session/homework/exercises.h"
#include "vit/base/error.h"

namespace test_support {

inline std::string exercises_refusal(const std::string& text) {
    try {
        session::parse_exercises(text, "f.exercises");
    } catch (const vit::Error& e) {
        return e.what();
    }
    return {};
}

}  // namespace test_support
