// vitscope export IMAGE --layer L (--head H | --mean-heads) (--patch ROW,COL | --query cls|INDEX)
//     -o OUT.png [--model DIR] [--size PX] [--colormap NAME] [--force]
// The window's overlay figure, rendered offscreen through EGL: no display server needed.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>

#include "app/commands.h"
#include "attention_figure.h"
#include "app/output_rules.h"
#include "figure_output.h"
#include "gfx/figure.h"
#include "gfx/headless_context.h"
#include "gfx/style_names.h"
#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/model/model.h"

namespace app {
namespace {

gfx::Colormap colormap_option(const CliArgs& args) {
    const std::string name = args.get("--colormap", "viridis");
    const auto c = gfx::colormap_from_name(name);
    if (!c || *c == gfx::Colormap::Diverging)  // weights are >= 0: a diverging map would waste half its range
        throw vit::Error("--colormap " + name + ": use viridis, magma or turbo");
    return *c;
}

}  // namespace

int cmd_export(const CliArgs& args) {
    const std::string out = figure_output_path(args);
    const bool mean = args.flags.count("--mean-heads") != 0;
    const bool by_head = args.options.count("--head") != 0;
    if (mean == by_head) throw vit::Error("give exactly one of --head H or --mean-heads");
    if (args.options.count("--patch")) parse_patch(args.get("--patch"));  // syntax now; range once the grid is known
    const int size = args.get_int_opt("--size", 256, 4096).value_or(2048);
    const gfx::Colormap colormap = colormap_option(args);

    const std::string image_path = args.image();
    const vit::Image image = vit::load_image(image_path);
    const std::string model_dir = resolve_model_dir(args);
    const vit::Model model = vit::load_model(model_dir);
    const int layer = args.get_int("--layer", 0, model.depth - 1);
    const int head = mean ? -1 : args.get_int("--head", 0, model.heads - 1);

    gfx::HeadlessContext gl;  // before the forward pass: no GL means no figure, so fail fast
    const vit::Input input = vit::preprocess(image, model.config.pre);
    vit::TraceOptions keep;
    keep.keep_states = false;
    const vit::Trace trace = vit::forward(model, input, keep);
    const int query = query_token(args, trace);

    FigureChoice choice;
    choice.layer = layer;
    choice.source = mean ? session::MapSource::MeanOfVisible : session::MapSource::Head;
    choice.head = std::max(head, 0);
    choice.visible_heads.resize(model.heads);
    std::iota(choice.visible_heads.begin(), choice.visible_heads.end(), 0);
    choice.query = query;
    gfx::OverlayStyle style;
    style.colormap = colormap;
    gfx::FigureSpec spec = attention_figure(image, image_path, input.crop, model, model_dir, trace, choice, style);
    spec.size = size;

    const gfx::Figure fig = gfx::render_figure(spec);
    gfx::write_png(out, fig.image, fig.metadata, output_rules(args));
    std::printf("%s: %d x %d pixels\n", out.c_str(), fig.image.width, fig.image.height);
    return 0;
}

}  // namespace app
