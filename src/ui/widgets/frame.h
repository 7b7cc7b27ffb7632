// What every panel gets for one frame: the state to read, the list to append
// its requests to (actions for the state, commands for the window), the
// report of where it drew things, the shared GPU resources and the fonts.
// Panels never change the state themselves.
#pragma once
#include <string>
#include <vector>

#include <imgui.h>

#include "session/dispatch/requests.h"
#include "session/base/drawn_report.h"
#include "session/state/app_state.h"

namespace ui {

class GlCache;

struct Fonts {
    ImFont* regular = nullptr;
    ImFont* bold = nullptr;
    ImFont* mono = nullptr;        // numbers in tables, so digits line up
    ImFont* title = nullptr;       // step numbers and panel headings
    ImFont* large = nullptr;       // the tour card's sentences in classroom mode (24 px and more there)
    ImFont* large_bold = nullptr;  // its key sentence
    ImFont* key = nullptr;         // the key sentence on a projector: capitals 20 px and more in classroom mode
    ImFont* lecture = nullptr;     // the live exercise's question where the panel is tall (36 px in classroom mode)
    ImFont* lecture_bold = nullptr;
};

struct Frame {
    const session::AppState& s;
    std::vector<session::Request>& out;
    session::DrawnReport& drawn;  // where this frame drew what tests click and measure
    GlCache& gpu;
    const Fonts& fonts;
    float scale = 1;     // UI scale: multiplies every size given in pixels
    float fb_scale = 1;  // framebuffer pixels per window coordinate (Retina-style HiDPI)
    // Drawn for an exported figure (page_figure.h), not for the window: no
    // mouse, and experiments are asked for (emitted) instead of offered.
    bool figure = false;
    // Drawn as a still picture of the window (a tour slide): nothing on it
    // can be pressed, so it shows no buttons of its own.
    bool still = false;

    void emit(session::Request r) const { out.push_back(std::move(r)); }  // an action or a command
    // The name a figure records drawn cells under: "PAGE/ID", id without its leading '#'s.
    std::string cells_name(const char* id) const {
        const std::string name(id);
        const size_t at = name.find_first_not_of('#');
        return s.question + "/" + (at == std::string::npos ? std::string() : name.substr(at));
    }
    float px(float logical) const { return logical * scale; }
};

}  // namespace ui
