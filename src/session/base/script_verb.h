// A window script's verbs (app/gui/window_script.h runs the script): each
// room lists its own in a table, verb -> what it takes -> the requests it
// makes; session/dispatch/script_verbs.h joins the rooms' tables.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace session {

struct AppState;

// One line of a script.
struct ScriptCommand {
    std::string verb, arg;
    std::string where;  // "FILE:LINE" or "--option", for error messages
};

// What a verb takes: no argument, one it needs, or the optional PATH of a
// writer (a file or a folder it writes, which the output rule checks first).
enum class VerbArg { None, Required, File, Folder };

// What the runner does after a verb: let frames render, wait for the worker
// (the model, an experiment, an export, a download) or for the Learning lab's
// training, or note the verb as the page figure whose failure arrives later.
struct VerbWait {
    int frames = 0;
    bool worker = false;
    bool training = false;
    bool figure = false;
};

// A room's verb: its name, its argument, and what it asks for (Request: the
// room's own actions and commands). Throws vit::Error naming the script's line.
template <class Request>
struct Verb {
    std::string_view name;
    VerbArg arg;
    VerbWait (*run)(const ScriptCommand& c, const AppState& s, std::vector<Request>& out);
};

}  // namespace session
