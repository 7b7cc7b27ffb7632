#include "app/gui/interaction_timing.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace app {
namespace {

// Frames watched after a select (or an open's first complete frame) for maps
// that render again: a query whose maps need a second frame (an analysis
// arriving late, a cache or a layout a frame behind) shows as "frames" above 1.
constexpr int kSettleFrames = 10;

double ms_between(InteractionTiming::Clock::time_point a, InteractionTiming::Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

long resident_kib() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("VmRSS:", 0) != 0) continue;
        std::istringstream words(line.substr(6));
        long kib = 0;
        words >> kib;
        return kib;
    }
    return 0;
}

long heap_in_use_kib() {
#ifdef __GLIBC__
    const struct mallinfo2 m = mallinfo2();
    return static_cast<long>((m.uordblks + m.hblkhd) / 1024);  // the arenas' chunks and the mmapped ones
#else
    return 0;
#endif
}

void InteractionTiming::opened(const session::AppState& s, const char* kind) {
    close_watch();
    open_ = Open{Clock::now(), kind, s.loaded.generation};
}

void InteractionTiming::selected(const session::AppState& s) {
    close_watch();
    watch_ = Watch{};
    watch_->t0 = Clock::now();
    watch_->sample.query = s.sel.query;
}

void InteractionTiming::close_watch() {
    if (!watch_) return;
    Watch& w = *watch_;
    (w.after_open ? w.sample.settled_frames : w.sample.frames) = w.last_render;
    (w.after_open ? opens_ : selects_).push_back(std::move(w.sample));
    watch_.reset();
}

void InteractionTiming::frame_end(const session::AppState& s, const ui::MapTally& maps, Clock::time_point began) {
    const Clock::time_point end = Clock::now();
    if (watch_) {
        Watch& w = *watch_;
        ++w.frames;
        w.sample.worker_ran = w.sample.worker_ran || s.work.busy;
        if (maps.rendered > 0) {
            w.last_render = w.frames;
            if (!w.after_open) {  // a select's time runs to the end of the last frame that changed a map
                w.sample.ms = ms_between(w.t0, end);
                w.sample.frame_ms = ms_between(began, end);
            }
        }
        if (w.frames == 1 && !w.after_open) {
            w.sample.maps = maps.shown;
            w.sample.maps_rendered = maps.rendered;  // all of them when every map follows the query
            w.sample.query_shown = s.sel.query == w.sample.query;
        }
        if (w.frames >= kSettleFrames) close_watch();
    }
    if (open_) {
        Open& o = *open_;
        ++o.frames;
        if (o.adopted_frame < 0 && s.loaded.generation != o.generation) {
            o.adopted_frame = o.frames;
            o.to_adoption_ms = ms_between(o.t0, began);
        }
        if (o.adopted_frame >= 0 && s.trace() && maps.shown > 0 && maps.behind == 0) {
            Watch w;
            w.after_open = true;
            w.frames = w.last_render = 1;  // this frame, which drew every map from the new trace
            Sample& x = w.sample;
            x.ms = ms_between(o.t0, end);
            x.to_trace_frame_ms = o.to_adoption_ms;
            x.forward_ms = 1000.0 * s.trace()->seconds;
            x.frame_ms = ms_between(began, end);
            x.frames_after_trace = o.frames - o.adopted_frame + 1;
            x.frames_while_working = o.adopted_frame - 1;
            x.maps = maps.shown;
            x.photo = std::filesystem::path(s.loaded.image_path).filename().string();
            x.kind = o.kind;
            x.input_px = s.loaded.input ? s.loaded.input->size : 0;
            x.rss_kib = resident_kib();
            x.heap_kib = heap_in_use_kib();
            open_.reset();
            watch_ = std::move(w);
        }
    }
}

nlohmann::json InteractionTiming::json() {
    close_watch();
    nlohmann::json opens = nlohmann::json::array(), selects = nlohmann::json::array();
    for (const Sample& x : opens_)
        opens.push_back({{"ms", x.ms},
                         {"to_trace_frame_ms", x.to_trace_frame_ms},
                         {"forward_ms", x.forward_ms},
                         {"frame_ms", x.frame_ms},
                         {"frames_after_trace", x.frames_after_trace},
                         {"frames_while_working", x.frames_while_working},
                         {"settled_frames", x.settled_frames},
                         {"maps", x.maps},
                         {"photo", x.photo},
                         {"kind", x.kind},
                         {"input_px", x.input_px},
                         {"rss_kib", x.rss_kib},
                         {"heap_in_use_kib", x.heap_kib},
                         {"worker_ran", x.worker_ran}});
    for (const Sample& x : selects_)
        selects.push_back({{"ms", x.ms},
                           {"frame_ms", x.frame_ms},
                           {"frames", x.frames},
                           {"maps", x.maps},
                           {"maps_rendered", x.maps_rendered},
                           {"query", x.query},
                           {"query_shown", x.query_shown},
                           {"worker_ran", x.worker_ran}});
    return {{"open_to_maps", opens}, {"select_to_maps", selects}};
}

}  // namespace app
