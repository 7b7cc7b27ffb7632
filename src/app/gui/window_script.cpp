#include "app/gui/window_script.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

#include "session/core/output_rules.h"
#include "session/dispatch/script_verbs.h"
#include "vit/base/error.h"
#include "vit/base/read_file.h"

namespace app {
namespace {

constexpr size_t kMaxScriptBytes = 1 << 20, kMaxScriptLine = 4096;
constexpr int kWaitTimeoutFrames = 20000;  // ~ minutes at llvmpipe speed: a stuck worker ends the script

bool writes(session::VerbArg arg) { return arg == session::VerbArg::File || arg == session::VerbArg::Folder; }

// A script never replaces a file nor writes over what is open: the output
// rule's refusal for the verb's PATH, as one line naming the script's line; empty when allowed.
std::string output_refused(const ScriptCommand& c, const session::AppState& s, session::VerbArg arg) {
    try {
        vit::check_output(c.arg, session::output_rules(s, false),
                          arg == session::VerbArg::Folder ? vit::OutputKind::Folder : vit::OutputKind::File);
        return "";
    } catch (const vit::OutputExists& e) {  // no --force reaches a script's verbs: not offered
        return c.where + ": " + c.verb + ": " + e.path + " exists; a script never replaces a file: give a new name";
    } catch (const vit::Error& e) {
        return c.where + ": " + c.verb + ": " + e.what();
    }
}

}  // namespace

std::vector<ScriptCommand> parse_script(const std::string& text, const std::string& name) {
    std::vector<ScriptCommand> out;
    std::istringstream in(text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.size() > kMaxScriptLine)
            throw vit::Error(name + ":" + std::to_string(n) + ": the line is " + std::to_string(line.size()) +
                             " bytes, over the " + std::to_string(kMaxScriptLine) + "-byte limit");
        if (n == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a UTF-8 byte order mark
        if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
        std::istringstream words(line);
        ScriptCommand c;
        c.where = name + ":" + std::to_string(n);
        if (!(words >> c.verb)) continue;
        std::getline(words >> std::ws, c.arg);
        while (!c.arg.empty() && std::isspace(static_cast<unsigned char>(c.arg.back()))) c.arg.pop_back();
        const session::ScriptVerb* verb = session::find_script_verb(c.verb);
        if (!verb) throw vit::Error(c.where + ": unknown command '" + c.verb + "'");
        if (verb->arg == session::VerbArg::Required && c.arg.empty())
            throw vit::Error(c.where + ": " + c.verb + " needs an argument");
        if (verb->arg == session::VerbArg::None && !c.arg.empty())
            throw vit::Error(c.where + ": " + c.verb + " takes no argument");
        out.push_back(c);
    }
    return out;
}

std::vector<ScriptCommand> script_from_cli(const CliArgs& args) {
    std::vector<ScriptCommand> out;
    const bool scripted = args.has("--layer") || args.has("--head") || args.has("--mean-heads") ||
                          args.has("--select") || args.has("--script") || args.has("--screenshot") ||
                          args.has("--quit");
    if (args.has("--head") && args.has("--mean-heads")) throw vit::Error("give one of --head H or --mean-heads");
    if (!scripted) return out;
    out.push_back({"wait", "", "startup"});
    if (args.has("--layer")) out.push_back({"layer", args.get("--layer"), "--layer"});
    if (args.has("--head")) out.push_back({"head", args.get("--head"), "--head"});
    if (args.has("--mean-heads")) out.push_back({"mean", "", "--mean-heads"});
    if (args.has("--select")) out.push_back({"select", args.get("--select"), "--select"});
    if (args.has("--script")) {
        const std::string path = args.get("--script");
        std::error_code ec;
        const bool empty =
            std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) == 0 && !ec;
        // A regular file of at most 1 MiB: a FIFO would block the window before it opens.
        const std::string text = empty ? "" : vit::read_whole_file(path, kMaxScriptBytes, "a window script");
        for (auto& c : parse_script(text, path)) out.push_back(std::move(c));
    }
    if (args.has("--screenshot")) {
        out.push_back({"frames", "3", "--screenshot"});
        out.push_back({"screenshot", args.get("--screenshot"), "--screenshot"});
    }
    if (args.has("--quit")) out.push_back({"quit", "", "--quit"});
    return out;
}

bool ScriptRunner::wait_over(const session::AppState& s) {
    if (lab_waiting_) {  // lab-wait: until the Learning lab's training ends
        if (s.lab.training.running) {
            if (++wait_frames_ > kWaitTimeoutFrames) {
                error_ = "timed out waiting for the lab's training";
                lab_waiting_ = false;
                next_ = commands_.size();
            }
            return false;
        }
        lab_waiting_ = false;
        frames_left_ = std::max(frames_left_, 2);
    }
    if (waiting_) {
        const bool settled = !s.work.busy && s.experiments.running.empty() && s.exporting.empty() &&
                             !s.get_model.download.running() && s.analyses.running.empty() &&
                             (s.loaded.ready() || !s.last_error.empty());
        if (!settled) {
            if (++wait_frames_ > kWaitTimeoutFrames) {
                error_ = "timed out waiting for the model";
                waiting_ = false;
                next_ = commands_.size();
            }
            return false;
        }
        waiting_ = false;
        frames_left_ = std::max(frames_left_, 2);  // let the new trace reach the screen
    }
    if (frames_left_ > 0) {
        --frames_left_;
        return false;
    }
    return true;
}

namespace {

// The command at `index` failed: it is the script's error, and nothing after it runs.
void fail_at(const std::vector<ScriptCommand>& commands, size_t& index, const std::string& why, std::string& error,
             size_t& next) {
    if (index >= commands.size() || !error.empty()) return;
    const ScriptCommand& c = commands[index];
    error = c.where + ": " + c.verb + ": " + why;
    next = commands.size();
    index = SIZE_MAX;
}

}  // namespace

void ScriptRunner::writer_failed(const std::string& why) { fail_at(commands_, writer_, why, error_, next_); }

void ScriptRunner::figure_failed(const std::string& why) { fail_at(commands_, figure_, why, error_, next_); }

void ScriptRunner::step(const session::AppState& s, std::vector<session::Request>& out) {
    if (!wait_over(s) || next_ >= commands_.size()) return;
    const ScriptCommand& c = commands_[next_++];
    const session::ScriptVerb& verb = *session::find_script_verb(c.verb);  // parse_script knew it
    writer_ = writes(verb.arg) ? next_ - 1 : SIZE_MAX;
    try {
        if (!c.arg.empty() && writes(verb.arg))
            if (const std::string why = output_refused(c, s, verb.arg); !why.empty()) throw vit::Error(why);
        std::vector<session::Request> asked;  // nothing of a refused line reaches the window
        const session::VerbWait w = verb.run(c, s, asked);
        out.insert(out.end(), asked.begin(), asked.end());
        frames_left_ = w.frames;
        if (w.worker || w.training) wait_frames_ = 0;
        waiting_ = w.worker;
        lab_waiting_ = w.training;
        if (w.figure) figure_ = next_ - 1;
    } catch (const std::exception& e) {
        error_ = e.what();
        next_ = commands_.size();
    }
}

}  // namespace app
