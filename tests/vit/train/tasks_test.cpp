// Every task of the one list (src/vit/train/task_list.inc), visited through
// the table alone: its name round-trips through parse_task, it names two
// labels and two squares, and its sampler draws what the trainer and the
// Learning lab rely on (two flat squares on a noisy background, both labels
// about equally often, the asked-about square's colour, the same picture for
// the same seed). tests/vit/train/task_probe.cpp runs these once more in a
// build with a third task.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "vit/base/error.h"
#include "vit/train/tasks.h"

using namespace vit::train;

namespace {

struct Square {
    int row, col;
    Rgb rgb;
};

// The cells of one flat colour (the background's noise makes no cell flat).
std::vector<Square> flat_cells(const Sample& s, int side, int cell) {
    std::vector<Square> out;
    for (int r = 0; r < side / cell; ++r)
        for (int c = 0; c < side / cell; ++c) {
            const size_t first = (static_cast<size_t>(r * cell) * side + c * cell) * 3;
            bool flat = true;
            for (int y = r * cell; y < (r + 1) * cell && flat; ++y)
                for (int x = c * cell; x < (c + 1) * cell && flat; ++x)
                    for (int k = 0; k < 3; ++k)
                        flat &= s.rgb[(static_cast<size_t>(y) * side + x) * 3 + k] == s.rgb[first + k];
            if (flat) out.push_back({r, c, {s.rgb[first], s.rgb[first + 1], s.rgb[first + 2]}});
        }
    return out;
}

}  // namespace

TEST(TaskTable, EveryTaskRoundTripsItsName) {
    ASSERT_GE(all_tasks().size(), 2u);
    std::set<std::string> seen;
    for (const TaskSpec& t : all_tasks()) {
        EXPECT_EQ(parse_task(t.name), t.task) << t.name;
        EXPECT_EQ(task_name(t.task), t.name);
        EXPECT_EQ(find_task(t.name), &t);
        EXPECT_EQ(&task_spec(t.task), &t);
        EXPECT_TRUE(seen.insert(t.name).second) << "two tasks called " << t.name;
    }
    std::vector<std::string> in_order;
    std::string joined;
    for (const TaskSpec& t : all_tasks()) {
        in_order.push_back(t.name);
        joined.append(joined.empty() ? "" : "|").append(t.name);
    }
    EXPECT_EQ(task_names(), in_order);
    EXPECT_EQ(task_names("|"), joined);
    EXPECT_EQ(task_name(kDefaultTask), all_tasks().front().name);
    EXPECT_EQ(find_task("no_such_task"), nullptr);
    try {
        parse_task("no_such_task");
        FAIL() << "an unknown task was taken";
    } catch (const vit::Error& e) {
        for (const TaskSpec& t : all_tasks())
            EXPECT_NE(std::string(e.what()).find(t.name), std::string::npos) << e.what();
    }
}

TEST(TaskTable, EveryTaskNamesTwoLabelsAndTwoSquares) {
    for (const TaskSpec& t : all_tasks()) {
        const std::vector<std::string> labels = task_labels(t.task);
        ASSERT_EQ(labels.size(), 2u) << t.name;
        EXPECT_FALSE(labels[0].empty());
        EXPECT_FALSE(labels[1].empty());
        EXPECT_NE(labels[0], labels[1]) << t.name;
        EXPECT_NE(std::string(t.squares[0]), t.squares[1]) << t.name;
        EXPECT_GT(std::string(t.question).size(), 5u) << t.name;
        EXPECT_GT(std::string(t.needs).size(), 5u) << t.name;
    }
}

TEST(TaskTable, EveryTaskSamplesTwoSquaresAndBothLabels) {
    for (const TaskSpec& t : all_tasks())
        for (const int side : {64, 32}) {
            std::mt19937_64 rng(11), again(11);
            int ones = 0;
            const int n = 400;
            for (int i = 0; i < n; ++i) {
                const Sample s = draw_sample(t.task, rng, side, 8);
                ASSERT_EQ(s.rgb.size(), static_cast<size_t>(side) * side * 3) << t.name;
                ASSERT_TRUE(s.label == 0 || s.label == 1) << t.name << ": label " << s.label;
                ones += s.label;
                const std::vector<Square> squares = flat_cells(s, side, 8);
                ASSERT_EQ(squares.size(), 2u) << t.name << " sample " << i << " at " << side << " px";
                for (const Square& q : squares)
                    EXPECT_NE(std::find(kPalette.begin(), kPalette.end(), q.rgb), kPalette.end())
                        << t.name << ": not a palette colour";
                if (t.asked_about) {
                    EXPECT_TRUE(squares[0].rgb == *t.asked_about || squares[1].rgb == *t.asked_about)
                        << t.name << " sample " << i << " lacks the square its question is about";
                }
                const Sample same = t.draw(again, side, 8);
                ASSERT_EQ(same.rgb, s.rgb) << t.name << ": the same seed drew another picture";
                ASSERT_EQ(same.label, s.label);
            }
            EXPECT_GT(ones, n * 35 / 100) << t.name;
            EXPECT_LT(ones, n * 65 / 100) << t.name;
        }
}

// same_colour's label is what the picture shows (left_of's: trainer_test.cpp).
TEST(TaskTable, SameColoursLabelIsWhetherTheSquaresShareAColour) {
    std::mt19937_64 rng(5);
    for (int i = 0; i < 200; ++i) {
        const Sample s = draw_sample(Task::SameColour, rng);
        const std::vector<Square> q = flat_cells(s, 64, 8);
        ASSERT_EQ(q.size(), 2u);
        EXPECT_EQ(s.label, q[0].rgb == q[1].rgb ? 1 : 0);
    }
    EXPECT_EQ(task_spec(Task::LeftOf).asked_about, kRed);
    EXPECT_FALSE(task_spec(Task::SameColour).asked_about);
}
