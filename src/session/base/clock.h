// Seconds on the steady clock: for durations the session reports (a worker's
// run, a download's rate), never for dates.
#pragma once
#include <chrono>

namespace session {

inline double now_seconds() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace session
