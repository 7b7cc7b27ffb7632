// session::apply, adopt, state_json and selection_slug on hand-made traces:
// every state-only action and its clamping, the window's actions left to the
// window, what a new model or photo keeps of the selection.
#include <cctype>
#include <limits>
#include <memory>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "session/dispatch/requests.h"
#include "session/state/app_state.h"
#include "session/dispatch/state_file.h"
#include "session/tour/tour_show.h"
#include "support/synthetic_session.h"
#include "session/core/core_names.h"
#include "session/dispatch/adopt.h"

namespace {

using session::AppState;
using session::MapSource;
using vit::testing::shaped_trace;
using vit::testing::state_with;
namespace act = session::act;

// 3 x 3 grid plus CLS (tokens 0..9), 2 layers of 2 heads.
class ApplyTest : public ::testing::Test {
protected:
    AppState s = state_with(shaped_trace(3, 2));
    int token(int r, int c) const { return s.trace()->token_of(r, c); }
};

TEST_F(ApplyTest, SelectQueryClampsToTheTokens) {
    session::apply(s, act::SelectQuery{4});
    EXPECT_EQ(s.sel.query, 4);
    session::apply(s, act::SelectQuery{-3});
    EXPECT_EQ(s.sel.query, 0);
    session::apply(s, act::SelectQuery{1000});
    EXPECT_EQ(s.sel.query, 9);
}

TEST_F(ApplyTest, ClassroomModeAndItsMathStep) {
    session::apply(s, act::SetClassroom{true});
    EXPECT_TRUE(s.classroom);
    EXPECT_EQ(s.math_step, 1);
    session::apply(s, act::SetMathStep{5});
    EXPECT_EQ(s.math_step, 5);
    session::apply(s, act::SetMathStep{session::kMathSteps + 3});
    EXPECT_EQ(s.math_step, session::kMathSteps);
    session::apply(s, act::SetMathStep{0});
    EXPECT_EQ(s.math_step, 1);
    session::apply(s, act::SetClassroom{false});
    EXPECT_FALSE(s.classroom);
}

TEST_F(ApplyTest, ThemeAndItsNames) {
    EXPECT_EQ(s.theme, AppState::Theme::Dark);
    session::apply(s, act::SetTheme{AppState::Theme::Light});
    EXPECT_EQ(s.theme, AppState::Theme::Light);
    EXPECT_EQ(session::theme_from_name("light"), AppState::Theme::Light);
    EXPECT_EQ(session::theme_from_name("dark"), AppState::Theme::Dark);
    EXPECT_EQ(session::theme_from_name("Light"), std::nullopt);
    EXPECT_STREQ(session::theme_name(AppState::Theme::Light), "light");
    EXPECT_EQ(session::math_step_number("scale"), 4);
    EXPECT_EQ(session::math_step_number("output"), session::kMathSteps);
    EXPECT_EQ(session::math_step_number("scaling"), 0);
}

TEST_F(ApplyTest, SelectQueryWithoutATraceIsCls) {
    AppState empty;
    session::apply(empty, act::SelectQuery{5});
    EXPECT_EQ(empty.sel.query, 0);
}

TEST_F(ApplyTest, MoveQueryFromClsLandsOnTheCentrePatch) {
    ASSERT_EQ(s.sel.query, 0);
    session::apply(s, act::MoveQuery{0, -1});  // whichever arrow
    EXPECT_EQ(s.sel.query, token(1, 1));
}

TEST_F(ApplyTest, MoveQueryStepsAndStopsAtTheEdges) {
    session::apply(s, act::SelectQuery{token(1, 1)});
    session::apply(s, act::MoveQuery{0, 1});
    EXPECT_EQ(s.sel.query, token(1, 2));
    session::apply(s, act::MoveQuery{0, 1});  // right edge
    EXPECT_EQ(s.sel.query, token(1, 2));
    session::apply(s, act::MoveQuery{1, 0});
    session::apply(s, act::MoveQuery{1, 0});  // bottom edge
    EXPECT_EQ(s.sel.query, token(2, 2));
    session::apply(s, act::MoveQuery{-5, -5});  // clamps per axis to the top-left patch
    EXPECT_EQ(s.sel.query, token(0, 0));
    session::apply(s, act::MoveQuery{-1, 0});
    EXPECT_EQ(s.sel.query, token(0, 0));
}

TEST_F(ApplyTest, MoveQueryFromARegisterLandsOnTheCentre) {
    AppState r = state_with(shaped_trace(4, 2, 1, /*prefix=*/5));  // CLS + 4 registers
    session::apply(r, act::SelectQuery{3});
    session::apply(r, act::MoveQuery{1, 0});
    EXPECT_EQ(r.sel.query, r.trace()->token_of(2, 2));
}

TEST_F(ApplyTest, MoveQueryWithoutATraceDoesNothing) {
    AppState empty;
    empty.sel.query = 3;
    session::apply(empty, act::MoveQuery{1, 1});
    EXPECT_EQ(empty.sel.query, 3);
}

TEST_F(ApplyTest, LayerIsClampedAndStepped) {
    session::apply(s, act::SetLayer{1});
    EXPECT_EQ(s.sel.layer, 1);
    session::apply(s, act::SetLayer{7});
    EXPECT_EQ(s.sel.layer, 1);
    session::apply(s, act::SetLayer{-2});
    EXPECT_EQ(s.sel.layer, 0);
    session::apply(s, act::StepLayer{1});
    EXPECT_EQ(s.sel.layer, 1);
    session::apply(s, act::StepLayer{1});
    EXPECT_EQ(s.sel.layer, 1);
    session::apply(s, act::StepLayer{-10});
    EXPECT_EQ(s.sel.layer, 0);
}

TEST_F(ApplyTest, LayerWithoutATraceStaysPut) {
    AppState empty;
    session::apply(empty, act::SetLayer{3});
    session::apply(empty, act::StepLayer{1});
    EXPECT_EQ(empty.sel.layer, 0);
}

TEST_F(ApplyTest, SetHeadClampsAndShowsThatHead) {
    session::apply(s, act::SetMapSource{MapSource::MeanOfVisible});
    ASSERT_EQ(s.sel.source, MapSource::MeanOfVisible);
    session::apply(s, act::SetHead{1});
    EXPECT_EQ(s.sel.head, 1);
    EXPECT_EQ(s.sel.source, MapSource::Head);
    session::apply(s, act::SetHead{5});
    EXPECT_EQ(s.sel.head, 1);
    session::apply(s, act::SetHead{-1});
    EXPECT_EQ(s.sel.head, 0);
}

TEST_F(ApplyTest, ToggleHeadVisibleFlipsOneHeadAndIgnoresOthers) {
    ASSERT_EQ(s.sel.head_visible, (std::vector<bool>{true, true}));
    session::apply(s, act::ToggleHeadVisible{1});
    EXPECT_EQ(s.sel.head_visible, (std::vector<bool>{true, false}));
    EXPECT_EQ(s.sel.visible_heads(), (std::vector<int>{0}));
    session::apply(s, act::ToggleHeadVisible{2});
    session::apply(s, act::ToggleHeadVisible{-1});
    EXPECT_EQ(s.sel.head_visible, (std::vector<bool>{true, false}));
    session::apply(s, act::ToggleHeadVisible{1});
    EXPECT_EQ(s.sel.head_visible, (std::vector<bool>{true, true}));
}

TEST_F(ApplyTest, HoverKeyClampsAndNegativeMeansNone) {
    session::apply(s, act::HoverKey{6});
    EXPECT_EQ(s.sel.hovered_key, 6);
    session::apply(s, act::HoverKey{50});
    EXPECT_EQ(s.sel.hovered_key, 9);
    session::apply(s, act::HoverKey{-7});
    EXPECT_EQ(s.sel.hovered_key, -1);
}

TEST_F(ApplyTest, AHoverLastsWhileReportedAndRepeatsAreSkipped) {
    const auto frame = [&](std::vector<session::Request> requests) {
        return session::handle_frame(s, requests).changed;
    };
    EXPECT_TRUE(frame({act::HoverKey{4}, act::SetLayer{1}}));
    EXPECT_EQ(s.sel.hovered_key, 4);
    EXPECT_EQ(s.sel.layer, 1);
    EXPECT_FALSE(frame({act::HoverKey{4}}));  // still hovered: nothing to do
    EXPECT_EQ(s.sel.hovered_key, 4);
    EXPECT_TRUE(frame({act::SetHead{1}}));  // nobody reports a hover: released, after the frame's own actions
    EXPECT_EQ(s.sel.head, 1);
    EXPECT_EQ(s.sel.hovered_key, -1);
    EXPECT_FALSE(frame({}));  // nothing hovered, nothing reported
}

TEST_F(ApplyTest, PinKeyTogglesAndWinsOverHover) {
    session::apply(s, act::HoverKey{2});
    session::apply(s, act::PinKey{5});
    EXPECT_EQ(s.sel.pinned_key, 5);
    session::apply(s, act::PinKey{5});  // the same key again unpins
    EXPECT_EQ(s.sel.pinned_key, -1);
    EXPECT_EQ(s.sel.hovered_key, 2);
    session::apply(s, act::PinKey{5});
    session::apply(s, act::PinKey{7});  // another key moves the pin
    EXPECT_EQ(s.sel.pinned_key, 7);
    session::apply(s, act::PinKey{-1});
    EXPECT_EQ(s.sel.pinned_key, -1);
    session::apply(s, act::PinKey{99});
    EXPECT_EQ(s.sel.pinned_key, 9);
}

TEST_F(ApplyTest, TemperatureIsClampedToItsRange) {
    session::apply(s, act::SetTemperature{2.5f});
    EXPECT_FLOAT_EQ(s.temperature, 2.5f);
    session::apply(s, act::SetTemperature{0.f});
    EXPECT_FLOAT_EQ(s.temperature, 0.01f);
    session::apply(s, act::SetTemperature{-3.f});
    EXPECT_FLOAT_EQ(s.temperature, 0.01f);
    session::apply(s, act::SetTemperature{1e6f});
    EXPECT_FLOAT_EQ(s.temperature, 100.f);
}

TEST_F(ApplyTest, TemperatureThatIsNotANumberIsIgnored) {
    session::apply(s, act::SetTemperature{2.f});
    session::apply(s, act::SetTemperature{std::numeric_limits<float>::quiet_NaN()});
    EXPECT_FLOAT_EQ(s.temperature, 2.f);
}

TEST_F(ApplyTest, StyleErrorViewHelpAndTab) {
    gfx::OverlayStyle style;
    style.colormap = gfx::Colormap::Magma;
    style.opacity = 0.3f;
    session::apply(s, act::SetStyle{style});
    EXPECT_EQ(s.style.colormap, gfx::Colormap::Magma);
    EXPECT_FLOAT_EQ(s.style.opacity, 0.3f);

    s.last_error = "boom";
    session::apply(s, act::DismissError{});
    EXPECT_TRUE(s.last_error.empty());

    session::apply(s, act::ShowHelp{true});
    EXPECT_TRUE(s.show_help);
    session::apply(s, act::ShowTab{AppState::Tab::WhatIfs});
    EXPECT_EQ(s.tab, AppState::Tab::WhatIfs);
}

TEST_F(ApplyTest, OpeningTheBrowserClosesHelp) {
    s.browser.dir = "/photos";
    session::apply(s, act::ShowHelp{true});
    session::apply(s, act::OpenBrowser{session::BrowserState::Mode::OpenImage, ""});
    EXPECT_EQ(s.browser.mode, session::BrowserState::Mode::OpenImage);
    EXPECT_EQ(s.browser.dir, "/photos");  // no folder given: the last one
    EXPECT_FALSE(s.show_help);

    session::apply(s, act::ShowHelp{true});
    session::apply(s, act::OpenBrowser{session::BrowserState::Mode::Closed, "/models"});
    EXPECT_EQ(s.browser.mode, session::BrowserState::Mode::Closed);
    EXPECT_EQ(s.browser.dir, "/models");
    EXPECT_TRUE(s.show_help);  // closing the browser leaves help as it was
}

TEST_F(ApplyTest, TheWindowsCommandsAreHandedBackInOrderAndChangeNothing) {
    namespace cmd = session::cmd;
    const std::string before = session::state_json(s);
    const session::FrameOutcome out =
        session::handle_frame(s, {cmd::OpenImage{"x.jpg"}, act::SetLayer{1}, cmd::Screenshot{""},
                                  cmd::ExportFigure{"f.png"}, cmd::Quit{}});
    ASSERT_EQ(out.commands.size(), 4u);
    EXPECT_EQ(std::get<cmd::OpenImage>(out.commands[0]).path, "x.jpg");
    EXPECT_TRUE(std::holds_alternative<cmd::Screenshot>(out.commands[1]));
    EXPECT_EQ(std::get<cmd::ExportFigure>(out.commands[2]).path, "f.png");
    EXPECT_TRUE(std::holds_alternative<cmd::Quit>(out.commands[3]));
    EXPECT_FALSE(s.quit);
    EXPECT_EQ(s.sel.layer, 1);  // the frame's action was applied
    session::apply(s, act::SetLayer{0});
    EXPECT_EQ(session::state_json(s), before);  // and the commands changed nothing
}

// adopt: what a new model or photo keeps of the selection.
TEST(AdoptTest, FirstSetStartsOnClsWithEveryHeadVisible) {
    AppState s;
    session::adopt(s, vit::testing::loaded_with(shaped_trace(3, 4)));
    EXPECT_EQ(s.sel.query, 0);
    EXPECT_EQ(s.sel.head_visible, std::vector<bool>(4, true));
    EXPECT_DOUBLE_EQ(s.last_forward_seconds, 0.25);
}

TEST(AdoptTest, SameGridKeepsThePatchEvenWhenThePrefixChanges) {
    AppState s = state_with(shaped_trace(3, 2));
    session::apply(s, act::SelectQuery{s.trace()->token_of(2, 1)});
    session::adopt(s, vit::testing::loaded_with(shaped_trace(3, 2, 2, /*prefix=*/5)));
    EXPECT_EQ(s.trace()->row_of(s.sel.query), 2);
    EXPECT_EQ(s.trace()->col_of(s.sel.query), 1);
    EXPECT_EQ(s.sel.query, 5 + 2 * 3 + 1);
}

TEST(AdoptTest, ClsStaysClsWhenTheGridChanges) {
    AppState s = state_with(shaped_trace(3, 2));
    ASSERT_EQ(s.sel.query, 0);
    session::adopt(s, vit::testing::loaded_with(shaped_trace(5, 2)));
    EXPECT_EQ(s.sel.query, 0);
}

TEST(AdoptTest, APatchGoesToTheCentreWhenTheGridChanges) {
    AppState s = state_with(shaped_trace(3, 2));
    session::apply(s, act::SelectQuery{s.trace()->token_of(0, 2)});
    session::adopt(s, vit::testing::loaded_with(shaped_trace(5, 2)));
    EXPECT_EQ(s.sel.query, s.trace()->token_of(2, 2));
}

TEST(AdoptTest, ARegisterBeyondTheNewPrefixBecomesItsLastPrefixToken) {
    AppState s = state_with(shaped_trace(3, 2, 2, /*prefix=*/5));
    session::apply(s, act::SelectQuery{4});
    session::adopt(s, vit::testing::loaded_with(shaped_trace(4, 2, 2, /*prefix=*/2)));
    EXPECT_EQ(s.sel.query, 1);
}

TEST(AdoptTest, LayerAndHeadAreClampedToTheNewModel) {
    AppState s = state_with(shaped_trace(3, 4, /*layers=*/6));
    session::apply(s, act::SetLayer{5});
    session::apply(s, act::SetHead{3});
    session::adopt(s, vit::testing::loaded_with(shaped_trace(3, 2, /*layers=*/2)));
    EXPECT_EQ(s.sel.layer, 1);
    EXPECT_EQ(s.sel.head, 1);
}

TEST(AdoptTest, HeadVisibilityIsKeptUnlessTheHeadCountChanges) {
    AppState s = state_with(shaped_trace(3, 3));
    session::apply(s, act::ToggleHeadVisible{1});
    session::adopt(s, vit::testing::loaded_with(shaped_trace(4, 3)));
    EXPECT_EQ(s.sel.head_visible, (std::vector<bool>{true, false, true}));
    session::adopt(s, vit::testing::loaded_with(shaped_trace(4, 6)));
    EXPECT_EQ(s.sel.head_visible, std::vector<bool>(6, true));
}

TEST(AdoptTest, HoverIsDroppedAndThePinStaysOnItsPatchWhileTheGridMatches) {
    AppState s = state_with(shaped_trace(3, 2, 2, /*prefix=*/5));  // tokens 0..13
    session::apply(s, act::HoverKey{3});
    session::apply(s, act::PinKey{s.trace()->token_of(2, 1)});
    session::adopt(s, vit::testing::loaded_with(shaped_trace(3, 2, 2, /*prefix=*/1)));  // no registers
    EXPECT_EQ(s.sel.hovered_key, -1);
    EXPECT_EQ(s.sel.pinned_key, s.trace()->token_of(2, 1));  // the same patch, another token index

    session::apply(s, act::PinKey{0});
    session::adopt(s, vit::testing::loaded_with(shaped_trace(3, 2, 2, 5)));
    EXPECT_EQ(s.sel.pinned_key, 0);  // CLS is in every prefix

    session::apply(s, act::PinKey{4});  // a register
    session::adopt(s, vit::testing::loaded_with(shaped_trace(3, 2, 2, /*prefix=*/1)));
    EXPECT_EQ(s.sel.pinned_key, -1);  // no such register now

    session::apply(s, act::PinKey{2});
    session::adopt(s, vit::testing::loaded_with(shaped_trace(4, 2)));  // another grid
    EXPECT_EQ(s.sel.pinned_key, -1);
}

TEST(AdoptTest, ASetWithoutATraceLeavesTheSelectionAlone) {
    AppState s = state_with(shaped_trace(3, 2));
    session::apply(s, act::SelectQuery{7});
    session::apply(s, act::SetLayer{1});
    session::Loaded photo_only;
    photo_only.image_path = "cat.png";
    session::adopt(s, photo_only);
    EXPECT_FALSE(s.loaded.ready());
    EXPECT_EQ(s.loaded.image_path, "cat.png");
    EXPECT_EQ(s.sel.query, 7);
    EXPECT_EQ(s.sel.layer, 1);
}

TEST(StateJsonTest, ReportsTheSelectionAndTheWindow) {
    AppState s = state_with(shaped_trace(3, 2));
    auto image = std::make_shared<vit::Image>();
    image->width = 640, image->height = 480;
    s.loaded.image = image;
    s.loaded.model_dir = "/models/tiny";
    s.loaded.crop = {80, 0, 480, 480};
    session::apply(s, act::SetLayer{1});
    session::apply(s, act::SetHead{1});
    session::apply(s, act::ToggleHeadVisible{0});
    session::apply(s, act::SetMapSource{MapSource::MeanOfVisible});
    session::apply(s, act::SelectQuery{s.trace()->token_of(2, 0)});
    session::apply(s, act::PinKey{4});
    session::apply(s, act::SetTemperature{3.f});
    session::apply(s, act::ShowTab{AppState::Tab::WhatIfs});
    session::apply(s, act::OpenBrowser{session::BrowserState::Mode::OpenModel, "/m"});
    s.last_error = "bad photo";
    s.text_input = true;
    session::apply(s, act::SetTheme{AppState::Theme::Light});
    session::DrawnReport drawn;  // the window's report of its last frame
    drawn.image_view = {1, 2, 3, 4};
    drawn.clipped_text = {"cut at the side · Photo · quadratic?"};

    const auto j = nlohmann::json::parse(session::state_json(s, drawn));
    EXPECT_EQ(j["theme"], "light");
    EXPECT_EQ(j["clipped_text"], nlohmann::json::array({"cut at the side · Photo · quadratic?"}));
    EXPECT_EQ(j["layer"], 1);
    EXPECT_EQ(j["head"], 1);
    EXPECT_EQ(j["visible_heads"], nlohmann::json::array({1}));
    EXPECT_EQ(j["map"], "mean");
    EXPECT_EQ(j["query"], 7);
    EXPECT_EQ(j["row"], 2);
    EXPECT_EQ(j["col"], 0);
    EXPECT_EQ(j["pinned_key"], 4);
    EXPECT_EQ(j["image"], "photos/dog.jpg");
    EXPECT_EQ(j["model"], "/models/tiny");
    EXPECT_EQ(j["last_error"], "bad photo");
    EXPECT_EQ(j["busy"], false);
    EXPECT_EQ(j["ready"], true);
    EXPECT_EQ(j["grid"], 3);
    EXPECT_EQ(j["tokens"], 10);
    EXPECT_EQ(j["photo_size"], nlohmann::json::array({640, 480}));
    EXPECT_EQ(j["crop"], nlohmann::json::array({80.0, 0.0, 480.0, 480.0}));
    EXPECT_EQ(j["image_view"], nlohmann::json::array({1.0, 2.0, 3.0, 4.0}));
    EXPECT_FLOAT_EQ(j["temperature"].get<float>(), 3.f);
    EXPECT_EQ(j["tab"], "whatifs");
    EXPECT_EQ(j["help"], false);
    EXPECT_EQ(j["text_input"], true);
    EXPECT_EQ(j["browser"], "model");

    s.work.busy = true;  // a job running: the trace shown is not the one asked for yet
    const auto busy = nlohmann::json::parse(session::state_json(s));
    EXPECT_EQ(busy["busy"], true);
    EXPECT_EQ(busy["ready"], false);
}

TEST(StateJsonTest, NoTraceReportsNoGridAndNoPatch) {
    AppState s;
    const auto j = nlohmann::json::parse(session::state_json(s));
    EXPECT_EQ(j["ready"], false);
    EXPECT_EQ(j["grid"], 0);
    EXPECT_EQ(j["tokens"], 0);
    EXPECT_EQ(j["row"], -1);
    EXPECT_EQ(j["col"], -1);
    EXPECT_EQ(j["map"], "head");
    EXPECT_EQ(j["tab"], "math");
    EXPECT_EQ(j["browser"], "closed");
    EXPECT_EQ(j["photo_size"], nlohmann::json::array({0, 0}));
}

TEST(SelectionSlugTest, PhotoLayerHeadAndPatch) {
    AppState s = state_with(shaped_trace(3, 2), "/home/me/photos/dog.jpg");
    session::apply(s, act::SetLayer{1});
    session::apply(s, act::SetHead{1});
    session::apply(s, act::SelectQuery{s.trace()->token_of(2, 1)});
    EXPECT_EQ(session::selection_slug(s), "dog_L1_H1_r2c1");
}

TEST(SelectionSlugTest, ClsRegistersAndTheMeanOfHeads) {
    AppState s = state_with(shaped_trace(3, 2, 2, /*prefix=*/5), "dog.jpg");
    EXPECT_EQ(session::selection_slug(s), "dog_L0_H0_cls");
    session::apply(s, act::SelectQuery{3});
    session::apply(s, act::SetMapSource{MapSource::MeanOfVisible});
    EXPECT_EQ(session::selection_slug(s), "dog_L0_Hmean_t3");
}

TEST(SelectionSlugTest, OddPhotoNamesGivePortableFileNames) {
    AppState s = state_with(shaped_trace(3, 2), "/tmp/my photo (2)/Ünïcode & co.v2.jpeg");
    const std::string slug = session::selection_slug(s);
    for (char c : slug)
        EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') << slug;
    EXPECT_EQ(slug, "__n__code___co.v2_L0_H0_cls");  // a 2-byte letter becomes two '_'

    EXPECT_EQ(session::selection_slug(state_with(shaped_trace(3, 2), "")), "vitscope_L0_H0_cls");
}

}  // namespace
