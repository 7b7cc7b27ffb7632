// vitscope explain IMAGE --question NAME -o OUT.png [--layer L] [--head H]
//     [--patch ROW,COL | --query cls|INDEX] [--compare IMAGE2] [--model DIR] [--size S] [--force]
// The page drawn offscreen through EGL, as the window's Export figure button
// draws it: no display server needed.
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "app/explain_figure.h"
#include "app/commands/cli_state.h"
#include "app/gui/figure_output.h"
#include "gfx/headless_context.h"
#include "session/state/app_state.h"
#include "ui/figures/page_figure.h"
#include "ui/panels/questions_panel.h"
#include "vit/analysis/questions.h"
#include "vit/base/error.h"
#include "vit/forward/classes.h"

namespace app {
namespace {

constexpr int kMaxExperimentRounds = 8;  // a page asks for its experiments, then may ask for more

// A question with no page of its own is drawn on the page that shows it.
std::string page_of(const std::string& question) {
    const vit::QuestionPage* q = vit::find_question(question);
    return q ? q->figure_page() : question;
}

}  // namespace

std::string check_explain_figure(const CliArgs& args, const std::string& question) {
    const std::string page = page_of(question);
    std::string pages;
    bool found = false;
    for (const std::string& name : ui::question_view_names()) {
        found = found || name == page;
        pages += (pages.empty() ? "" : ", ") + name;
    }
    if (!found)
        throw vit::Error("--question " + question + ": the window has no page for it, so no figure (pages: " + pages +
                         "); use --csv");
    return figure_output_path(args);
}

ExplainFigure explain_figure(const CliArgs& args, Pipeline photo, std::optional<Pipeline> compare,
                             const std::string& question) {
    const std::string page = page_of(question);
    session::AppState s = cli_state(args, std::move(photo), std::move(compare));
    s.tab = session::AppState::Tab::Questions;
    s.question = page;
    gfx::HeadlessContext gl;
    // Experiments run here, one after the other, where the window runs them
    // on its ExperimentRunner: the page finds their results in the state.
    std::set<std::string> ran;
    for (int round = 0; round < kMaxExperimentRounds; ++round) {
        ui::PageFigure fig = ui::render_page_figure(s, page);
        if (fig.missing.empty()) {
            ExplainFigure out;
            out.width = fig.image.width;
            out.height = fig.image.height;
            out.png = gfx::encode_png(fig.image.pixels.data(), fig.image.width, fig.image.height, fig.metadata);
            return out;
        }
        for (const session::cmd::RunExperiment& x : fig.missing) {
            if (!ran.insert(x.key).second) throw vit::Error("the page's experiment " + x.key + " gave no result");
            session::ExperimentResult result = x.job(vit::TaskControl{});
            if (!result) throw vit::Error("the page's experiment " + x.key + " gave no result");
            s.experiments.results[x.key] = std::move(result);
        }
    }
    throw vit::Error("the " + page + " page kept asking for more experiments");
}

}  // namespace app
