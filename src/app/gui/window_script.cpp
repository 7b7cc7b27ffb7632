#include "app/gui/window_script.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "app/gui/lab_script.h"
#include "gfx/style_names.h"
#include "session/commands.h"
#include "session/live_exercise.h"
#include "session/output_rules.h"
#include "vit/analysis/questions.h"
#include "vit/base/error.h"
#include "vit/base/read_file.h"

namespace app {
namespace {

// Verbs that take an argument, those that do not, and those that write a
// file: their PATH is optional (a name in the export folder) and follows the
// output rule before the verb runs.
const std::set<std::string> kWithArg = {"frames", "select", "layer", "head", "toggle-head", "pin", "temperature",
                                        "tab", "question", "style", "open-image", "open-model", "get-model", "compare", "size",
                                        "tour", "record-path", "open-lesson", "side-by-side", "classroom", "theme",
                                        "exercises", "exercise", "answer"};
const std::set<std::string> kNoArg = {"wait", "mean", "quit"};
const std::set<std::string> kWriters = {"screenshot", "export", "export-sweep", "export-question", "export-tour",
                                        "export-lesson", "export-homework", "save-lesson", "save-lesson-with-photo"};
constexpr size_t kMaxScriptBytes = 1 << 20, kMaxScriptLine = 4096;
constexpr int kWaitTimeoutFrames = 20000;   // ~ minutes at llvmpipe speed: a stuck worker ends the script

int to_int(const ScriptCommand& c) {
    try {
        size_t used = 0;
        const int v = std::stoi(c.arg, &used);
        if (used == c.arg.size()) return v;
    } catch (const std::exception&) {
    }
    throw vit::Error(c.where + ": " + c.verb + " expects a whole number, got '" + c.arg + "'");
}

// A finite number ("0.8", "2e-1"); `what` names it in the error.
float to_float(const ScriptCommand& c, const std::string& text, const std::string& what) {
    try {
        size_t used = 0;
        const float v = std::stof(text, &used);
        if (used == text.size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
    throw vit::Error(c.where + ": " + what + " expects a number, got '" + text + "'");
}

// A patch "ROW,COL" or "cls" as a token of the current trace.
int to_token(const ScriptCommand& c, const vit::Trace& t) {
    if (c.arg == "cls" || c.arg == "CLS") return 0;
    if (c.arg == "none") return -1;
    std::pair<int, int> patch;
    try {
        patch = parse_patch(c.arg);
    } catch (const vit::Error&) {  // its message names --patch, not the script's line
        throw vit::Error(c.where + ": " + c.verb + " expects ROW,COL or cls, got '" + c.arg + "'");
    }
    const auto [r, col] = patch;
    if (r >= t.grid || col >= t.grid)
        throw vit::Error(c.where + ": patch " + c.arg + " is outside the " + std::to_string(t.grid) + " x " +
                         std::to_string(t.grid) + " grid");
    return t.token_of(r, col);
}

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
        else if (key == "scale" && gfx::normalization_from_name(value)) st.normalization = *gfx::normalization_from_name(value);
        else if (key == "opacity") st.opacity = std::clamp(to_float(c, value, "opacity"), 0.f, 1.f);
        else if (key == "fade") st.fade = flag();
        else if (key == "smooth") st.bilinear = flag();
        else if (key == "grid") st.show_grid = flag();
        else throw vit::Error(c.where + ": style " + word + " is not colormap=, scale=, opacity=, fade=, smooth= or grid=");
    }
    return st;
}

// A script never replaces a file nor writes over what is open: the output
// rule's refusal for the verb's PATH, as one line naming the script's line; empty when allowed.
std::string output_refused(const ScriptCommand& c, const session::AppState& s) {
    try {
        vit::check_output(c.arg, session::output_rules(s, false),
                          c.verb == "export-tour" || c.verb == "export-homework" ? vit::OutputKind::Folder : vit::OutputKind::File);
        return "";
    } catch (const vit::OutputExists& e) {   // no --force reaches a script's verbs: not offered
        return c.where + ": " + c.verb + ": " + e.path + " exists; a script never replaces a file: give a new name";
    } catch (const vit::Error& e) {
        return c.where + ": " + c.verb + ": " + e.what();
    }
}

// The live exercise's verbs (classroom mode; session/live_exercise.h):
//   exercises FILE | default        as File > Exercises in class (default: the sample)
//   exercise next | back | reveal | end
//   answer ROW,COL | cls            top_key: the key; predict_region: ROW,COL ... toggles each patch;
//   answer TEXT                     weight, scaled_score: the text typed, as it is; choice: answer N
void live_exercise_command(const ScriptCommand& c, const session::AppState& s, std::vector<session::Request>& out) {
    namespace live = session::live;
    if (c.verb == "exercises") {
        out.push_back(session::cmd::OpenExercises{c.arg == "default" ? "" : c.arg});
        return;
    }
    const session::Exercise* e = session::live_exercise_shown(s);
    if (!e) throw vit::Error(c.where + ": " + c.verb + " with no live exercise on (exercises FILE first)");
    const int i = s.live_exercise.index;
    if (c.verb == "exercise") {
        if (c.arg == "next" || c.arg == "back") out.push_back(session::act::Live{live::Go{i + (c.arg == "next" ? 1 : -1)}});
        else if (c.arg == "reveal") out.push_back(session::act::Live{live::Reveal{}});
        else if (c.arg == "end") out.push_back(session::act::Live{live::End{}});
        else throw vit::Error(c.where + ": exercise is next, back, reveal or end");
        return;
    }
    using Kind = session::ExerciseKind;
    if (e->kind == Kind::Weight || e->kind == Kind::ScaledScore) {
        out.push_back(session::act::Live{live::Type{c.arg}});  // checked on Reveal, as typed in the field
    } else if (e->kind == Kind::Choice) {
        out.push_back(session::act::Live{live::Choose{to_int(c)}});
    } else {
        std::istringstream words(c.arg);
        for (std::string word; words >> word;) {
            const int token = to_token({c.verb, word, c.where}, *s.trace());
            if (e->kind == Kind::TopKey) out.push_back(session::act::Live{live::Pick{token}});
            else out.push_back(session::act::Live{live::Mark{token}});
        }
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
        if (kWithArg.count(c.verb) && c.arg.empty()) throw vit::Error(c.where + ": " + c.verb + " needs an argument");
        if (!kWithArg.count(c.verb) && !kNoArg.count(c.verb) && !kWriters.count(c.verb) && !is_lab_verb(c.verb)) throw vit::Error(c.where + ": unknown command '" + c.verb + "'");
        out.push_back(c);
    }
    return out;
}

std::vector<ScriptCommand> script_from_cli(const CliArgs& args) {
    std::vector<ScriptCommand> out;
    const bool scripted = args.has("--layer") || args.has("--head") || args.has("--mean-heads") || args.has("--select") ||
                          args.has("--script") || args.has("--screenshot") || args.has("--quit");
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
        const bool empty = std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) == 0 && !ec;
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
    writer_ = kWriters.count(c.verb) ? next_ - 1 : SIZE_MAX;
    if (c.verb == "export-question") figure_ = next_ - 1;
    try {
        const vit::Trace* t = s.trace();
        auto need_trace = [&] {
            if (!t) throw vit::Error(c.where + ": " + c.verb + " needs a model run on a photo");
            return *t;
        };
        if (!c.arg.empty() && kWriters.count(c.verb)) {
            if (const std::string why = output_refused(c, s); !why.empty()) throw vit::Error(why);
        }
        if (c.verb == "wait") {
            waiting_ = true;
            wait_frames_ = 0;
        } else if (c.verb == "frames") {
            frames_left_ = to_int(c);
        } else if (c.verb == "select") {
            out.push_back(session::act::SelectQuery{to_token(c, need_trace())});
        } else if (c.verb == "layer") {
            const int l = to_int(c);
            if (l < 0 || l >= s.layers()) throw vit::Error(c.where + ": layer " + c.arg + " is out of range");
            out.push_back(session::act::SetLayer{l});
        } else if (c.verb == "head" || c.verb == "toggle-head") {
            const int h = to_int(c);
            if (h < 0 || h >= s.heads()) throw vit::Error(c.where + ": head " + c.arg + " is out of range");
            if (c.verb == "head") out.push_back(session::act::SetHead{h});
            else out.push_back(session::act::ToggleHeadVisible{h});
        } else if (c.verb == "mean") {
            out.push_back(session::act::SetMapSource{session::MapSource::MeanOfVisible});
        } else if (c.verb == "pin") {
            const int token = to_token(c, need_trace());
            out.push_back(session::act::PinKey{token});
        } else if (c.verb == "temperature") {
            out.push_back(session::act::SetTemperature{to_float(c, c.arg, "temperature")});
        } else if (c.verb == "style") {
            out.push_back(session::act::SetStyle{parse_style(c, s.style)});
        } else if (c.verb == "tab") {
            using Tab = session::AppState::Tab;
            const Tab tabs[] = {Tab::Math, Tab::WhatIfs, Tab::Questions};
            const Tab* tab = std::find_if(std::begin(tabs), std::end(tabs), [&](Tab t) { return c.arg == session::tab_name(t); });
            if (tab == std::end(tabs)) throw vit::Error(c.where + ": tab is math, whatifs or questions");
            out.push_back(session::act::ShowTab{*tab});
            frames_left_ = 2;  // the tab bar shows a tab chosen this way a frame later; its page asks for its numbers then
        } else if (c.verb == "question") {
            if (!vit::find_question_page(c.arg)) throw vit::Error(c.where + ": no question page '" + c.arg + "'");
            out.push_back(session::act::ShowQuestion{c.arg});
            frames_left_ = 2;  // as for tab: a following `wait` then waits for the numbers the page asked for
        } else if (c.verb == "tour") {  // tour next | back | exit | fold | unfold | FILE | default (the tour that ships)
            if (c.arg == "next" || c.arg == "back") {
                if (!s.tour.tour) throw vit::Error(c.where + ": tour " + c.arg + " with no tour on");
                out.push_back(session::act::TourGo{s.tour.step + (c.arg == "next" ? 1 : -1)});
            } else if (c.arg == "exit") {
                out.push_back(session::act::ExitTour{});
            } else if (c.arg == "fold" || c.arg == "unfold") {
                if (!s.tour.tour) throw vit::Error(c.where + ": tour " + c.arg + " with no tour on");
                out.push_back(session::act::FoldTourText{c.arg == "fold"});
            } else {
                out.push_back(session::cmd::OpenTour{c.arg == "default" ? "" : c.arg});
            }
            frames_left_ = 2;  // the step's state shows a frame later, as for tab
        } else if (c.verb == "size") {
            const int px = to_int(c);
            const int patch = s.loaded.model ? s.loaded.model->patch : 0;
            if (px <= 0 || (patch && px % patch))
                throw vit::Error(c.where + ": size " + c.arg + " is not a positive multiple of the patch size " + std::to_string(patch));
            out.push_back(session::cmd::SetInputSize{px});
            waiting_ = true;
            wait_frames_ = 0;
        } else if (c.verb == "save-lesson" || c.verb == "save-lesson-with-photo") {
            out.push_back(session::cmd::SaveLesson{c.arg, c.verb == "save-lesson-with-photo"});
            frames_left_ = 1;
        } else if (c.verb == "side-by-side") {
            if (c.arg == "off") {
                out.push_back(session::act::ShowSideBySide{false});
            } else {
                // "8,1/8,2" or "8,1/8,1,second": the left and the right pane.
                const size_t slash = c.arg.find('/');
                auto pane = [&](const std::string& text) {
                    session::AppState::SidePane p;
                    char second[8] = "";
                    const int n = std::sscanf(text.c_str(), "%d,%d,%7s", &p.layer, &p.head, second);
                    if (n < 2 || (n == 3 && std::string(second) != "second"))
                        throw vit::Error(c.where + ": side-by-side L,H/L,H (a pane may end in ,second) or off");
                    p.second_photo = n == 3;
                    return p;
                };
                if (slash == std::string::npos) throw vit::Error(c.where + ": side-by-side L,H/L,H or off");
                out.push_back(session::act::ShowSideBySide{true});
                out.push_back(session::act::SetSidePane{false, pane(c.arg.substr(0, slash))});
                out.push_back(session::act::SetSidePane{true, pane(c.arg.substr(slash + 1))});
            }
            frames_left_ = 2;
        } else if (c.verb == "open-lesson") {
            out.push_back(session::cmd::OpenLesson{c.arg});
            waiting_ = true;
            wait_frames_ = 0;
        } else if (c.verb == "open-image" || c.verb == "open-model" || c.verb == "compare") {
            if (c.verb == "open-image") out.push_back(session::cmd::OpenImage{c.arg});
            else if (c.verb == "compare") out.push_back(session::cmd::OpenCompare{c.arg});
            else out.push_back(session::cmd::OpenModel{c.arg});
            waiting_ = true;
            wait_frames_ = 0;
        } else if (c.verb == "get-model") {
            if (!session::find_known_model(s.get_model.known, c.arg))
                throw vit::Error(c.where + ": no known model '" + c.arg + "'" +
                                 (s.get_model.list_error.empty() ? "" : " (" + s.get_model.list_error + ")"));
            out.push_back(session::act::ShowGetModel{true});
            out.push_back(session::cmd::GetModel{c.arg});
            waiting_ = true;
            wait_frames_ = 0;
        } else if (c.verb == "screenshot") {
            out.push_back(session::cmd::Screenshot{c.arg});
            frames_left_ = 1;
        } else if (c.verb == "record-path") {
            if (c.arg != "on" && c.arg != "off") throw vit::Error(c.where + ": record-path is on or off");
            out.push_back(session::act::RecordSweepPath{c.arg == "on"});
        } else if (c.verb == "export-sweep") {
            out.push_back(session::cmd::ExportSweep{c.arg});
            frames_left_ = 1;
        } else if (c.verb == "export-lesson") {
            out.push_back(session::cmd::ExportLesson{c.arg});
            frames_left_ = 1;
        } else if (c.verb == "export-homework") {
            out.push_back(session::cmd::ExportHomework{c.arg});
            frames_left_ = 1;
        } else if (c.verb == "export-tour") {
            out.push_back(session::cmd::ExportTourSlides{c.arg});
            frames_left_ = 1;
        } else if (c.verb == "export") {
            out.push_back(session::cmd::ExportFigure{c.arg});
            frames_left_ = 1;
        } else if (c.verb == "export-question") {
            out.push_back(session::cmd::ExportQuestionFigure{c.arg, ""});  // the state's page
            waiting_ = true;  // until it is saved: its page's experiments may run first
            wait_frames_ = 0;
        } else if (c.verb == "classroom") {
            if (c.arg != "on" && c.arg != "off") throw vit::Error(c.where + ": classroom is on or off");
            out.push_back(session::act::SetClassroom{c.arg == "on"});
            frames_left_ = 2;  // the fonts are made again for the new size; the layout follows a frame later
        } else if (c.verb == "theme") {
            const auto theme = session::theme_from_name(c.arg);
            if (!theme) throw vit::Error(c.where + ": theme is dark or light");
            out.push_back(session::act::SetTheme{*theme});
            frames_left_ = 1;
        } else if (c.verb == "exercises" || c.verb == "exercise" || c.verb == "answer") {
            live_exercise_command(c, s, out);
            frames_left_ = 2;  // the exercise's state and the panel's places show a frame later
        } else if (is_lab_verb(c.verb)) {  // the Learning lab (lab_script.h)
            const LabScriptWait w = lab_command(c, s, out);
            frames_left_ = w.frames;
            if (w.worker || w.training) wait_frames_ = 0;
            waiting_ = w.worker;
            lab_waiting_ = w.training;
        } else if (c.verb == "quit") {
            out.push_back(session::cmd::Quit{});
        }
    } catch (const std::exception& e) {
        error_ = e.what();
        next_ = commands_.size();
    }
}

}  // namespace app
