#include "app/gui/sweep_gif.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>

#include "gfx/animation_writer.h"
#include "gfx/png_writer.h"
#include "session/core/shown_rows.h"
#include "vit/base/error.h"

namespace app {

namespace fs = std::filesystem;

namespace {

// Half of a GIF palette for the colour bar: steps of at most about 2 levels
// along viridis, magma or turbo, so the bar shows no bands; the photo and the
// map get the other 128 colours, chosen by libimagequant.
constexpr int kBarColours = 128;

// `count` colours sampled evenly along the colour bar's middle row (the same in
// every frame of a sweep: one colour scale).
std::vector<std::array<uint8_t, 3>> colorbar_samples(const gfx::Figure& fig, int count) {
    const gfx::PixelRect& bar = fig.layout.colorbar;
    std::vector<std::array<uint8_t, 3>> out;
    if (bar.w <= 0 || bar.h <= 0) return out;
    const int n = std::min(count, bar.w);
    for (int i = 0; i < n; ++i) {
        const int x = bar.x + (n > 1 ? i * (bar.w - 1) / (n - 1) : 0);
        const uint8_t* p = fig.image.at(x, bar.y + bar.h / 2);
        const std::array<uint8_t, 3> c{p[0], p[1], p[2]};
        if (out.empty() || out.back() != c) out.push_back(c);
    }
    return out;
}

}  // namespace

SweepWritten write_sweep(const Sweep& sweep, const std::string& out, const vit::OutputRules& rules,
                         const fs::path& frames_dir) {
    vit::check_output(out, rules);  // before the drawing
    if (!frames_dir.empty()) vit::check_apart("the sweep", out, "its frames", frames_dir.string());
    const vit::Trace& trace = *sweep.trace;
    std::vector<int> path = sweep.path;
    if (path.empty())
        for (int token = trace.prefix; token < trace.tokens; ++token) path.push_back(token);
    if (path.size() > kMaxSweepFrames)
        throw vit::Error("a sweep of " + std::to_string(path.size()) + " frames: at most " +
                         std::to_string(kMaxSweepFrames) + " (give a shorter --path)");
    FigureChoice choice = sweep.choice;

    // One colour scale for the whole sweep: 0 to the largest patch weight any frame shows.
    float top = 0;
    for (int token : path) {
        const auto row = session::map_row(trace, choice.layer, choice.source, choice.head, choice.visible_heads, token);
        if (!row) throw vit::Error("no heads are visible: nothing to average");
        top = std::max(top, row->tail(trace.tokens - trace.prefix).maxCoeff());
    }
    gfx::OverlayStyle style;
    style.colormap = sweep.colormap;
    style.normalization = gfx::Normalization::Absolute;
    style.value_max = top > 0 ? top : 1.f;

    std::unique_ptr<vit::OutputFolder> frames;
    if (!frames_dir.empty()) frames = std::make_unique<vit::OutputFolder>(frames_dir.string(), rules);
    std::unique_ptr<gfx::AnimationWriter> animation;
    for (size_t i = 0; i < path.size(); ++i) {
        choice.query = path[i];
        gfx::FigureSpec spec = attention_figure(*sweep.photo, sweep.photo_path, sweep.crop, *sweep.model,
                                                sweep.model_dir, trace, choice, style);
        spec.size = sweep.frame_size;
        spec.note += " \u00b7 frame " + std::to_string(i + 1) + " of " + std::to_string(path.size());
        const gfx::Figure fig = gfx::render_figure(spec);
        if (!animation)
            animation = gfx::open_animation(out, fig.image.width, fig.image.height,
                                            {rules, sweep.dither, colorbar_samples(fig, kBarColours)});
        animation->add(fig.image, sweep.delay_ms);
        if (frames) {
            char name[32];
            std::snprintf(name, sizeof name, "frame_%03zu.png", i + 1);
            frames->write(name,
                          gfx::encode_png(fig.image.pixels.data(), fig.image.width, fig.image.height, fig.metadata));
        }
        sweep.control.report(static_cast<int>(i + 1), static_cast<int>(path.size()));
    }
    // Both or neither: the new frames folder first (never a replacement), taken back if the animation fails.
    if (frames) frames->commit();
    try {
        animation->finish();
    } catch (...) {
        std::error_code ec;
        if (frames) fs::remove_all(frames_dir, ec);
        throw;
    }
    return {path.size(), style.value_max};
}

}  // namespace app
