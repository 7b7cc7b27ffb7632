#include "app/gui/lab_script.h"

#include <filesystem>
#include <set>
#include <sstream>

#include "session/commands.h"
#include "vit/base/error.h"
#include "vit/train/tasks.h"

namespace app {
namespace {

namespace lab = session::lab;
using LabAction = session::act::Lab;
using LabCommand = session::cmd::Lab;

int whole_number(const ScriptCommand& c, const std::string& text) {
    try {
        size_t used = 0;
        const int v = std::stoi(text, &used);
        if (used == text.size()) return v;
    } catch (const std::exception&) {
    }
    throw vit::Error(c.where + ": " + c.verb + " expects a whole number, got '" + text + "'");
}

const session::LabRun& need_run(const ScriptCommand& c, const session::AppState& s) {
    if (!s.lab.run) throw vit::Error(c.where + ": " + c.verb + " with no run open in the lab (learning-lab RUN first)");
    return *s.lab.run;
}

}  // namespace

bool is_lab_verb(const std::string& verb) {
    static const std::set<std::string> verbs = {"learning-lab", "lab-train", "lab-cancel", "lab-wait", "lab-step",
                                                "lab-layer", "lab-sample", "lab-query", "lab-explore"};
    return verbs.count(verb) > 0;
}

LabScriptWait lab_command(const ScriptCommand& c, const session::AppState& s, std::vector<session::Request>& out) {
    static const std::set<std::string> no_arg = {"lab-cancel", "lab-wait", "lab-explore"};
    if (no_arg.count(c.verb) && !c.arg.empty()) throw vit::Error(c.where + ": " + c.verb + " takes no argument");
    if (!no_arg.count(c.verb) && c.arg.empty()) throw vit::Error(c.where + ": " + c.verb + " needs an argument");
    LabScriptWait wait;
    wait.frames = 2;  // the lab computes its view at the next frame's start; it shows a frame later
    if (c.verb == "learning-lab") {
        if (c.arg == "open" || c.arg == "close") out.push_back(LabAction{lab::Show{c.arg == "open"}});
        else out.push_back(LabCommand{lab::OpenRun{c.arg}});
    } else if (c.verb == "lab-train") {
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
        if (steps < 1 || steps > session::kMaxLabSteps) throw vit::Error(c.where + ": lab-train: steps=" + std::to_string(steps) + " is out of 1 .. 100000");
        // Refused here, not by the window: there a refused setting would leave Train to start with the old one.
        std::error_code ec;
        if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) throw vit::Error(c.where + ": lab-train: " + dir + ": no such folder");
        out.push_back(LabCommand{lab::SetTraining{task, position, steps, dir}});
        out.push_back(LabCommand{lab::Train{}});
    } else if (c.verb == "lab-cancel") {
        out.push_back(LabCommand{lab::CancelTraining{}});
    } else if (c.verb == "lab-wait") {
        wait.training = true;
    } else if (c.verb == "lab-step") {
        const session::LabRun& run = need_run(c, s);
        const int last = static_cast<int>(run.log.size()) - 1;
        int index = 0;
        if (c.arg == "first") index = 0;
        else if (c.arg == "last") index = last;
        else if (c.arg == "next") index = std::min(last, s.lab.checkpoint + 1);
        else if (c.arg == "back") index = std::max(0, s.lab.checkpoint - 1);
        else {
            const int step = whole_number(c, c.arg);
            if (step < 0) throw vit::Error(c.where + ": lab-step " + c.arg + " is before step 0");
            index = static_cast<int>(run.checkpoint_at(step));
        }
        out.push_back(LabAction{lab::SetCheckpoint{index}});
    } else if (c.verb == "lab-layer") {
        const int layers = s.lab.now.trace ? static_cast<int>(s.lab.now.trace->layers.size()) : 0;
        const int layer = c.arg == "auto" ? -1 : whole_number(c, c.arg);
        if (layer < -1 || layer >= layers) throw vit::Error(c.where + ": layer " + c.arg + " is out of range");
        out.push_back(LabAction{lab::SetLayer{layer}});
    } else if (c.verb == "lab-sample") {
        const int sample = whole_number(c, c.arg);
        if (sample < 0 || sample >= static_cast<int>(need_run(c, s).samples.size()))
            throw vit::Error(c.where + ": sample " + c.arg + " is out of range");
        out.push_back(LabAction{lab::SetSample{sample}});
    } else if (c.verb == "lab-query") {
        if (c.arg != "0" && c.arg != "1") throw vit::Error(c.where + ": lab-query is 0 or 1");
        out.push_back(LabAction{lab::SetQuerySquare{c.arg == "1"}});
    } else if (c.verb == "lab-explore") {
        need_run(c, s);
        out.push_back(LabCommand{lab::Explore{}});
        wait.worker = true;
    }
    return wait;
}

}  // namespace app
