// The core room's commands in the window: the photo and the second photo,
// the input size, experiments and page analyses, the screenshot, figure and
// sweep exports, the replace question's answer, quitting.
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "app/gui/sweep_gif.h"
#include "app/gui/window.h"
#include "app/gui/window_export.h"
#include "app/resource_paths.h"
#include "session/base/overloaded.h"
#include "session/core/core_names.h"
#include "session/core/output_rules.h"
#include "vit/base/error.h"

namespace app {

namespace fs = std::filesystem;

// File > Export sweep (GIF): the shown map's layer and head (or mean), along
// the recorded path or over every patch, as `vitscope sweep` makes it.
void Window::export_sweep(const std::string& path, bool replace) {
    const session::Loaded& l = s_.loaded;
    if (!l.ready() || !l.image) throw vit::Error("nothing to sweep yet: no model has run on a photo");
    Sweep sweep;
    sweep.photo = l.image.get();
    sweep.photo_path = l.image_path;
    sweep.crop = l.crop;
    sweep.model = l.model.get();
    sweep.model_dir = l.model_dir;
    sweep.trace = l.trace.get();
    sweep.choice.layer = s_.sel.layer;
    sweep.choice.source = s_.sel.source;
    sweep.choice.head = s_.sel.head;
    sweep.choice.visible_heads = s_.sel.visible_heads();
    sweep.path = s_.sweep_path.tokens;
    if (s_.style.colormap != gfx::Colormap::Diverging) sweep.colormap = s_.style.colormap;
    const std::string out =
        path.empty() ? unique_path(s_.export_dir, session::selection_slug(s_) + "_sweep", ".gif") : path;
    const SweepWritten written = write_sweep(sweep, out, session::output_rules(s_, replace));
    s_.status = "Saved a sweep of " + std::to_string(written.frames) +
                " frames: " + fs::absolute(out).lexically_normal().string();
}

void Window::carry_core(const session::CoreCommands& c) {
    using namespace session::cmd;
    const bool timing = !opt_.frame_stats.empty();  // --frame-stats: samples kept for the run's end
    std::visit(session::Overloaded{
                   [&](const OpenImage& x) {
                       run_worker({"", x.path, ""});
                       if (timing) stats_.interaction.opened(s_, "open");
                   },
                   [&](const OpenCompare& x) {
                       run_worker({"", "", x.path, -1});
                   },
                   [&](const SetInputSize& x) {
                       run_worker({"", "", "", x.px});
                       if (timing) stats_.interaction.opened(s_, "size");
                   },
                   [&](const RunExperiment& x) { experiments_->start(x.key, x.job); },
                   [&](const CancelExperiment&) { experiments_->cancel(); },
                   [&](const RunAnalysis& x) { analyses_->start(x.key, x.job); },
                   [&](const Screenshot& x) {
                       const std::string path = export_name(x.path, "_window", ".png");
                       vit::check_output(path,
                                         session::output_rules(s_, x.replace));  // now, so the question comes at once
                       pending_screenshot_ = path;
                       pending_screenshot_replace_ = x.replace;
                   },
                   [&](const ExportFigure& x) {
                       const std::string path = export_name(x.path, "", ".png");
                       save_figure_png(s_, path, session::output_rules(s_, x.replace));
                       s_.status = "Saved figure " + deliver_saved(path);
                   },
                   [&](const ExportSweep& x) { export_sweep(x.path, x.replace); },
                   [&](const AnswerReplace& x) {
                       s_.replace_question.clear();
                       if (x.replace) redo_replacing();
                       replace_pending_.reset();
                   },
                   [&](const Quit&) { s_.quit = true; },
               },
               c);
}

}  // namespace app
