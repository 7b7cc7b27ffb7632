// --frame-stats FILE: frame times over the run, and apart those drawn while a
// Questions page's experiment or analysis ran off the window's thread; and
// the time from each open and select to the frame showing its maps.
#pragma once
#include <string>
#include <vector>

#include "app/gui/interaction_timing.h"

namespace app {

struct FrameStats {
    std::vector<double> ms;
    std::vector<bool> beside_work;  // per frame: an experiment or analysis was running
    InteractionTiming interaction;

    void write(const std::string& path, int w, int h);
};

}  // namespace app
