#include "app/commands/cli_state.h"

#include <climits>
#include <memory>
#include <utility>

#include "vit/base/error.h"
#include "vit/forward/classes.h"
#include "session/dispatch/adopt.h"

namespace app {
namespace {

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

}  // namespace

session::AppState cli_state(const CliArgs& args, Pipeline photo, std::optional<Pipeline> compare) {
    auto model = std::make_shared<const vit::Model>(std::move(photo.model));
    session::Loaded l = loaded_of(std::move(photo), model, args.image());
    l.model_dir = resolve_model_dir(args);
    session::AppState s;
    const vit::Trace& trace = *l.trace;
    // The window's start: layer 0, head 0, CLS as the query.
    const int layer = args.get_int_opt("--layer", 0, model->depth - 1).value_or(0);
    if (args.has("--head") && args.has("--mean-heads")) throw vit::Error("give one of --head H or --mean-heads");
    const int head = args.get_int_opt("--head", 0, model->heads - 1).value_or(0);
    const int query = args.has("--patch") || args.has("--query") ? query_token(args, trace) : 0;
    session::adopt(s, std::move(l));
    // The second photo runs through the same model, as the window's worker runs it.
    if (compare) s.compared = loaded_of(std::move(*compare), model, args.get("--compare"));
    s.sel.layer = layer;
    s.sel.head = head;
    // --mean-heads: the map of the heads' mean, as the window's M shows it.
    if (args.has("--mean-heads")) s.sel.source = session::MapSource::MeanOfVisible;
    s.sel.query = query;
    if (args.has("--class")) s.relevance_class = vit::find_class(*model, args.get("--class"));
    // The permutation page's shuffle, as the same command's --csv uses it.
    s.permutation_seed = static_cast<uint32_t>(args.get_int_opt("--seed", 0, INT_MAX).value_or(0));
    return s;
}

}  // namespace app
