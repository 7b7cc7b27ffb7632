// The explorer window's object, shared by its two halves: window_main.cpp
// (start-up, the frame loop, the state file) and window_commands.cpp (what
// the commands panels, keys and scripts ask for: files, the worker, exports).
#pragma once
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli_args.h"
#include "app/gui/frame_stats.h"
#include "app/gui/window_options.h"
#include "app/gui/window_question_figure.h"
#include "app/gui/window_script.h"
#include "session/dispatch/requests.h"
#include "session/base/drawn_report.h"
#include "session/base/experiments.h"
#include "session/lab/lab_controller.h"
#include "session/files/lesson.h"
#include "session/models/model_download.h"
#include "session/models/model_worker.h"
#include "session/dispatch/settings.h"
#include "session/state/app_state.h"
#include "session/tour/tour_query.h"
#include "ui/widgets/frame.h"

struct GLFWwindow;

namespace ui {
class GlCache;
class MainView;
}  // namespace ui

namespace app {

class Window {
public:
    Window(const CliArgs& args, const WindowOptions& opt);
    ~Window();
    // The event loop's parts (run_event_loop runs them, as the platform
    // has it: window_platform.h): how long it may wait for events, then one pass after them
    // (false once the window is to close), then finish (the exit code).
    double wait_time();
    bool pass();
    int finish();
    const session::AppState& state() const { return s_; }

private:
    using Clock = std::chrono::steady_clock;

    // window_main.cpp
    void fit_gl_limits();
    void init_imgui();
    void load_fonts();
    void begin_frame();
    void apply_all(std::vector<session::Request>& requests);
    void write_state_file();
    void save_settings(bool if_changed);
    void draw_frame();
    void save_pending_screenshot(int fw, int fh);
    void take_result(session::ModelWorker::Result r);
    void update_title();
    bool busy() const {
        return s_.work.busy || !s_.experiments.running.empty() || !s_.exporting.empty() ||
               s_.get_model.download.running() || !s_.analyses.running.empty() || session::awaiting_relevant_choice(s_);
    }

    // window_commands.cpp: each command to its room's handler (window_ROOM_commands.cpp)
    void carry_out(const session::Command& c);
    template <class X>
    void carry_in_room(const X& x);
    void carry_core(const session::CoreCommands& c);
    void carry_questions(const session::QuestionsCommands& c);
    void carry_tour(const session::TourCommands& c);
    void carry_homework(const session::HomeworkCommands& c);
    void carry_lab(const session::LabCommands& c);
    void carry_models(const session::ModelsCommands& c);
    void carry_files(const session::FilesCommands& c);
    // An export's path: the one given, else a descriptive name in the export folder.
    std::string export_name(const std::string& path, const std::string& suffix, const char* ext) const;
    void run_worker(session::ModelWorker::Request r);
    void get_model(const std::string& name);
    void export_sweep(const std::string& path, bool replace);
    void open_lesson(session::Lesson lesson, const std::string& path);
    void open_startup_lesson(session::Lesson lesson, const std::string& path);
    void open_tour_lesson();
    void poll_download();
    void ask_replace(const std::string& path, session::Command again);
    void redo_replacing();

    WindowOptions opt_;
    session::Settings settings_;
    std::string settings_file_;
    GLFWwindow* win_ = nullptr;
    session::AppState s_;
    // Where the frame being drawn put what tests click and measure; the state
    // file writes it once the frame is whole.
    session::DrawnReport drawn_;
    // Need the GL context (and the worker, the event loop): made after the
    // window, released in ~Window before it goes.
    std::atomic<bool> window_open_{false};  // the workers wake the event loop only once there is one
    std::unique_ptr<session::ModelWorker> worker_;
    std::unique_ptr<session::ExperimentRunner> experiments_;
    std::unique_ptr<session::ModelDownloader> downloader_;
    std::unique_ptr<session::ExperimentRunner> analyses_;  // the pages' slow numbers; never stops an experiment
    std::unique_ptr<session::LabController> lab_;          // the Learning lab: its runs, its training thread
    std::unique_ptr<ui::GlCache> gpu_;
    std::unique_ptr<ui::MainView> view_;
    QuestionFigureExport question_figure_;
    ui::Fonts fonts_;
    float ui_scale_ = 1, fb_scale_ = 1;
    bool fonts_classroom_ = false;  // the classroom mode the fonts were built for
    session::AppState::Theme styled_theme_ = session::AppState::Theme::Dark;  // the theme the style was made for
    ScriptRunner script_;
    std::string pending_screenshot_;
    bool pending_screenshot_replace_ = false;
    std::optional<session::Command> replace_pending_;  // the export the replace question is about
    // A lesson whose model and photos the worker is running: applied when they arrive.
    std::optional<session::Lesson> pending_lesson_;
    std::optional<int> lesson_tour_step_;  // the tour step the pending lesson was opened for
    std::string last_state_;
    int last_title_generation_ = -1;
    std::vector<session::Request> requests_;  // what the frame being drawn asks for
    int busy_frames_ = 3;                     // frames still to draw before waiting for events
    bool continuous_ = false;                 // frames without waiting: a script or a change needs them
    bool was_busy_ = false;
    Clock::time_point busy_since_;  // when the work now running began
    bool vsync_ = false;
    FrameStats stats_;
};

}  // namespace app
