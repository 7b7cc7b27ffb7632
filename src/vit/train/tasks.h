// The synthetic tasks a tiny ViT is trained on, drawn on the fly from a
// seeded generator: 64 x 64 px images, each square filling one 8 x 8 patch
// (aligned to the patch grid) on a light, noisy background. Every task is a
// row of one table, task_list.inc (what each asks, its labels, its sampler);
// code that names or offers tasks reads that table through all_tasks().
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace vit::train {

// One enumerator per line of task_list.inc, in its order.
enum class Task {
#define TASK(id, ...) id,
#include "vit/train/task_list.inc"
#undef TASK
};
// The list's first task: what Train and `vitscope train` start from.
inline constexpr Task kDefaultTask = Task{};

using Rgb = std::array<uint8_t, 3>;
// Six colours far apart, none near the light background; red and blue are
// two of them.
inline constexpr std::array<Rgb, 6> kPalette = {
    {{220, 30, 30}, {30, 160, 40}, {30, 60, 220}, {230, 200, 20}, {170, 40, 190}, {20, 180, 190}}};
inline constexpr Rgb kRed = kPalette[0], kBlue = kPalette[2];

struct Sample {
    std::vector<uint8_t> rgb;  // side x side x 3, row-major
    int label = 0;
};
// Draws one sample of a task, side x side px, squares of `cell` px on the cell grid.
using Sampler = Sample (*)(std::mt19937_64& rng, int side, int cell);

// A row of task_list.inc.
struct TaskSpec {
    Task task;
    const char* name;                    // "same_colour": --task, RUN/config, the lab's runs
    const char* question;                // "are the squares the same colour?"
    const char* needs;                   // what answering it takes of attention, a sentence or two
    std::array<const char*, 2> labels;   // class names in label order
    std::array<const char*, 2> squares;  // the lab's names for the two squares, asked-about first
    std::optional<Rgb> asked_about;      // that square's colour; none: the squares in reading order
    bool swap_flips_label;               // exchanging the two squares' places flips the label
    int learned_by;                      // the step the default run first passed 0.9 held-out accuracy
    Sampler draw;
};

// Every task, in the list's order (row i is Task i).
std::span<const TaskSpec> all_tasks();
const TaskSpec& task_spec(Task task);
// The task called name, or null.
const TaskSpec* find_task(const std::string& name);

// "same_colour" / "left_of"; throws vit::Error naming the known ones otherwise.
Task parse_task(const std::string& name);
std::string task_name(Task task);
std::vector<std::string> task_names();
// The names joined by `separator`: "same_colour|left_of".
std::string task_names(const std::string& separator);
// Class names in label order, as the checkpoints' config.json gives them.
std::vector<std::string> task_labels(Task task);

// One sample of the task, side x side px, squares of `cell` px on the cell grid.
Sample draw_sample(Task task, std::mt19937_64& rng, int side = 64, int cell = 8);

// For samplers: a blank side x side picture (light grey, noise in every
// pixel and channel: 176..224, never a flat cell), and one cell painted.
Sample blank_sample(std::mt19937_64& rng, int side);
void paint_cell(Sample& s, int side, int cell, int row, int col, Rgb colour);

// The model's input from 8-bit RGB: x / 255, normalised with mean 0.5 and
// std 0.5 (as the checkpoints' pretrained_cfg says), channel-first
// (3 x side x side), appended to `out`.
void append_input(const std::vector<uint8_t>& rgb, int side, std::vector<float>& out);

}  // namespace vit::train
