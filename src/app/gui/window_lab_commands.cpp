// The Learning lab's commands in the window: its runs, training, and a
// checkpoint opened in the explorer (LabController).
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "app/gui/lab_slides.h"
#include "app/gui/window.h"
#include "app/gui/window_export.h"
#include "app/resource_paths.h"
#include "session/base/overloaded.h"
#include "session/core/output_rules.h"
#include "vit/base/error.h"

namespace app {

namespace fs = std::filesystem;

void Window::carry_lab(const session::LabCommands& c) {
    const auto& x = std::get<session::cmd::Lab>(c);
    if (const auto* slides = std::get_if<session::lab::ExportSlides>(&x.command)) {
        // Drawn here, on the window's thread: one offscreen frame a checkpoint, as `vitscope lab -o` draws them.
        if (!s_.lab.run) throw vit::Error("no run open in the lab to export");
        const std::string dir = slides->dir.empty() ? unique_path(s_.export_dir, "lab_slides", "") : slides->dir;
        session::AppState at = s_;
        at.lab = {};
        write_lab_slides(at, s_.lab.run->dir, LabSlideChoice{s_.lab.sample, s_.lab.query_square, {}}, dir,
                         session::output_rules(s_, false), slide_size(s_.classroom));
        s_.status = "Saved the lab's slides in " + deliver_saved(dir);
        return;
    }
    if (auto explore = lab_->handle(s_, x.command)) run_worker({explore->model_dir, explore->image, ""});
}

}  // namespace app
