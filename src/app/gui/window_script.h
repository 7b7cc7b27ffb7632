// Scripted control of the window, for tests and benchmarks: the command-line
// options --layer, --head, --select, --script FILE, --screenshot, --quit
// become a list of commands run one per frame through the same actions the
// mouse and keyboard emit.
//
// Script file: one command per line, '#' starts a comment.
//   wait                      until the model has run, nothing is loading or downloading, no experiment
//                             or page analysis runs and no page figure waits for one, then 2 frames
//   frames N                  let N frames render
//   select ROW,COL | cls      the query
//   layer L / head H          (head also shows that head on the photo)
//   mean                      the photo shows the mean of the visible heads
//   toggle-head H             show/hide head H
//   pin ROW,COL | none        the key the math panel explains
//   temperature T             the temperature what-if
//   tab math | whatifs | questions   the right-hand panel's tab (then 2 frames)
//   question NAME            the Questions tab on that page (scaling, heads, global, ...), then 2
//                             frames: a `wait` after it waits for the numbers the page computes
//   size PX                   the model input's side in pixels, a multiple of the patch (then waits)
//   style KEY=VALUE ...       colormap=viridis|magma|turbo scale=row-max|absolute|log
//                             opacity=0..1 fade=on|off smooth=on|off grid=on|off
//   open-image PATH           as File > Open image (then waits)
//   open-model DIR            as File > Open model (then waits)
//   get-model NAME            as File > Get a model… on a known name: downloads it (from
//                             $VITSCOPE_MODEL_MIRROR when set) and opens it, or shows the error (then waits)
//   compare PATH              as File > Compare with…: a second photo through the same model (then waits)
//   tour FILE | default       start a guided tour (default: the one that ships), then 2 frames
//   tour next | back | exit | fold | unfold   as the tour card's buttons (fold: Hide text)
//   classroom on | off        as View > Classroom (projector), then 2 frames
//   theme dark | light        as View > Theme
//   screenshot [PATH]         the whole window, as F12 does (default: a descriptive name)
//   export [PATH]             the figure, as File > Export figure
//   record-path on | off      as File > Record a sweep path (on: a new path; each select adds its patch)
//   export-sweep [PATH]       as File > Export sweep (GIF): along the path, or every patch
//   export-tour [DIR]         the tour on show (or the one that ships) as slides, as File > Export tour as slides
//   side-by-side L,H/L,H | off   as View > Side by side with those panes (",second" after a pane: the
//                             second photo), or back to the panels
//   save-lesson [PATH]        as File > Save lesson… (default: a descriptive name in the export folder)
//   save-lesson-with-photo [PATH]   the same with the photo's bytes embedded
//   open-lesson PATH          as File > Open lesson… (then waits); a bad file leaves the state as it was
//   export-lesson [PATH]      the lesson page (HTML), as File > Export lesson page
//   export-homework [DIR]     the homework folder, as File > Export homework
//   export-question [PATH]    the Questions page shown, as its Export figure button (then waits
//                             for it: the page's experiments may run first)
//   exercises FILE | default  classroom mode's live exercise, as File > Exercises in class (default: the
//                             sample), then 2 frames
//   exercise next | back | reveal | end   as the exercise panel's buttons
//   answer ARG                the class's answer to the exercise on show: ROW,COL or cls (top_key),
//                             ROW,COL ... (predict_region: each patch marked or unmarked), the text
//                             typed (weight, scaled_score), an option's number (choice)
//   quit
// A writer (screenshot, export..., save-lesson...) whose file cannot be written
// ends the script there: the window exits 2 with the line and the cause.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "app/cli_args.h"
#include "session/commands.h"
#include "session/state.h"

namespace app {

struct ScriptCommand {
    std::string verb, arg;
    std::string where;   // "FILE:LINE" or "--option", for error messages
};

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
