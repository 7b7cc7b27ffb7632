// The Learning lab's GUI-free parts (src/session/lab_*): the query square
// found from a sample's pixels, log.csv read strictly, the sentences' claims
// against their baselines (holding and not), the lab's state-only actions,
// and a real run read back with its checkpoints run on a sample.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <type_traits>

#include "session/lab/lab_run.h"
#include "session/lab/lab_state.h"
#include "session/lab/lab_view.h"
#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"
#include "vit/train/checkpoint_io.h"
#include "vit/train/run_folder.h"
#include "vit/train/tasks.h"
#include "vit/train/trainer.h"

namespace fs = std::filesystem;
using namespace session;

namespace {

vit::Image image_of(const vit::train::Sample& s, int side) {
    vit::Image img;
    img.width = img.height = side;
    img.rgb = s.rgb;
    return img;
}

// A trace of n tokens whose query rows are given per head (only sizes and rows matter here).
LabCheckpoint checkpoint_with(int step, const std::vector<std::vector<float>>& rows, int other) {
    auto t = std::make_shared<vit::Trace>();
    t->grid = 8;
    t->tokens = 65;
    LabCheckpoint c;
    c.step = step;
    c.trace = t;
    for (const auto& r : rows) {
        LabHeadRow h;
        h.weights = r;
        for (int j = 0; j < 65; ++j)
            if (r[j] > h.largest) h.largest = r[j], h.largest_token = j;
        h.on_task = r[other];
        c.heads.push_back(h);
    }
    return c;
}

std::vector<float> even_row() { return std::vector<float>(65, 1.f / 65); }

}  // namespace

TEST(LabSquares, EverySampleOfBothTasksHasItsTwoSquaresAndLeftOfStartsWithRed) {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 300; ++i) {
        const bool left_of = i % 2;
        const auto task = left_of ? vit::train::Task::LeftOf : vit::train::Task::SameColour;
        const auto s = vit::train::draw_sample(task, rng, 64, 8);
        const auto squares = find_squares(image_of(s, 64), 8, left_of ? "left_of" : "same_colour");
        ASSERT_EQ(squares.size(), 2u) << "sample " << i;
        EXPECT_NE(squares[0].patch, squares[1].patch);
        if (left_of) {
            EXPECT_EQ(squares[0].rgb[0], 220) << "the red square first";
            // The label says whether red is left of blue: the columns must agree.
            EXPECT_EQ(s.label == 1, squares[0].patch % 8 < squares[1].patch % 8) << "sample " << i;
        } else {
            const bool same = squares[0].rgb[0] == squares[1].rgb[0] && squares[0].rgb[1] == squares[1].rgb[1] &&
                              squares[0].rgb[2] == squares[1].rgb[2];
            EXPECT_EQ(same, s.label == 1) << "sample " << i;
        }
    }
}

TEST(LabRun, LogCsvIsReadStrictly) {
    const auto rows =
        parse_log_csv("step,loss,accuracy,train_loss,checkpoint\n0,0.7,0.5,0,scheduled\n20,0.5,0.75,0.6,fast\n", "log");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1].step, 20);
    EXPECT_DOUBLE_EQ(rows[1].accuracy, 0.75);
    EXPECT_TRUE(rows[1].fast);
    EXPECT_THROW(parse_log_csv("a,b\n0,1,1\n", "log"), vit::Error);
    EXPECT_THROW(parse_log_csv("step,loss,accuracy\n", "log"), vit::Error);
    EXPECT_THROW(parse_log_csv("step,loss,accuracy\n5,1,1\n5,1,1\n", "log"), vit::Error);
    EXPECT_THROW(parse_log_csv("step,loss,accuracy\n0,x,1\n", "log"), vit::Error);
    EXPECT_THROW(parse_log_csv("step,loss,accuracy\n-1,1,1\n", "log"), vit::Error);
}

TEST(LabRun, LogCsvValuesNoRunWritesAreRefusedNamingTheFileAndLine) {
    // A hand-edited log.csv used to show "accuracy nan", -5 and 1e300 in the lab.
    const std::string header = "step,loss,accuracy,train_loss,checkpoint\n0,0.7,0.5,0,scheduled\n";
    const auto log_refusal = [&](const std::string& row) -> std::string {
        try {
            parse_log_csv(header + row + "\n", "run/log.csv");
        } catch (const vit::Error& e) {
            return e.what();
        }
        return {};
    };
    EXPECT_EQ(log_refusal("20,0.5,nan,0.6,scheduled"), "run/log.csv:3: 'nan' is not a number");
    EXPECT_EQ(log_refusal("20,0.5,NaN,0.6,scheduled"), "run/log.csv:3: 'NaN' is not a number");
    EXPECT_EQ(log_refusal("20,inf,0.5,0.6,scheduled"), "run/log.csv:3: 'inf' is not a number");
    EXPECT_EQ(log_refusal("20,0.5,0.5,-infinity,scheduled"), "run/log.csv:3: '-infinity' is not a number");
    EXPECT_EQ(log_refusal("20,1e999,0.5,0.6,scheduled"), "run/log.csv:3: '1e999' is not a number");
    EXPECT_EQ(log_refusal("20,0.5,-5,0.6,scheduled"), "run/log.csv:3: accuracy '-5' is not between 0 and 1");
    EXPECT_EQ(log_refusal("20,0.5,1e300,0.6,scheduled"), "run/log.csv:3: accuracy '1e300' is not between 0 and 1");
    EXPECT_EQ(log_refusal("20,0.5,1.01,0.6,scheduled"), "run/log.csv:3: accuracy '1.01' is not between 0 and 1");
    EXPECT_EQ(log_refusal("20,-5,0.5,0.6,scheduled"), "run/log.csv:3: loss '-5' is not a loss (0 or more)");
    EXPECT_EQ(log_refusal("20,1e300,0.5,0.6,scheduled"), "run/log.csv:3: loss '1e300' is not a loss (0 or more)");
    EXPECT_EQ(log_refusal("20,0.5,0.5,-0.1,scheduled"), "run/log.csv:3: train_loss '-0.1' is not a loss (0 or more)");
    EXPECT_EQ(log_refusal("-5,0.5,0.5,0.6,scheduled"),
              "run/log.csv:3: step '-5' is not a step (a whole number from 0)");
    EXPECT_EQ(log_refusal("0,0.5,0.5,0.6,scheduled"), "run/log.csv:3: step 0 after step 0 (steps must increase)");
    // The edges a real run reaches are taken: accuracy 0 and 1, a loss of 0.
    EXPECT_EQ(log_refusal("20,0,1,0,fast\n40,2.5,0,3,scheduled"), "");
    // A field that would set the terminal's title and clear it is quoted escaped (issue 44).
    EXPECT_EQ(log_refusal("20,\033]0;HACKED\007\033[2J,0.5,0.6,scheduled"),
              "run/log.csv:3: '\\x1b]0;HACKED\\x07\\x1b[2J' is not a number");
}

TEST(LabSentences, ClaimsHoldOnlyAgainstTheirBaselines) {
    const int other = 30;
    const LabCheckpoint first = checkpoint_with(0, {even_row(), even_row()}, other);
    std::vector<float> reach(65, 0.4f / 64);
    reach[other] = 0.6f;
    LabCheckpoint now = checkpoint_with(2000, {even_row(), reach}, other);
    now.accuracy = 0.98;
    now.predicted = "same colour";
    now.probability = 0.9;
    const auto s = lab_sentences(first, now, nullptr, false, true);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].kind, "spread");
    EXPECT_TRUE(s[0].holds);
    EXPECT_NEAR(s[0].value, 1.0 / 65, 1e-7);
    EXPECT_NE(s[0].text.find("spreads its weight evenly"), std::string::npos) << s[0].text;
    EXPECT_EQ(s[1].kind, "other_square");
    EXPECT_TRUE(s[1].holds);
    EXPECT_EQ(s[1].head, 1);
    EXPECT_NE(s[1].text.find("At step 2,000 head 1 of layer 0 puts 60 %"), std::string::npos) << s[1].text;
    EXPECT_NE(s[2].text.find("0.980"), std::string::npos) << s[2].text;

    // Under kReachRatio x an even share the claim does not hold, and the sentence says so with the best number.
    std::vector<float> weak(65, 1.f / 65);
    weak[other] = 3.5f / 65;
    weak[0] -= 2.5f / 65;
    const auto s2 = lab_sentences(first, checkpoint_with(40, {even_row(), weak}, other), nullptr, false, true);
    EXPECT_FALSE(s2[1].holds);
    EXPECT_NE(s2[1].text.find("no head singles out the other square"), std::string::npos) << s2[1].text;
    // A first checkpoint with one key at 3 x an even share is not "even".
    std::vector<float> peaked(65, 0.97f / 64);
    peaked[5] = 3.f / 65;
    const auto s3 = lab_sentences(checkpoint_with(0, {peaked}, other), now, nullptr, false, true);
    EXPECT_FALSE(s3[0].holds);
    EXPECT_NE(s3[0].text.find("already uneven"), std::string::npos) << s3[0].text;
}

TEST(LabSentences, TheClassTokensClaimHoldsAtFourTimesTwoSquaresOfThePatches) {
    // The class token's weight on the two squares against 2 / 64 (two of the patches): holds at 4 x that, 0.125.
    const int s1 = 10, s2 = 40;
    auto cls_checkpoint = [&](double on_squares) {
        LabCheckpoint c = checkpoint_with(400, {even_row(), even_row()}, s1);
        c.layer = 2;
        c.heads[1].on_task = on_squares;
        c.heads[1].shares.square1 = on_squares / 2;
        c.heads[1].shares.square2 = on_squares / 2;
        c.heads[0].on_task = 2.0 / 65;
        (void)s2;
        return c;
    };
    const LabCheckpoint first = checkpoint_with(0, {even_row(), even_row()}, s1);
    const auto holds =
        lab_sentences(first, cls_checkpoint(0.954), nullptr, false, true, kQueryCls, {7, "red left of blue"});
    ASSERT_GE(holds.size(), 4u);
    EXPECT_EQ(holds[1].kind, "class_token");
    EXPECT_TRUE(holds[1].holds);
    EXPECT_EQ(holds[1].layer, 2);
    EXPECT_DOUBLE_EQ(holds[1].baseline, 2.0 / 64);
    EXPECT_NE(holds[1].text.find(
                  "head 1 of layer 2 puts 95 % of the class token's weight on the two squares, 31 times"),
              std::string::npos)
        << holds[1].text;
    const auto weak = lab_sentences(first, cls_checkpoint(0.12), nullptr, false, true, kQueryCls);
    EXPECT_FALSE(weak[1].holds);
    EXPECT_NE(weak[1].text.find("no head singles out the two squares"), std::string::npos) << weak[1].text;
    // The sample judged: its label, the answer, right or wrong.
    LabCheckpoint now = cls_checkpoint(0.954);
    now.predicted = "red right of blue";
    now.probability = 0.99;
    const auto judged = lab_sentences(first, now, nullptr, false, true, kQueryCls, {7, "red left of blue"});
    EXPECT_EQ(judged[3].kind, "sample");
    EXPECT_FALSE(judged[3].holds);
    EXPECT_NE(judged[3].text.find(
                  "Sample 7 is \"red left of blue\"; the model answers \"red right of blue\" (99 %): wrong."),
              std::string::npos)
        << judged[3].text;
}

TEST(LabSentences, TrainWarnsBelowTheStepsTheDefaultRunNeeded) {
    EXPECT_NE(short_run_warning("same_colour", true, 300).find("300 steps is short"), std::string::npos);
    EXPECT_NE(short_run_warning("same_colour", true, 300).find("chance (0.5)"), std::string::npos);
    EXPECT_EQ(short_run_warning("same_colour", true, 1000), "");
    EXPECT_EQ(short_run_warning("left_of", true, vit::train::task_spec(vit::train::Task::LeftOf).learned_by), "");
    EXPECT_NE(short_run_warning("left_of", false, 5000).find("at any length"), std::string::npos);
    EXPECT_EQ(short_run_warning("same_colour", false, 1000), "") << "same_colour needs no positions";
}

TEST(LabState, ActionsClampToTheRun) {
    LabState lab;
    auto run = std::make_shared<LabRun>();
    run->log.resize(5);
    run->samples = {"a.png", "b.png"};
    lab.run = run;
    apply_lab(lab, lab::SetCheckpoint{9});
    EXPECT_EQ(lab.checkpoint, 4);
    apply_lab(lab, lab::SetCheckpoint{-3});
    EXPECT_EQ(lab.checkpoint, 0);
    apply_lab(lab, lab::SetSample{7});
    EXPECT_EQ(lab.sample, 1);
    // Reading runs and training are the window's (LabCommand): not actions on the state at all.
    static_assert(!std::is_constructible_v<session::LabAction, lab::Train>);
    static_assert(!std::is_constructible_v<session::LabAction, lab::OpenRun>);
}

TEST(LabRun, ARealRunReadBackAndItsCheckpointRunOnASample) {
    const fs::path dir = fs::temp_directory_path() / ("lab_test_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "run");
    vit::train::TrainSettings s;
    s.steps = 3;
    s.held_out = 8;
    s.batch = 8;
    s.threads = 1;
    const auto labels = vit::train::task_labels(s.task);
    std::vector<vit::train::LogRow> log;
    vit::train::TrainCallbacks cb;
    cb.checkpoint = [&](const vit::train::TinyVit& m, const vit::train::LogRow& row) {
        const fs::path step = dir / "run" / vit::train::step_folder_name(row.step);
        fs::create_directory(step);
        vit::train::write_model_folder(m, labels, step.string());
        log.push_back(row);
    };
    vit::train::train(s, cb);
    std::ofstream(dir / "run" / "log.csv") << vit::train::log_csv(log);
    std::ofstream(dir / "run" / "config") << vit::train::describe(s);
    vit::train::write_samples(vit::train::make_held_out(s), labels, 8, 64, (dir / "run").string());

    const auto run = read_lab_run((dir / "run").string());
    EXPECT_EQ(run->task, "same_colour");
    EXPECT_TRUE(run->position);
    ASSERT_EQ(run->log.size(), log.size());
    EXPECT_EQ(run->samples.size(), 8u);
    EXPECT_EQ(find_pair_run(*run), "");  // no run beside it yet

    const vit::Model m = vit::load_model(run->checkpoint_dir(run->log.size() - 1));
    const vit::Image img = vit::load_image(run->sample_path(0));
    const auto squares = find_squares(img, m.patch, run->task);
    ASSERT_EQ(squares.size(), 2u);
    const auto trace = run_checkpoint(m, img);
    const int q = 1 + squares[0].patch, o = 1 + squares[1].patch;
    const auto rows = head_rows(*trace, 2, kQuerySquare1, q, o);
    ASSERT_EQ(rows.size(), 4u);
    for (const auto& r : rows) {
        double sum = 0;
        for (float w : r.weights) sum += w;
        EXPECT_NEAR(sum, 1.0, 1e-5);
        EXPECT_FLOAT_EQ(static_cast<float>(r.on_task), trace->layers[2].heads[&r - rows.data()].attn(q, o));
    }

    // The same task and steps without position embeddings beside it is its pair; a broken log is refused in one line.
    fs::copy(dir / "run", dir / "run_no_position", fs::copy_options::recursive);
    // A run of another length is no pair (its checkpoints would be compared with steps it never reached).
    std::ofstream(dir / "run_no_position" / "config")
        << "task = same_colour\nsteps = 4\nposition_embeddings = no (zero, not trained)\n";
    EXPECT_EQ(find_pair_run(*run), "");
    std::ofstream(dir / "run_no_position" / "config")
        << "task = same_colour\nsteps = 3\nposition_embeddings = no (zero, not trained)\n";
    EXPECT_EQ(fs::path(find_pair_run(*run)).filename(), "run_no_position");
    std::ofstream(dir / "run_no_position" / "log.csv") << "step,loss,accuracy\n0,1,1\n999,1,1\n";
    EXPECT_THROW(read_lab_run((dir / "run_no_position").string()), vit::Error);
    fs::remove_all(dir);
}
