// Scripted control of the window, for tests and benchmarks: the command-line
// options --layer, --head, --select, --script FILE, --screenshot, --quit
// become a list of commands run one per frame through the same actions the
// mouse and keyboard emit.
//
// Script file: one command per line, '#' starts a comment. Each room of the
// session lists its verbs in its NAME_room.h (session/state/rooms.h lists the
// rooms; session/dispatch/script_verbs.h joins them): core (wait, frames,
// select, layer, head, style, tab, open-image, screenshot, export, classroom,
// theme, quit, ...), questions (question, export-question), tour (tour,
// export-tour), homework (exercises, exercise, answer, export-lesson,
// export-homework), classroom (side-by-side), lab (learning-lab, lab-*),
// models (open-model, get-model), files (save-lesson, open-lesson).
// A writer (screenshot, export..., save-lesson...) whose file cannot be written
// ends the script there: the window exits 2 with the line and the cause.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "app/cli_args.h"
#include "session/base/script_verb.h"
#include "session/dispatch/requests.h"
#include "session/state/app_state.h"

namespace app {

using ScriptCommand = session::ScriptCommand;

// Throws vit::Error naming the line for an unknown command or a missing argument.
std::vector<ScriptCommand> parse_script(const std::string& text, const std::string& name);

// The commands the command-line options ask for (reads --script FILE too).
std::vector<ScriptCommand> script_from_cli(const CliArgs& args);

class ScriptRunner {
public:
    explicit ScriptRunner(std::vector<ScriptCommand> commands) : commands_(std::move(commands)) {}
    // Once per frame: emits the actions of the next command once its wait is over.
    void step(const session::AppState& s, std::vector<session::Request>& out);
    bool finished() const { return next_ >= commands_.size() && !waiting_; }
    // In a `wait`: for the worker, an experiment or an export to end.
    bool waiting() const { return waiting_; }
    // The first command that failed (bad patch, timeout); empty while all went well.
    const std::string& error() const { return error_; }
    // The window could not write the file the last command asked for (save-lesson,
    // export, ...): that command failed, and the script stops there. Nothing when
    // the last command writes nothing (the failure was someone else's).
    void writer_failed(const std::string& why);
    // The same for the last export-question, whose figure is drawn frames later
    // (after the page's experiments): its failure arrives while later commands run.
    void figure_failed(const std::string& why);

private:
    bool wait_over(const session::AppState& s);

    std::vector<ScriptCommand> commands_;
    size_t next_ = 0;
    size_t writer_ = SIZE_MAX;  // the index of the last command taken, when it writes a file
    size_t figure_ = SIZE_MAX;  // the index of the last export-question
    bool waiting_ = false;      // for the model/worker
    bool lab_waiting_ = false;  // for the Learning lab's training (lab-wait)
    int frames_left_ = 0;       // then for this many frames
    int wait_frames_ = 0;       // frames spent waiting, for the timeout
    std::string error_;
};

}  // namespace app
