#include "session/lab/lab_room.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "session/base/script_args.h"
#include "session/core/core_json.h"
#include "session/lab/lab_report.h"
#include "vit/base/error.h"
#include "vit/train/tasks.h"

namespace session {

void apply_lab(AppState& s, const LabActions& a) { apply_lab(s.lab, std::get<act::Lab>(a).action); }

void lab_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j) {
    j["lab"] = lab_json(s.lab);
    j["lab"]["maps"] = drawn.lab_maps;
    j["lab_open"] = points_by_name(drawn.lab_open);
}

namespace {

using LabOut = std::vector<LabRequest>;

const LabRun& need_run(const ScriptCommand& c, const AppState& s) {
    if (!s.lab.run) throw vit::Error(c.where + ": " + c.verb + " with no run open in the lab (learning-lab RUN first)");
    return *s.lab.run;
}

// The lab computes its view at the next frame's start; it shows a frame later.
constexpr VerbWait kShownInLab{2};

void push(LabOut& out, const LabAction& a) { out.emplace_back(std::in_place_type<act::Lab>, act::Lab{a}); }
void push(LabOut& out, const LabCommand& c) { out.emplace_back(std::in_place_type<cmd::Lab>, cmd::Lab{c}); }

VerbWait train(const ScriptCommand& c, const AppState& s, LabOut& out) {
    std::istringstream words(c.arg);
    std::string task, word, dir;
    words >> task;
    bool position = true;
    int steps = s.lab.train_steps;
    while (words >> word) {
        if (word == "no-position") position = false;
        else if (word.rfind("steps=", 0) == 0) steps = whole_number(c, word.substr(6));
        else if (word.rfind("dir=", 0) == 0) dir = word.substr(4);
        else throw vit::Error(c.where + ": lab-train TASK [no-position] [steps=N] [dir=DIR], not '" + word + "'");
    }
    try {
        vit::train::parse_task(task);
    } catch (const vit::Error& e) {
        throw vit::Error(c.where + ": lab-train: " + e.what());
    }
    if (steps < 1 || steps > kMaxLabSteps)
        throw vit::Error(c.where + ": lab-train: steps=" + std::to_string(steps) + " is out of 1 .. 100000");
    // Refused here, not by the window: there a refused setting would leave Train to start with the old one.
    std::error_code ec;
    if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
        throw vit::Error(c.where + ": lab-train: " + dir + ": no such folder");
    push(out, lab::SetTraining{task, position, steps, dir});
    push(out, lab::Train{});
    return kShownInLab;
}

VerbWait step(const ScriptCommand& c, const AppState& s, LabOut& out) {
    const LabRun& run = need_run(c, s);
    const int last = static_cast<int>(run.log.size()) - 1;
    int index = 0;
    if (c.arg == "first") index = 0;
    else if (c.arg == "last") index = last;
    else if (c.arg == "next") index = std::min(last, s.lab.checkpoint + 1);
    else if (c.arg == "back") index = std::max(0, s.lab.checkpoint - 1);
    else {
        const int at = whole_number(c);
        if (at < 0) throw vit::Error(c.where + ": lab-step " + c.arg + " is before step 0");
        index = static_cast<int>(run.checkpoint_at(at));
    }
    push(out, lab::SetCheckpoint{index});
    return kShownInLab;
}

const Verb<LabRequest> kLabVerbs[] = {
    {"learning-lab", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, LabOut& out) {
         if (c.arg == "open" || c.arg == "close") push(out, lab::Show{c.arg == "open"});
         else push(out, lab::OpenRun{c.arg});
         return kShownInLab;
     }},
    {"lab-train", VerbArg::Required, train},
    {"lab-cancel", VerbArg::None,
     [](const ScriptCommand&, const AppState&, LabOut& out) {
         push(out, lab::CancelTraining{});
         return kShownInLab;
     }},
    {"lab-wait", VerbArg::None,
     [](const ScriptCommand&, const AppState&, LabOut&) {
         return VerbWait{2, false, true};
     }},
    {"lab-step", VerbArg::Required, step},
    {"lab-layer", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, LabOut& out) {
         const int layers = s.lab.now.trace ? static_cast<int>(s.lab.now.trace->layers.size()) : 0;
         const int layer = c.arg == "auto" ? -1 : whole_number(c);
         if (layer < -1 || layer >= layers) throw vit::Error(c.where + ": layer " + c.arg + " is out of range");
         push(out, lab::SetLayer{layer});
         return kShownInLab;
     }},
    {"lab-sample", VerbArg::Required,
     [](const ScriptCommand& c, const AppState& s, LabOut& out) {
         const int sample = whole_number(c);
         if (sample < 0 || sample >= static_cast<int>(need_run(c, s).samples.size()))
             throw vit::Error(c.where + ": sample " + c.arg + " is out of range");
         push(out, lab::SetSample{sample});
         return kShownInLab;
     }},
    {"lab-next-wrong", VerbArg::None,
     [](const ScriptCommand& c, const AppState& s, LabOut& out) {
         need_run(c, s);
         push(out, lab::NextWrongSample{});
         return kShownInLab;
     }},
    {"lab-query", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, LabOut& out) {
         if (c.arg != "0" && c.arg != "1" && c.arg != "cls") throw vit::Error(c.where + ": lab-query is 0, 1 or cls");
         push(out, lab::SetQuerySquare{c.arg == "cls" ? kQueryCls : c.arg == "1" ? kQuerySquare2 : kQuerySquare1});
         return kShownInLab;
     }},
    {"lab-swap", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, LabOut& out) {
         if (c.arg != "on" && c.arg != "off") throw vit::Error(c.where + ": lab-swap is on or off");
         push(out, lab::ShowSwap{c.arg == "on"});
         return kShownInLab;
     }},
    {"lab-export", VerbArg::Folder,
     [](const ScriptCommand& c, const AppState& s, LabOut& out) {
         need_run(c, s);
         push(out, lab::ExportSlides{c.arg});
         return kShownInLab;
     }},
    {"lab-explore", VerbArg::None,
     [](const ScriptCommand& c, const AppState& s, LabOut& out) {
         need_run(c, s);
         push(out, lab::Explore{});
         return VerbWait{2, true};
     }},
};

}  // namespace

std::span<const Verb<LabRequest>> lab_verbs() { return kLabVerbs; }

}  // namespace session
