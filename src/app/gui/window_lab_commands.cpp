// The Learning lab's commands in the window: its runs, training, and a
// checkpoint opened in the explorer (LabController).
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "app/gui/window.h"
#include "app/resource_paths.h"
#include "session/base/overloaded.h"
#include "session/core/output_rules.h"
#include "vit/base/error.h"

namespace app {

namespace fs = std::filesystem;

void Window::carry_lab(const session::LabCommands& c) {
    const auto& x = std::get<session::cmd::Lab>(c);
    if (auto explore = lab_->handle(s_, x.command)) run_worker({explore->model_dir, explore->image, ""});
}

}  // namespace app
