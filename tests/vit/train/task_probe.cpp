// The train level built with a third task (probe_task.inc, one more line in
// src/vit/train/task_list.inc's place): the table's tests (tasks_test.cpp,
// compiled in beside this) visit it with the two that ship, and the trainer,
// the run's config and the checkpoint's model folder take it as they take
// those, with no other change. Code outside vit/train names no task
// (tests/structure/task_names_test.py), so this is every place a task reaches.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "vit/formats/checkpoint.h"
#include "vit/train/checkpoint_io.h"
#include "vit/train/trainer.h"

namespace fs = std::filesystem;
using namespace vit::train;

TEST(TaskProbe, TheThirdTaskIsInTheTable) {
    ASSERT_EQ(all_tasks().size(), 3u);
    EXPECT_EQ(all_tasks().back().task, Task::Probe);
    EXPECT_EQ(parse_task("probe"), Task::Probe);
    EXPECT_EQ(task_names("|"), "same_colour|left_of|probe");
}

TEST(TaskProbe, TheTrainerTrainsItAndItsCheckpointNamesItsLabels) {
    TrainSettings s;
    s.task = parse_task("probe");
    s.model.image = 32;
    s.model.dim = 32;
    s.model.heads = 2;
    s.model.depth = 2;
    s.model.mlp = 64;
    s.model.classes = static_cast<int>(task_labels(s.task).size());
    s.batch = 16;
    s.held_out = 64;
    s.steps = 3;
    EXPECT_NE(describe(s).find("task = probe\n"), std::string::npos);
    const HeldOut held = make_held_out(s);
    int ones = 0;
    for (const Sample& smp : held.samples) ones += smp.label;
    EXPECT_GT(ones, 0);
    EXPECT_LT(ones, s.held_out);
    const TrainResult r = train(s, {});
    ASSERT_EQ(r.log.back().step, 3);
    EXPECT_GE(r.log.back().accuracy, 0.0);
    EXPECT_LE(r.log.back().accuracy, 1.0);

    const fs::path dir = fs::temp_directory_path() / ("vitscope_task_probe_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    write_model_folder(r.model, task_labels(s.task), dir.string());
    EXPECT_EQ(vit::load_model(dir.string()).config.labels, (std::vector<std::string>{"different rows", "same row"}));
    fs::remove_all(dir);
}
