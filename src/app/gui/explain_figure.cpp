// vitscope explain IMAGE --question NAME -o OUT.png [--layer L] [--head H]
//     [--patch ROW,COL | --query cls|INDEX] [--compare IMAGE2] [--model DIR] [--size S] [--force]
// The page drawn offscreen through EGL, as the window's Export figure button
// draws it: no display server needed.
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "app/explain_figure.h"
#include "figure_output.h"
#include "gfx/headless_context.h"
#include "session/state.h"
#include "ui/page_figure.h"
#include "ui/questions_panel.h"
#include "vit/classes.h"
#include "vit/error.h"

namespace app {
namespace {

// Questions the command line answers that have no page of their own: their
// figure is the page that shows them.
constexpr std::pair<const char*, const char*> kShownOn[] = {{"rollout", "cls"}, {"ablation", "heads"}};
constexpr int kMaxExperimentRounds = 8;  // a page asks for its experiments, then may ask for more

std::string page_of(const std::string& question) {
    for (const auto& [name, page] : kShownOn)
        if (question == name) return page;
    return question;
}

// A photo's run as the window holds it (session::Loaded), on `model`.
session::Loaded loaded_of(Pipeline photo, std::shared_ptr<const vit::Model> model, const std::string& path) {
    session::Loaded l;
    auto trace = std::make_shared<const vit::Trace>(std::move(photo.trace));
    l.model = std::move(model);
    l.image = std::make_shared<const vit::Image>(std::move(photo.image));
    l.image_path = path;
    l.crop = photo.input.crop;
    l.input = std::make_shared<const vit::Input>(std::move(photo.input));
    l.top5 = vit::top_classes(*l.model, *trace, 5);
    l.trace = trace;
    l.generation = 1;
    return l;
}

// The state the window would have with this photo (and second photo), model
// and selection.
session::AppState state_of(const CliArgs& args, Pipeline photo, std::optional<Pipeline> compare,
                           const std::string& page) {
    auto model = std::make_shared<const vit::Model>(std::move(photo.model));
    session::Loaded l = loaded_of(std::move(photo), model, args.image());
    l.model_dir = resolve_model_dir(args);
    session::AppState s;
    const vit::Trace& trace = *l.trace;
    // The window's start: layer 0, head 0, CLS as the query.
    const int layer = args.get_int_opt("--layer", 0, model->depth - 1).value_or(0);
    const int head = args.get_int_opt("--head", 0, model->heads - 1).value_or(0);
    const int query = args.has("--patch") || args.has("--query") ? query_token(args, trace) : 0;
    session::adopt(s, std::move(l));
    // The second photo runs through the same model, as the window's worker runs it.
    if (compare) s.compared = loaded_of(std::move(*compare), model, args.get("--compare"));
    s.sel.layer = layer;
    s.sel.head = head;
    s.sel.query = query;
    s.tab = session::AppState::Tab::Questions;
    s.question = page;
    return s;
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
    session::AppState s = state_of(args, std::move(photo), std::move(compare), page);
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
        for (const session::act::RunExperiment& x : fig.missing) {
            if (!ran.insert(x.key).second) throw vit::Error("the page's experiment " + x.key + " gave no result");
            session::ExperimentResult result = x.job(vit::TaskControl{});
            if (!result) throw vit::Error("the page's experiment " + x.key + " gave no result");
            s.experiments.results[x.key] = std::move(result);
        }
    }
    throw vit::Error("the " + page + " page kept asking for more experiments");
}

}  // namespace app
