// File > Get a model…: the known models (assets/models.json) with their size
// and why one would look at each; choosing one downloads it (session's
// ModelDownloader, with a progress bar and Cancel) and opens it.
#pragma once
#include <vector>

#include "ui/widgets/frame.h"

namespace ui {

class GetModelDialog {
public:
    void draw(const Frame& f);

private:
    std::vector<bool> downloaded_;  // per known model; refreshed when the dialog opens and after a download
    bool was_running_ = false;
};

}  // namespace ui
