#include "session/core/core_verbs.h"

#include <algorithm>
#include <sstream>

#include "gfx/style_names.h"
#include "session/base/script_args.h"
#include "session/core/core_names.h"
#include "vit/base/error.h"

namespace session {

const vit::Trace& need_trace(const ScriptCommand& c, const AppState& s) {
    if (!s.trace()) throw vit::Error(c.where + ": " + c.verb + " needs a model run on a photo");
    return *s.trace();
}

namespace {

using CoreOut = std::vector<CoreRequest>;

// "colormap=magma scale=log opacity=0.8 fade=off smooth=on grid=off" applied to a style.
gfx::OverlayStyle parse_style(const ScriptCommand& c, gfx::OverlayStyle st) {
    std::istringstream words(c.arg);
    std::string word;
    while (words >> word) {
        const auto eq = word.find('=');
        const std::string key = word.substr(0, eq), value = eq == std::string::npos ? "" : word.substr(eq + 1);
        auto flag = [&] {
            if (value != "on" && value != "off") throw vit::Error(c.where + ": " + key + " is on or off");
            return value == "on";
        };
        if (key == "colormap" && gfx::colormap_from_name(value)) st.colormap = *gfx::colormap_from_name(value);
        else if (key == "scale" && gfx::normalization_from_name(value))
            st.normalization = *gfx::normalization_from_name(value);
        else if (key == "opacity") st.opacity = std::clamp(finite_number(c, value, "opacity"), 0.f, 1.f);
        else if (key == "fade") st.fade = flag();
        else if (key == "smooth") st.bilinear = flag();
        else if (key == "grid") st.show_grid = flag();
        else
            throw vit::Error(c.where + ": style " + word +
                             " is not colormap=, scale=, opacity=, fade=, smooth= or grid=");
    }
    return st;
}

int layer_in_range(const ScriptCommand& c, const AppState& s) {
    const int l = whole_number(c);
    if (l < 0 || l >= s.layers()) throw vit::Error(c.where + ": layer " + c.arg + " is out of range");
    return l;
}

int head_in_range(const ScriptCommand& c, const AppState& s) {
    const int h = whole_number(c);
    if (h < 0 || h >= s.heads()) throw vit::Error(c.where + ": head " + c.arg + " is out of range");
    return h;
}

constexpr VerbWait kWorkerInCore{0, true}, kNextInCore{1}, kShownInCore{2};

const Verb<CoreRequest> kCoreVerbs[] = {
    {"wait", VerbArg::None, [](const ScriptCommand&, const AppState&, CoreOut&) { return kWorkerInCore; }},
    {"frames", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, CoreOut&) { return VerbWait{whole_number(c)}; }},
    {"select", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, CoreOut& out) {
         out.push_back(act::SelectQuery{script_token(c, need_trace(c, s))});
         return VerbWait{};
     }},
    {"layer", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, CoreOut& out) {
         out.push_back(act::SetLayer{layer_in_range(c, s)});
         return VerbWait{};
     }},
    {"head", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, CoreOut& out) {
         out.push_back(act::SetHead{head_in_range(c, s)});
         return VerbWait{};
     }},
    {"toggle-head", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, CoreOut& out) {
         out.push_back(act::ToggleHeadVisible{head_in_range(c, s)});
         return VerbWait{};
     }},
    {"mean", VerbArg::None,
     [](const ScriptCommand&, const AppState&, CoreOut& out) {
         out.push_back(act::SetMapSource{MapSource::MeanOfVisible});
         return VerbWait{};
     }},
    {"pin", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, CoreOut& out) {
         out.push_back(act::PinKey{script_token(c, need_trace(c, s))});
         return VerbWait{};
     }},
    {"temperature", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, CoreOut& out) {
         out.push_back(act::SetTemperature{finite_number(c, c.arg, "temperature")});
         return VerbWait{};
     }},
    {"style", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, CoreOut& out) {
         out.push_back(act::SetStyle{parse_style(c, s.style)});
         return VerbWait{};
     }},
    // The tab bar shows a tab chosen this way a frame later; its page asks for its numbers then.
    {"tab", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, CoreOut& out) {
         const auto tab = tab_from_name(c.arg);
         if (!tab) throw vit::Error(c.where + ": tab is math, whatifs or questions");
         out.push_back(act::ShowTab{*tab});
         return kShownInCore;
     }},
    {"size", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, CoreOut& out) {
         const int px = whole_number(c);
         const int patch = s.loaded.model ? s.loaded.model->patch : 0;
         if (px <= 0 || (patch && px % patch))
             throw vit::Error(c.where + ": size " + c.arg + " is not a positive multiple of the patch size " +
                              std::to_string(patch));
         out.push_back(cmd::SetInputSize{px});
         return kWorkerInCore;
     }},
    {"open-image", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, CoreOut& out) {
         out.push_back(cmd::OpenImage{c.arg});
         return kWorkerInCore;
     }},
    {"compare", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, CoreOut& out) {
         out.push_back(cmd::OpenCompare{c.arg});
         return kWorkerInCore;
     }},
    {"screenshot", VerbArg::File,
     [](const ScriptCommand& c, const AppState&, CoreOut& out) {
         out.push_back(cmd::Screenshot{c.arg});
         return kNextInCore;
     }},
    {"export", VerbArg::File,
     [](const ScriptCommand& c, const AppState&, CoreOut& out) {
         out.push_back(cmd::ExportFigure{c.arg});
         return kNextInCore;
     }},
    {"record-path", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, CoreOut& out) {
         out.push_back(act::RecordSweepPath{on_or_off(c)});
         return VerbWait{};
     }},
    {"export-sweep", VerbArg::File,
     [](const ScriptCommand& c, const AppState&, CoreOut& out) {
         out.push_back(cmd::ExportSweep{c.arg});
         return kNextInCore;
     }},
    // The fonts are made again for the new size; the layout follows a frame later.
    {"classroom", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, CoreOut& out) {
         out.push_back(act::SetClassroom{on_or_off(c)});
         return kShownInCore;
     }},
    {"theme", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, CoreOut& out) {
         const auto theme = theme_from_name(c.arg);
         if (!theme) throw vit::Error(c.where + ": theme is dark or light");
         out.push_back(act::SetTheme{*theme});
         return kNextInCore;
     }},
    {"quit", VerbArg::None,
     [](const ScriptCommand&, const AppState&, CoreOut& out) {
         out.push_back(cmd::Quit{});
         return VerbWait{};
     }},
};

}  // namespace

std::span<const Verb<CoreRequest>> core_verbs() { return kCoreVerbs; }

}  // namespace session
