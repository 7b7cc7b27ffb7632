// The window's script (app/gui/window_script.h): parse_script reads every
// verb and names the line of a bad one; ScriptRunner turns each command into
// the actions the mouse and keyboard emit, on a hand-made trace (no window).
#include <sys/stat.h>

#include <fstream>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "app/gui/window_script.h"
#include "support/scratch_dir.h"
#include "support/synthetic_session.h"
#include "vit/base/error.h"

namespace {

using app::ScriptCommand;
using app::ScriptRunner;
using session::AppState;
namespace act = session::act;
namespace cmd = session::cmd;

// The action or command of type T a request holds (std::get through its two kinds).
template <class T>
const T* as_if(const session::Request& r) {
    if constexpr (std::is_constructible_v<session::Action, T>) {
        const auto* a = std::get_if<session::Action>(&r);
        return a ? std::get_if<T>(a) : nullptr;
    } else {
        const auto* c = std::get_if<session::Command>(&r);
        return c ? std::get_if<T>(c) : nullptr;
    }
}
template <class T>
const T& as(const session::Request& r) {
    const T* x = as_if<T>(r);
    if (!x) throw std::bad_variant_access();
    return *x;
}
template <class T>
bool is(const session::Request& r) {
    return as_if<T>(r) != nullptr;
}

std::string error_of_parse(const std::string& text) {
    try {
        app::parse_script(text, "s.txt");
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "";
}

// Runs a script against a state with the synthetic 3 x 3 trace loaded, one
// step per frame, applying the state-only actions as the window does.
struct ScriptRun {
    AppState s;
    std::vector<session::Request> actions;  // every action, in order
    std::vector<int> frame_of;              // the frame each was emitted on
    std::string error;

    explicit ScriptRun(const std::string& script)
        : ScriptRun(script, vit::testing::state_with(vit::testing::shaped_trace(3, 2))) {}
    ScriptRun(const std::string& script, AppState state) : s(std::move(state)) {
        ScriptRunner r(app::parse_script(script, "s.txt"));
        for (int frame = 0; frame < 1000 && !r.finished(); ++frame) {
            std::vector<session::Request> out;
            r.step(s, out);
            for (auto& a : out) {
                if (const auto* action = std::get_if<session::Action>(&a)) session::apply(s, *action);
                actions.push_back(a);
                frame_of.push_back(frame);
            }
        }
        EXPECT_TRUE(r.finished());
        error = r.error();
    }
    template <class A>
    const A& only() const {
        EXPECT_EQ(actions.size(), 1u) << "actions emitted";
        EXPECT_FALSE(actions.empty());
        const A* a = actions.empty() ? nullptr : as_if<A>(actions.front());
        EXPECT_NE(a, nullptr) << "the action is another kind";
        static const A none{};
        return a ? *a : none;
    }
};

TEST(ParseScriptTest, EveryVerbCommentsAndBlankLines) {
    const std::string text =
        "# a comment line\n"
        "wait\n"
        "\n"
        "frames 3   # trailing comment\n"
        "select 5,7\n"
        "select cls\n"
        "layer 2\n"
        "head 1\n"
        "mean\n"
        "toggle-head 0\n"
        "pin 1,1\n"
        "pin none\n"
        "temperature 2.5\n"
        "tab whatifs\n"
        "style colormap=magma scale=log\n"
        "open-image /photos/my dog.jpg  \n"
        "open-model /models/tiny\n"
        "screenshot\n"
        "screenshot out/shot.png\n"
        "export\n"
        "\texport   fig.png\n"
        "quit\n";
    const std::vector<ScriptCommand> c = app::parse_script(text, "s.txt");
    const std::vector<std::pair<std::string, std::string>> expected = {{"wait", ""},
                                                                       {"frames", "3"},
                                                                       {"select", "5,7"},
                                                                       {"select", "cls"},
                                                                       {"layer", "2"},
                                                                       {"head", "1"},
                                                                       {"mean", ""},
                                                                       {"toggle-head", "0"},
                                                                       {"pin", "1,1"},
                                                                       {"pin", "none"},
                                                                       {"temperature", "2.5"},
                                                                       {"tab", "whatifs"},
                                                                       {"style", "colormap=magma scale=log"},
                                                                       {"open-image", "/photos/my dog.jpg"},
                                                                       {"open-model", "/models/tiny"},
                                                                       {"screenshot", ""},
                                                                       {"screenshot", "out/shot.png"},
                                                                       {"export", ""},
                                                                       {"export", "fig.png"},
                                                                       {"quit", ""}};
    ASSERT_EQ(c.size(), expected.size());
    for (size_t i = 0; i < c.size(); ++i) {
        EXPECT_EQ(c[i].verb, expected[i].first) << i;
        EXPECT_EQ(c[i].arg, expected[i].second) << i;
    }
    EXPECT_EQ(c[0].where, "s.txt:2");  // lines count from 1, comments and blanks included
    EXPECT_EQ(c[1].where, "s.txt:4");
    EXPECT_EQ(c.back().where, "s.txt:22");
}

TEST(ParseScriptTest, AnEmptyScriptHasNoCommands) {
    EXPECT_TRUE(app::parse_script("", "s.txt").empty());
    EXPECT_TRUE(app::parse_script("# nothing\n\n   \n", "s.txt").empty());
}

TEST(ParseScriptTest, BadLinesAreNamed) {
    EXPECT_EQ(error_of_parse("wait\nzoom 3\n"), "s.txt:2: unknown command 'zoom'");
    EXPECT_EQ(error_of_parse("wait\n\nlayer\n"), "s.txt:3: layer needs an argument");
    EXPECT_EQ(error_of_parse("frames # three\n"), "s.txt:1: frames needs an argument");
    EXPECT_EQ(error_of_parse("Wait\n"), "s.txt:1: unknown command 'Wait'");  // verbs are lower case
    for (const char* verb : {"frames", "select", "layer", "head", "toggle-head", "pin", "temperature", "tab", "style",
                             "open-image", "open-model"})
        EXPECT_EQ(error_of_parse(std::string("\n") + verb + "   \n"),
                  std::string("s.txt:2: ") + verb + " needs an argument");
}

TEST(ScriptRunnerTest, SelectAndPinAPatchOrCls) {
    ScriptRun r("select 2,1\npin 0,2\npin none\nselect cls\n");
    ASSERT_EQ(r.actions.size(), 4u);
    EXPECT_EQ(as<act::SelectQuery>(r.actions[0]).token, 1 + 2 * 3 + 1);
    EXPECT_EQ(as<act::PinKey>(r.actions[1]).token, 1 + 0 * 3 + 2);
    EXPECT_EQ(as<act::PinKey>(r.actions[2]).token, -1);
    EXPECT_EQ(as<act::SelectQuery>(r.actions[3]).token, 0);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.s.sel.query, 0);
    EXPECT_EQ(r.s.sel.pinned_key, -1);
}

TEST(ScriptRunnerTest, LayerHeadToggleAndMean) {
    ScriptRun r("layer 1\nhead 1\ntoggle-head 0\nmean\n");
    ASSERT_EQ(r.actions.size(), 4u);
    EXPECT_EQ(as<act::SetLayer>(r.actions[0]).layer, 1);
    EXPECT_EQ(as<act::SetHead>(r.actions[1]).head, 1);
    EXPECT_EQ(as<act::ToggleHeadVisible>(r.actions[2]).head, 0);
    EXPECT_EQ(as<act::SetMapSource>(r.actions[3]).source, session::MapSource::MeanOfVisible);
    EXPECT_EQ(r.s.sel.visible_heads(), std::vector<int>{1});
}

TEST(ScriptRunnerTest, TemperatureTabAndStyle) {
    ScriptRun r(
        "temperature 2.5\ntab whatifs\nstyle colormap=turbo scale=absolute opacity=0.25 fade=off smooth=on grid=off\n");
    ASSERT_EQ(r.actions.size(), 3u);
    EXPECT_FLOAT_EQ(as<act::SetTemperature>(r.actions[0]).temperature, 2.5f);
    EXPECT_EQ(as<act::ShowTab>(r.actions[1]).tab, AppState::Tab::WhatIfs);
    const gfx::OverlayStyle& st = as<act::SetStyle>(r.actions[2]).style;
    EXPECT_EQ(st.colormap, gfx::Colormap::Turbo);
    EXPECT_EQ(st.normalization, gfx::Normalization::Absolute);
    EXPECT_FLOAT_EQ(st.opacity, 0.25f);
    EXPECT_FALSE(st.fade);
    EXPECT_TRUE(st.bilinear);
    EXPECT_FALSE(st.show_grid);
}

TEST(ScriptRunnerTest, StyleChangesOnlyWhatItNames) {
    AppState s = vit::testing::state_with(vit::testing::shaped_trace(3, 2));
    s.style.colormap = gfx::Colormap::Magma;
    s.style.opacity = 0.4f;
    ScriptRun r("style scale=log opacity=9\n", std::move(s));
    const gfx::OverlayStyle& st = r.only<act::SetStyle>().style;
    EXPECT_EQ(st.colormap, gfx::Colormap::Magma);
    EXPECT_EQ(st.normalization, gfx::Normalization::Log);
    EXPECT_FLOAT_EQ(st.opacity, 1.f);  // clamped
}

TEST(ScriptRunnerTest, FilesScreenshotsExportAndQuit) {
    ScriptRun r("open-image /p/cat.png\nopen-model /m\nscreenshot\nscreenshot a.png\nexport f.png\nquit\n");
    ASSERT_EQ(r.actions.size(), 6u);
    EXPECT_EQ(as<cmd::OpenImage>(r.actions[0]).path, "/p/cat.png");
    EXPECT_EQ(as<cmd::OpenModel>(r.actions[1]).dir, "/m");
    EXPECT_EQ(as<cmd::Screenshot>(r.actions[2]).path, "");
    EXPECT_EQ(as<cmd::Screenshot>(r.actions[3]).path, "a.png");
    EXPECT_EQ(as<cmd::ExportFigure>(r.actions[4]).path, "f.png");
    EXPECT_TRUE(is<cmd::Quit>(r.actions[5]));
    // Opening waits for the worker, then 2 frames; a screenshot or export lets 1 frame pass.
    EXPECT_EQ(r.frame_of[1] - r.frame_of[0], 3);
    EXPECT_EQ(r.frame_of[2] - r.frame_of[1], 3);
    EXPECT_EQ(r.frame_of[3] - r.frame_of[2], 2);
    EXPECT_EQ(r.frame_of[5] - r.frame_of[4], 2);
}

TEST(ScriptRunnerTest, FramesAndWaitLetFramesPass) {
    ScriptRun r("frames 3\nlayer 1\nwait\nlayer 0\n");
    ASSERT_EQ(r.actions.size(), 2u);
    EXPECT_EQ(r.frame_of[0], 4);                  // frames 3 read on frame 0, then 1, 2, 3 pass
    EXPECT_EQ(r.frame_of[1] - r.frame_of[0], 4);  // wait read, its 2 frames, then layer 0
}

TEST(ScriptRunnerTest, WaitHoldsWhileTheWorkerIsBusy) {
    AppState busy = vit::testing::state_with(vit::testing::shaped_trace(3, 2));
    busy.work.busy = true;
    ScriptRunner r(app::parse_script("wait\nquit\n", "s.txt"));
    std::vector<session::Request> out;
    for (int i = 0; i < 50; ++i) r.step(busy, out);
    EXPECT_TRUE(out.empty());
    EXPECT_FALSE(r.finished());
    busy.work.busy = false;  // done: 2 more frames, then quit
    for (int i = 0; i < 3; ++i) r.step(busy, out);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(is<cmd::Quit>(out[0]));
    EXPECT_TRUE(r.finished());
    EXPECT_EQ(r.error(), "");
}

TEST(ScriptRunnerTest, AnErrorFromTheWorkerEndsTheWait) {
    AppState failed;  // nothing loaded, the photo refused
    failed.last_error = "dog.jpg: damaged JPEG";
    ScriptRunner r(app::parse_script("wait\nscreenshot\n", "s.txt"));
    std::vector<session::Request> out;
    for (int i = 0; i < 5 && !r.finished(); ++i) r.step(failed, out);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(is<cmd::Screenshot>(out[0]));
}

TEST(ScriptRunnerTest, AStuckWorkerTimesOut) {
    AppState stuck;
    stuck.work.busy = true;
    ScriptRunner r(app::parse_script("wait\nquit\n", "s.txt"));
    std::vector<session::Request> out;
    for (int i = 0; i < 30000 && !r.finished(); ++i) r.step(stuck, out);
    EXPECT_TRUE(r.finished());
    EXPECT_EQ(r.error(), "timed out waiting for the model");
    EXPECT_TRUE(out.empty());  // quit never ran
}

TEST(ScriptRunnerTest, BadArgumentsNameTheLineAndStopTheScript) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"select 3,0", "s.txt:2: patch 3,0 is outside the 3 x 3 grid"},
        {"select 5;7", "s.txt:2: select expects ROW,COL or cls, got '5;7'"},
        {"pin -1,0", "s.txt:2: pin expects ROW,COL or cls, got '-1,0'"},
        {"layer 2", "s.txt:2: layer 2 is out of range"},
        {"layer -1", "s.txt:2: layer -1 is out of range"},
        {"layer one", "s.txt:2: layer expects a whole number, got 'one'"},
        {"head 2", "s.txt:2: head 2 is out of range"},
        {"toggle-head 9", "s.txt:2: head 9 is out of range"},
        {"frames 3.5", "s.txt:2: frames expects a whole number, got '3.5'"},
        {"temperature warm", "s.txt:2: temperature expects a number, got 'warm'"},
        {"temperature nan", "s.txt:2: temperature expects a number, got 'nan'"},
        {"temperature 2x", "s.txt:2: temperature expects a number, got '2x'"},
        {"tab maths", "s.txt:2: tab is math, whatifs or questions"},
        {"style opacity=half", "s.txt:2: opacity expects a number, got 'half'"},
        {"style fade=maybe", "s.txt:2: fade is on or off"},
        {"style colormap=jet",
         "s.txt:2: style colormap=jet is not colormap=, scale=, opacity=, fade=, smooth= or grid="},
        {"style size=3", "s.txt:2: style size=3 is not colormap=, scale=, opacity=, fade=, smooth= or grid="},
    };
    for (const auto& [line, message] : cases) {
        ScriptRun r("layer 1\n" + line + "\nquit\n");
        EXPECT_EQ(r.error, message) << line;
        EXPECT_EQ(r.actions.size(), 1u) << line << ": the line before runs, the one after does not";
    }
}

// An export-question's figure is drawn frames later: when it fails then, that
// command is the script's error (exit 2), even after later commands were taken.
TEST(ScriptRunnerTest, AnExportQuestionThatFailsLaterEndsTheScript) {
    AppState s = vit::testing::state_with(vit::testing::shaped_trace(3, 2));
    ScriptRunner r(app::parse_script("export-question a.png\nlayer 1\nlayer 0\nquit\n", "s.txt"));
    std::vector<session::Request> out;
    for (int frame = 0; frame < 100 && out.size() < 2; ++frame) r.step(s, out);  // export-question, then layer 1
    ASSERT_EQ(out.size(), 2u);
    r.writer_failed("not this one");  // the last command writes nothing: not a script error
    EXPECT_EQ(r.error(), "");
    r.figure_failed("Figure not saved: disk full");
    EXPECT_EQ(r.error(), "s.txt:1: export-question: Figure not saved: disk full");
    EXPECT_TRUE(r.finished());
    const size_t taken = out.size();
    r.step(s, out);
    EXPECT_EQ(out.size(), taken) << "nothing after the failure runs";
}

TEST(ScriptRunnerTest, SelectWithoutAPhotoIsAnError) {
    const AppState nothing_loaded;
    ScriptRun r("select 1,1\n", nothing_loaded);
    EXPECT_EQ(r.error, "s.txt:1: select needs a model run on a photo");
    EXPECT_TRUE(r.actions.empty());
}

// parse_cli's argv from a list of words.
app::CliArgs cli(std::vector<std::string> words) {
    words.insert(words.begin(), "vitscope");
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    return app::parse_cli(static_cast<int>(argv.size()), argv.data());
}

TEST(ScriptFromCliTest, OptionsBecomeCommandsInOrder) {
    vit::testing::ScratchDir dir("script");
    std::ofstream(dir.file("s.txt")) << "mean\n# two\ntab whatifs\n";
    const auto c = app::script_from_cli(cli({"dog.jpg", "--quit", "--screenshot", "out.png", "--script",
                                             dir.file("s.txt"), "--select", "5,7", "--head", "1", "--layer", "8"}));
    std::vector<std::string> got;
    for (const auto& x : c) got.push_back(x.verb + " " + x.arg + " @" + x.where);
    const std::vector<std::string> expected = {"wait  @startup",
                                               "layer 8 @--layer",
                                               "head 1 @--head",
                                               "select 5,7 @--select",
                                               "mean  @" + dir.file("s.txt") + ":1",
                                               "tab whatifs @" + dir.file("s.txt") + ":3",
                                               "frames 3 @--screenshot",
                                               "screenshot out.png @--screenshot",
                                               "quit  @--quit"};
    EXPECT_EQ(got, expected);
}

TEST(ScriptFromCliTest, MeanHeadsIsTheMeanVerb) {
    const auto c = app::script_from_cli(cli({"dog.jpg", "--mean-heads", "--layer", "3"}));
    std::vector<std::string> got;
    for (const auto& x : c) got.push_back(x.verb + " @" + x.where);
    EXPECT_EQ(got, (std::vector<std::string>{"wait @startup", "layer @--layer", "mean @--mean-heads"}));
    try {
        app::script_from_cli(cli({"dog.jpg", "--mean-heads", "--head", "1"}));
        ADD_FAILURE() << "no error";
    } catch (const vit::Error& e) {
        EXPECT_EQ(std::string(e.what()), "give one of --head H or --mean-heads");
    }
}

TEST(ScriptFromCliTest, NoScriptingOptionsNoCommands) {
    EXPECT_TRUE(app::script_from_cli(cli({"dog.jpg", "--no-settings", "--model", "/m"})).empty());
}

TEST(ScriptFromCliTest, AMissingOrBadScriptFileIsRefused) {
    vit::testing::ScratchDir dir("script");
    try {
        app::script_from_cli(cli({"--script", dir.file("none.txt")}));
        ADD_FAILURE() << "no error";
    } catch (const vit::Error& e) {
        EXPECT_EQ(std::string(e.what()), dir.file("none.txt") + ": not found");
    }
    // Bounded before use: not a regular file (a FIFO would block), a line over 4,096 bytes.
    ASSERT_EQ(::mkfifo(dir.file("fifo.txt").c_str(), 0600), 0);
    try {
        app::script_from_cli(cli({"--script", dir.file("fifo.txt")}));
        ADD_FAILURE() << "no error";
    } catch (const vit::Error& e) {
        EXPECT_EQ(std::string(e.what()), dir.file("fifo.txt") + ": is not a regular file");
    }
    std::ofstream(dir.file("long.txt")) << "wait\nscreenshot " << std::string(5000, 'x') << "\n";
    try {
        app::script_from_cli(cli({"--script", dir.file("long.txt")}));
        ADD_FAILURE() << "no error";
    } catch (const vit::Error& e) {
        EXPECT_NE(std::string(e.what()).find(dir.file("long.txt") + ":2: the line is 5011 bytes"), std::string::npos)
            << e.what();
    }
    std::ofstream(dir.file("bom.txt")) << "\xEF\xBB\xBFwait\nquit\n";
    EXPECT_EQ(app::script_from_cli(cli({"--script", dir.file("bom.txt")})).size(), 3u);  // startup wait, wait, quit
    std::ofstream(dir.file("bad.txt")) << "wait\nfly\n";
    try {
        app::script_from_cli(cli({"--script", dir.file("bad.txt")}));
        ADD_FAILURE() << "no error";
    } catch (const vit::Error& e) {
        EXPECT_EQ(std::string(e.what()), dir.file("bad.txt") + ":2: unknown command 'fly'");
    }
}

}  // namespace
