// Pieces every Questions page uses: headings, the what-if banner, the line
// that runs or cancels a long experiment with its progress.
#pragma once
#include <string>
#include <vector>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "session/base/experiments.h"
#include "ui/widgets/frame.h"

namespace ui {

// "On this photo" / "In general": what the numbers below are evidence of.
void evidence_heading(const Frame& f, const char* text);

// An orange line saying the numbers below are not what the model computes.
void whatif_note(const Frame& f, const char* text);

// A wrapped paragraph in the muted colour.
void note(const char* text);

// Classroom mode: a page's prose folded beneath its figures. While a
// FoldedNotes lives, note() keeps its text here instead of drawing it;
// draw() then shows them under a header the lecturer opens ("Read more").
class FoldedNotes {
public:
    FoldedNotes();
    ~FoldedNotes();
    FoldedNotes(const FoldedNotes&) = delete;
    FoldedNotes& operator=(const FoldedNotes&) = delete;
    void add(std::string text) { texts_.push_back(std::move(text)); }
    // lead: prose shown first under the header (the page's claim).
    void draw(const char* lead);

private:
    std::vector<std::string> texts_;
    FoldedNotes* outer_;
};

// The height of a table of `lines` lines of text (header lines included), with
// room for a horizontal scroll bar: a table that scrolls sideways needs its height given.
float table_height(int lines);

// BeginTable for a table whose columns share the page's width, or, on a page
// narrower than `min_width` logical pixels (classroom type), keep their own
// widths and scroll sideways (`lines` tall) rather than cut their headers.
// *narrow (when given) says which.
bool begin_table_fitting(const Frame& f, const char* id, int columns, ImGuiTableFlags flags, float min_width, int lines,
                         bool* narrow = nullptr);

// A Run button for an experiment (key, job), its progress bar while it runs
// (with Cancel), and its error if it failed. Returns true when its result is there.
// In a figure (Frame::figure) no button: a missing result is asked for by
// emitting cmd::RunExperiment, and the figure runs it before it is drawn.
bool experiment_controls(const Frame& f, const char* label, const std::string& key, const session::ExperimentJob& job);

// Starts the experiment once, when its result is missing and nothing else
// runs, so a page opens with its evidence; `started` remembers the key (a
// cancelled or failed run is not started again: its button stays).
void start_once(const Frame& f, std::string& started, const std::string& key, const session::ExperimentJob& job);

// The key of an experiment on the loaded model and photo: "name#generation".
std::string experiment_key(const Frame& f, const std::string& name);

// Numbers a page needs that can take longer than a frame (at a large input
// size), computed off the window's thread by the analysis runner: null while
// they are being computed, then the value, or the error it threw.
template <class T>
struct Computed {
    std::optional<T> value;
    std::string error;
};
template <class T>
std::shared_ptr<const Computed<T>> analysis(const Frame& f, const std::string& key, std::function<T()> compute) {
    if (auto r = f.s.analyses.result<Computed<T>>(key)) return r;
    // A figure asks for what it misses and is drawn again once it ran (page_figure.h),
    // through the experiment runner.
    if (f.figure)
        if (auto r = f.s.experiments.result<Computed<T>>(key)) return r;
    if (!f.s.analyses.is_running(key))
        f.emit(session::cmd::RunAnalysis{key, [compute = std::move(compute)](const vit::TaskControl&) {
                                             auto r = std::make_shared<Computed<T>>();
                                             try {
                                                 r->value = compute();
                                             } catch (const std::exception& e) {
                                                 r->error = e.what();
                                             }
                                             return std::static_pointer_cast<const void>(
                                                 std::shared_ptr<const Computed<T>>(std::move(r)));
                                         }});
    return nullptr;
}

// Classroom mode leads a page with its figure, whole, above the fold: the
// height left under the cursor for a figure (a plot, a table) wanted `wanted`
// tall, never under `least`. In the normal window and in figures, `wanted`.
float height_above_fold(const Frame& f, float wanted, float least);

// The same for a row of maps: the tallest they may be under the cursor, with their caption over them
// and their colour bars under them, within `wanted` and never under
// kSmallestMap. caption_at(h): the row's caption height when its maps are h
// tall (narrower maps wrap their captions onto more lines). In the normal
// window and in figures, `wanted`.
inline constexpr float kSmallestMap = 120;  // logical pixels (180 px in classroom type)
float maps_height_above_fold(const Frame& f, float wanted, const std::function<float(float)>& caption_at);

// "Computing …" in the muted colour, where numbers will appear.
void computing_note(const char* what);

}  // namespace ui
