// vitscope export IMAGE --layer L (--head H | --mean-heads) (--patch ROW,COL | --query cls|INDEX)
//     -o OUT.png [--model DIR] [--size PX] [--colormap NAME] [--force]
// The window's overlay figure, rendered offscreen through EGL: no display server needed.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <string>

#include "app/commands.h"
#include "gfx/figure.h"
#include "gfx/headless_context.h"
#include "gfx/style_names.h"
#include "vit/analysis.h"
#include "vit/error.h"
#include "vit/forward.h"
#include "vit/image.h"
#include "vit/model.h"
#include "vit/preprocess.h"

namespace app {
namespace {

namespace fs = std::filesystem;

// Checked before any work, so a refusal costs nothing and touches nothing.
std::string output_path(const CliArgs& args) {
    const std::string out = args.get("--output");
    if (out.empty()) throw vit::Error("missing -o OUT.png");
    std::string ext = fs::path(out).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext != ".png") throw vit::Error("-o " + out + ": the figure is a PNG; name it *.png");
    std::error_code ec;
    const auto status = fs::symlink_status(out, ec);
    if (fs::exists(status)) {
        if (fs::is_directory(status)) throw vit::Error(out + " is a directory");
        if (!args.has("--force")) throw vit::Error(out + " exists; pass --force to replace it");
    }
    const fs::path dir = fs::path(out).parent_path();
    if (!dir.empty() && !fs::is_directory(dir, ec)) throw vit::Error("directory " + dir.string() + " does not exist");
    return out;
}

gfx::Colormap colormap_option(const CliArgs& args) {
    const std::string name = args.get("--colormap", "viridis");
    const auto c = gfx::colormap_from_name(name);
    if (!c || *c == gfx::Colormap::Diverging)  // weights are >= 0: a diverging map would waste half its range
        throw vit::Error("--colormap " + name + ": use viridis, magma or turbo");
    return *c;
}

// The folder's name says which checkpoint it is (e.g. ..._augreg_in21k_ft_in1k),
// more than the architecture name in its config.
std::string model_title(const std::string& dir, const vit::Model& model) {
    fs::path p = fs::path(dir).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    const std::string name = p.filename().string();
    return name.empty() || name == "." ? model.config.name : name;
}

std::string format_weight(double w) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", w);
    return buf;
}

}  // namespace

int cmd_export(const CliArgs& args) {
    const std::string out = output_path(args);
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
    const vit::Trace trace = vit::run(model, input, keep);
    const int query = query_token(args, trace);

    vit::Vec row;
    if (mean) {
        std::vector<int> heads(model.heads);
        std::iota(heads.begin(), heads.end(), 0);
        row = vit::mean_attention_row(trace, layer, heads, query);
    } else {
        row = vit::attention_row(trace, layer, head, query);
    }
    const int patches = trace.grid * trace.grid;

    gfx::FigureSpec spec;
    spec.photo = &image;
    spec.crop = input.crop;
    spec.grid = trace.grid;
    spec.values.assign(row.data() + trace.prefix, row.data() + trace.prefix + patches);
    spec.marks.selected_row = trace.row_of(query);
    spec.marks.selected_col = trace.col_of(query);
    spec.style.colormap = colormap;
    spec.size = size;
    spec.title = model_title(model_dir, model);
    spec.subtitle = gfx::attention_caption(layer, head, query, trace.row_of(query), trace.col_of(query));
    // The map shows patches only; say where the rest of the weight went.
    spec.note = fs::path(image_path).filename().string() + " \u00b7 weight on CLS " + format_weight(row[0]);
    if (trace.prefix > 1)
        spec.note += ", on the other " + std::to_string(trace.prefix - 1) + " non-patch tokens " +
                     format_weight(row.segment(1, trace.prefix - 1).sum());
    spec.note += " (not in the map)";

    const gfx::Figure fig = gfx::render_figure(spec);
    gfx::write_png(out, fig.image, fig.metadata);
    std::printf("%s: %d x %d pixels\n", out.c_str(), fig.image.width, fig.image.height);
    return 0;
}

}  // namespace app
