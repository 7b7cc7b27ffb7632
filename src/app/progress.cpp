#include "app/progress.h"

#include <cstdio>
#include <memory>

#include "vit/base/printable.h"

namespace app {

vit::TaskControl stderr_progress(const std::string& what) {
    vit::TaskControl control;
    auto last_tenth = std::make_shared<int>(-1);
    control.progress = [what, last_tenth](int done, int total) {
        if (total <= 0) return;
        const int tenth = done * 10 / total;
        if (tenth == *last_tenth) return;
        *last_tenth = tenth;
        std::fprintf(stderr, "vitscope: %s: %d%% (%d of %d)\n", vit::printable(what).c_str(), done * 100 / total, done,
                     total);
    };
    return control;
}

}  // namespace app
