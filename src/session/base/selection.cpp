#include "session/base/selection.h"

namespace session {

int math_step_number(const std::string& name) {
    for (int i = 0; i < kMathSteps; ++i)
        if (name == kMathStepNames[i]) return i + 1;
    return 0;
}

}  // namespace session
