// The maps of a 1920 x 1080 window drawn offscreen with the overlay shaders,
// as the window draws them when a query or a photo changes: the sizes are the
// window's 56 maps at its default layout (its state file's maps_on_screen):
// the large map, 48 thumbnails of the heads and layers, 3 and 4 in other
// panels. New values for every map each iteration, as a new query brings;
// the photo too in BM_MapsNewPhoto, as opening one does. Time to glFinish.
// Run: build/bench/vitscope_maps_bench (needs EGL; llvmpipe here).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "gfx/headless_context.h"
#include "gfx/overlay_renderer.h"
#include "gfx/render_target.h"
#include "gfx/textures.h"
#include "vit/image/image.h"

namespace {

gfx::HeadlessContext& context() {
    static gfx::HeadlessContext c;
    return c;
}

struct Size {
    int w, h;
};

std::vector<Size> window_maps() {
    std::vector<Size> sizes{{748, 498}};
    sizes.insert(sizes.end(), 48, {90, 60});
    sizes.insert(sizes.end(), 3, {227, 151});
    sizes.insert(sizes.end(), 4, {94, 62});
    return sizes;
}

void draw_maps(benchmark::State& state, bool new_photo) {
    context();
    gfx::OverlayRenderer renderer;
    const vit::Image photo_image = vit::load_image(std::string(VITSCOPE_SOURCE_DIR) + "/assets/dog.jpg");
    gfx::PhotoTexture photo;
    photo.upload(photo_image);
    const int grid = 14, side = std::min(photo_image.width, photo_image.height);
    const vit::CropRect crop{(photo_image.width - side) / 2.0, (photo_image.height - side) / 2.0,
                             static_cast<double>(side), static_cast<double>(side)};
    const std::vector<Size> sizes = window_maps();
    std::vector<gfx::RenderTarget> targets;
    std::vector<gfx::GridTexture> values(sizes.size());
    for (const Size& s : sizes) targets.emplace_back(s.w, s.h);
    std::mt19937 rng(1);
    std::exponential_distribution<float> weight;
    std::vector<float> v(grid * grid);
    gfx::Marks marks;
    marks.selected_row = 3, marks.selected_col = 5;
    for (auto _ : state) {
        state.PauseTiming();
        for (gfx::GridTexture& g : values) {
            for (float& x : v) x = weight(rng);
            g.upload(v, grid);
        }
        glFinish();
        state.ResumeTiming();
        if (new_photo) photo.upload(photo_image);  // as a new photo's first frame does
        for (size_t i = 0; i < sizes.size(); ++i) {
            targets[i].bind();
            renderer.draw(photo, crop, &values[i], gfx::OverlayStyle{}, marks);
        }
        glFinish();
    }
    state.counters["maps"] = static_cast<double>(sizes.size());
    state.SetLabel(context().renderer());
}

// A photo's upload alone: its texture and mipmaps (part of BM_MapsNewPhoto).
void BM_PhotoUpload(benchmark::State& state) {
    context();
    const vit::Image image = vit::load_image(std::string(VITSCOPE_SOURCE_DIR) + "/assets/dog.jpg");
    gfx::PhotoTexture photo;
    for (auto _ : state) {
        photo.upload(image);
        glFinish();
    }
}

void BM_MapsNewQuery(benchmark::State& state) { draw_maps(state, false); }
void BM_MapsNewPhoto(benchmark::State& state) { draw_maps(state, true); }

BENCHMARK(BM_PhotoUpload)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MapsNewQuery)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MapsNewPhoto)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
