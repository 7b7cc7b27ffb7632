// What the model worker is doing, as the status bar shows it.
#pragma once
#include <string>

namespace session {

struct WorkProgress {
    bool busy = false;
    std::string stage;   // "Running the forward pass", ...
    double seconds = 0;  // since the job started
};

}  // namespace session
