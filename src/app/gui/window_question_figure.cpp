#include "app/gui/window_question_figure.h"

#include <exception>
#include <filesystem>

#include "app/gui/window_export.h"
#include "gfx/png_writer.h"
#include "ui/figures/page_figure.h"
#include "session/core/core_names.h"

namespace app {

void QuestionFigureExport::start(session::AppState& s, const std::string& page, const std::string& path,
                                 const vit::OutputRules& rules) {
    if (pending_) {  // one at a time: its experiments are queued on the one runner
        s.status = "Still exporting " + pending_->path;
        return;
    }
    Pending p;
    p.question = page;
    p.path = path.empty() ? unique_path(s.export_dir, session::selection_slug(s) + "_" + page, ".png") : path;
    vit::check_output(p.path, rules);
    p.rules = rules;
    pending_ = std::move(p);
    s.status = "Exporting the figure of the page";
}

void QuestionFigureExport::step(session::AppState& s, session::ExperimentRunner& runner) {
    if (!pending_ || !runner.idle()) return;
    s.experiments = runner.view();  // idle: no result can arrive after this
    Pending& p = *pending_;
    try {
        const ui::PageFigure fig = ui::render_page_figure(s, p.question);
        if (fig.missing.empty()) {
            gfx::write_png(p.path, fig.image, fig.metadata, p.rules);
            s.status = "Saved figure " + std::filesystem::absolute(p.path).lexically_normal().string();
            pending_.reset();
            return;
        }
        const session::cmd::RunExperiment& next = fig.missing.front();
        if (!p.started.insert(next.key).second) {
            // It ran and left no result: cancelled (another experiment was started) or failed.
            s.last_error = "Figure not saved: the page's experiment did not finish" +
                           (s.experiments.error.empty() ? std::string() : ": " + s.experiments.error);
            failure_ = s.last_error;
            pending_.reset();
            return;
        }
        runner.start(next.key, next.job);
        s.status = "Figure: running the page's experiments first (" + std::to_string(fig.missing.size()) + " to go)";
    } catch (const vit::OutputExists& e) {
        // A file of that name appeared while the experiments ran: the window asks.
        question_ = session::cmd::ExportQuestionFigure{e.path, p.question};
        pending_.reset();
    } catch (const std::exception& e) {
        s.last_error = std::string("Figure not saved: ") + e.what();
        failure_ = s.last_error;
        pending_.reset();
    }
}

}  // namespace app
