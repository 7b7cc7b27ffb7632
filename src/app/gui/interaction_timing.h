// --frame-stats' interaction figures (bench/interactive): how long after
// opening a photo, and after selecting a query, the first frame showing the
// new maps ends, and how many frames it took. Times run on steady_clock from
// the moment the window handles the action to the end of the frame (after the
// buffer swap) in which every map over the photo shows the new trace or query.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "session/state/app_state.h"
#include "ui/widgets/gl_cache.h"

namespace app {

class InteractionTiming {
public:
    using Clock = std::chrono::steady_clock;

    // The window handled File > Open image ("open") or a new input size
    // ("size"): the worker has the request.
    void opened(const session::AppState& s, const char* kind);
    // The window applied a new query.
    void selected(const session::AppState& s);
    // After each frame's swap: what the maps did in it, and when it began.
    void frame_end(const session::AppState& s, const ui::MapTally& maps, Clock::time_point began);

    // Closes the watch under way: the run is over.
    nlohmann::json json();

private:
    // One open or select as --frame-stats reports it. Plain numbers, not
    // JSON, while the window runs: window_rss.py measures growth over 200 opens.
    struct Sample {
        double ms = 0;                 // the action to the end of the frame showing its maps
        double frame_ms = 0;           // that frame alone
        double to_trace_frame_ms = 0;  // an open: to the start of the frame adopting the trace
        double forward_ms = 0;         // an open: the forward pass (vit::Trace::seconds)
        int frames = 0;                // a select: the last of the watched frames that changed a map
        int frames_after_trace = 0;    // an open: frames from the trace's arrival to every map drawn from it
        int frames_while_working = 0;  // an open: frames drawn before the trace arrived (each took cores from it)
        int settled_frames = 0;        // an open: the same as frames, from that frame on
        int maps = 0, maps_rendered = 0;
        int query = -1, input_px = 0;
        bool query_shown = false, worker_ran = false;
        long rss_kib = 0, heap_kib = 0;  // an open: resident_kib() and heap_in_use_kib() at its first complete frame
        std::string photo;
        std::string kind;  // an open: "open" (a photo) or "size" (a new input size)
    };
    // Frames after an open's first complete frame, or after a select, watched
    // for maps that render again (a layout or cache a frame late).
    struct Watch {
        Sample sample;
        bool after_open = false;  // else after a select
        Clock::time_point t0;
        int frames = 0;
        int last_render = 0;  // the last watched frame that re-rendered a map
    };
    struct Open {
        Clock::time_point t0;
        std::string kind;
        int generation = 0;         // the loaded set's when the photo was asked for
        int frames = 0;             // frames since (the worker runs meanwhile)
        int adopted_frame = -1;     // the frame that swapped the new trace in
        double to_adoption_ms = 0;  // open to the start of that frame
    };
    void close_watch();

    std::optional<Open> open_;
    std::optional<Watch> watch_;
    std::vector<Sample> opens_, selects_;
};

// VmRSS of this process in KiB from /proc/self/status (0 where there is none).
long resident_kib();
// Bytes malloc has handed out and not had back, all threads' arenas and the
// chunks it mmapped, in KiB (glibc's mallinfo2; 0 elsewhere): flat while
// VmRSS grows means the heap is fragmenting, not leaking.
long heap_in_use_kib();

}  // namespace app
