// vitscope sweep IMAGE --layer L (--head H | --mean-heads) -o OUT.gif|OUT.webp
//     [--path R,C;R,C;...] [--frame-size PX] [--delay MS] [--frames DIR] [--colormap NAME] [--dither]
//     [--model DIR] [--size S] [--force]
// An animated figure: the query moves over the patches (row by row, or along
// --path) and each frame is the attention figure `vitscope export` draws for
// it, with one colour scale for every frame (0 to the largest patch weight of
// the whole sweep), so colours compare across frames. --frames DIR also keeps
// the frames as PNGs. OUT.gif has 256 colours a frame (--dither diffuses the
// rest), OUT.webp every colour. --size is the model input's size, as for the other
// commands; --frame-size the photo panel's in each frame. Drawn offscreen through EGL.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "app/subcommands.h"
#include "app/cli_output_rules.h"
#include "app/gui/figure_output.h"
#include "app/gui/sweep_gif.h"
#include "app/pipeline.h"
#include "app/progress.h"
#include "gfx/animation_writer.h"
#include "gfx/headless_context.h"
#include "gfx/style_names.h"
#include "vit/base/error.h"
#include "vit/base/printable.h"

namespace app {
namespace {

namespace fs = std::filesystem;

// --path "5,3;5,4;6,4": the patches in order (checked against the grid later).
// parse_patch's own message names --patch, so a bad piece is reported here.
std::vector<std::pair<int, int>> parse_path(const std::string& text) {
    std::vector<std::pair<int, int>> out;
    size_t from = 0;
    while (from <= text.size()) {
        const size_t end = std::min(text.find(';', from), text.size());
        const std::string piece = text.substr(from, end - from);
        try {
            out.push_back(parse_patch(piece));
        } catch (const vit::Error&) {
            const std::string shown = piece.size() > 80 ? piece.substr(0, 80) + "..." : piece;
            throw vit::Error("--path expects ROW,COL;ROW,COL;... (e.g. 5,3;5,4), each from 0 to 100000; got '" + shown +
                             "'");
        }
        from = end + 1;
        if (out.size() > kMaxSweepFrames)
            throw vit::Error("--path names over " + std::to_string(kMaxSweepFrames) +
                             " patches; a sweep draws at most " + std::to_string(kMaxSweepFrames) +
                             " frames (about a second each)");
    }
    return out;
}

// --frames DIR: a new folder in one that exists.
fs::path frames_folder(const CliArgs& args) {
    return fs::absolute(checked_output(args, "--frames", vit::OutputKind::Folder)).lexically_normal();
}

}  // namespace

int cmd_sweep(const CliArgs& args) {
    // Everything that can be refused is, before any work; two outputs on one place first (--force would not help).
    if (args.has("--frames")) vit::check_apart("-o", args.get("--output"), "--frames", args.get("--frames"));
    const std::string out = figure_output_path(args, gfx::is_webp_path(args.get("--output")) ? ".webp" : ".gif");
    const bool mean = args.flags.count("--mean-heads") != 0;
    if (mean == args.has("--head")) throw vit::Error("give exactly one of --head H or --mean-heads");
    std::vector<std::pair<int, int>> path = args.has("--path") ? parse_path(args.get("--path")) : decltype(path){};
    const int size = args.get_int_opt("--frame-size", 128, 1024).value_or(Sweep{}.frame_size);
    const int delay = args.get_int_opt("--delay", 20, 5000).value_or(150);
    const fs::path frames_dir = args.has("--frames") ? frames_folder(args) : fs::path();
    const bool dither = args.flags.count("--dither") != 0;
    if (dither && gfx::is_webp_path(out)) throw vit::Error("--dither is for GIFs; a WebP keeps every colour");
    const std::string colormap_name = args.get("--colormap", "viridis");
    const auto colormap = gfx::colormap_from_name(colormap_name);
    if (!colormap || *colormap == gfx::Colormap::Diverging)
        throw vit::Error("--colormap " + colormap_name + ": use viridis, magma or turbo");

    Pipeline photo = run_pipeline(args);
    const vit::Model& model = photo.model;
    const vit::Trace& trace = photo.trace;
    const int layer = args.get_int("--layer", 0, model.depth - 1);
    FigureChoice choice;
    choice.layer = layer;
    choice.source = mean ? session::MapSource::MeanOfVisible : session::MapSource::Head;
    choice.head = mean ? 0 : args.get_int("--head", 0, model.heads - 1);
    choice.visible_heads.resize(model.heads);
    std::iota(choice.visible_heads.begin(), choice.visible_heads.end(), 0);
    for (const auto& [r, c] : path)
        if (r >= trace.grid || c >= trace.grid)
            throw vit::Error("--path: patch " + std::to_string(r) + "," + std::to_string(c) + " is outside the " +
                             std::to_string(trace.grid) + " x " + std::to_string(trace.grid) + " patch grid");

    Sweep sweep;
    sweep.photo = &photo.image;
    sweep.photo_path = args.image();
    sweep.crop = photo.input.crop;
    sweep.model = &model;
    sweep.model_dir = resolve_model_dir(args);
    sweep.trace = &trace;
    sweep.choice = choice;
    for (const auto& [r, c] : path) sweep.path.push_back(trace.token_of(r, c));
    sweep.frame_size = size;
    sweep.delay_ms = delay;
    sweep.colormap = *colormap;
    sweep.dither = dither;
    sweep.control = stderr_progress("sweep frames");
    gfx::HeadlessContext gl;
    const SweepWritten written = write_sweep(sweep, out, cli_output_rules(args), frames_dir);
    std::fprintf(stderr, "%s: %zu frames, one colour scale 0..%.3f\n", vit::printable(out).c_str(), written.frames,
                 written.value_max);
    return 0;
}

}  // namespace app
