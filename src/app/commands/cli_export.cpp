// vitscope export IMAGE --layer L (--head H | --mean-heads) (--patch ROW,COL | --query cls|INDEX)
//     -o OUT.png [--model DIR] [--size PX] [--colormap NAME] [--force]
// The window's overlay figure, rendered offscreen through EGL: no display server needed.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <optional>
#include <set>
#include <string>

#include "app/subcommands.h"
#include "app/cli_output_rules.h"
#include "app/gui/attention_figure.h"
#include "app/gui/figure_output.h"
#include "app/photo_list.h"
#include "app/pipeline.h"
#include "gfx/figure.h"
#include "gfx/headless_context.h"
#include "gfx/png_writer.h"
#include "gfx/style_names.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/formats/checkpoint.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/model/model.h"
#include "vit/base/printable.h"

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
    const bool several = photo_paths(args).size() > 1;
    // One photo: -o OUT.png ('-': standard output); several: -o names a new folder, one PNG per photo.
    const std::string out =
        several ? checked_output(args, "--output", vit::OutputKind::Folder) : figure_output_path(args);
    const bool mean = args.flags.count("--mean-heads") != 0;
    const bool by_head = args.options.count("--head") != 0;
    if (mean == by_head) throw vit::Error("give exactly one of --head H or --mean-heads");
    if (!args.has("--layer")) throw vit::Error("missing --layer");
    if (args.has("--patch") == args.has("--query"))
        throw vit::Error("give exactly one of --patch ROW,COL or --query cls|INDEX");
    if (args.options.count("--patch")) parse_patch(args.get("--patch"));  // syntax now; range once the grid is known
    const int size = args.get_int_opt("--size", 256, 4096).value_or(2048);
    const gfx::Colormap colormap = colormap_option(args);
    const std::string model_dir = resolve_model_dir(args);
    const vit::OutputRules rules = cli_output_rules(args);

    gfx::HeadlessContext gl;  // before the forward pass: no GL means no figure, so fail fast
    // Several photos: the folder appears whole when the run ends, with the
    // figures of the photos that worked; an interrupted run leaves nothing.
    std::optional<vit::OutputFolder> folder;
    if (several) folder.emplace(out, rules);
    CliArgs run_args = args;
    run_args.options.erase("--size");  // the figure's width here, not the model input's
    vit::TraceOptions keep;
    keep.keep_states = false;
    std::set<std::string> names;
    const int code = for_each_photo(
        run_args, keep,
        [&](Pipeline& p, const std::string& image_path) {
            const int layer = args.get_int("--layer", 0, p.model.depth - 1);
            const int head = mean ? -1 : args.get_int("--head", 0, p.model.heads - 1);
            const int query = query_token(args, p.trace);
            FigureChoice choice;
            choice.layer = layer;
            choice.source = mean ? session::MapSource::MeanOfVisible : session::MapSource::Head;
            choice.head = std::max(head, 0);
            choice.visible_heads.resize(p.model.heads);
            std::iota(choice.visible_heads.begin(), choice.visible_heads.end(), 0);
            choice.query = query;
            gfx::OverlayStyle style;
            style.colormap = colormap;
            gfx::FigureSpec spec =
                attention_figure(p.image, image_path, p.input.crop, p.model, model_dir, p.trace, choice, style);
            spec.size = size;
            const gfx::Figure fig = gfx::render_figure(spec);
            std::string target = out;
            if (several) {  // the photo's name, "-2", "-3"... after one already taken
                const std::string stem = std::filesystem::path(image_path).stem().string();
                std::string name = stem;
                for (int n = 2; !names.insert(name).second; ++n) name = stem + "-" + std::to_string(n);
                folder->write(name + ".png", gfx::encode_png(fig.image.pixels.data(), fig.image.width, fig.image.height,
                                                             fig.metadata));
                target = (std::filesystem::path(out) / (name + ".png")).string();
            } else {
                gfx::write_png(target, fig.image, fig.metadata, rules);
            }
            std::fprintf(stderr, "%s: %d x %d pixels\n", vit::printable(target).c_str(), fig.image.width,
                         fig.image.height);
        },
        layer_and_head_check(args));
    if (folder) folder->commit();
    return code;
}

}  // namespace app
