// The animated sweep: the query moving over patches, each frame the attention
// figure `vitscope export` draws, all on one colour scale (0 to the largest
// patch weight of the whole sweep) so colours compare across frames. An
// animated GIF (256 colours a frame) or WebP (full colour), by the output's
// extension. Made by `vitscope sweep` and by the window's File > Export sweep.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "app/gui/attention_figure.h"
#include "vit/base/output_file.h"
#include "vit/base/task_control.h"
#include "vit/image/preprocess.h"

namespace app {

// The most frames one sweep draws (about a second each at the default size,
// some 0.2 MB each in memory): a 50 x 50 patch grid. More is refused up front.
constexpr size_t kMaxSweepFrames = 2500;

struct Sweep {
    const vit::Image* photo = nullptr;
    std::string photo_path;
    vit::CropRect crop;
    const vit::Model* model = nullptr;
    std::string model_dir;
    const vit::Trace* trace = nullptr;
    FigureChoice choice;    // layer, head or mean; the query is each path token in turn
    std::vector<int> path;  // patch tokens in order; empty: every patch, row by row
    // The photo panel's long side in each frame, pixels. 720 makes a frame
    // about 1330 px wide with 15 px caption text: readable on a 1080p slide.
    int frame_size = 720;
    bool dither = false;  // GIF only; see gfx::AnimationOptions
    int delay_ms = 150;
    gfx::Colormap colormap = gfx::Colormap::Viridis;
    vit::TaskControl control;  // progress after each frame drawn
};

struct SweepWritten {
    size_t frames = 0;
    float value_max = 0;  // the colour scale's top
};

// Writes OUT.gif or OUT.webp (and, when frames_dir is given, a new folder of
// the frames as PNGs), each whole or not at all, under the output rule's
// `rules`. Needs a current OpenGL context. Throws vit::Error.
SweepWritten write_sweep(const Sweep& sweep, const std::string& out, const vit::OutputRules& rules,
                         const std::filesystem::path& frames_dir = {});

}  // namespace app
