#include "vit/train/tasks.h"

#include <algorithm>
#include <string_view>

#include "vit/base/error.h"
#include "vit/train/random.h"

namespace vit::train {

// Each task's sampler, named after it; a task without one does not link.
namespace samplers {
#define TASK(id, name, ...) Sample name(std::mt19937_64& rng, int side, int cell);
#include "vit/train/task_list.inc"
#undef TASK

// Two squares of the palette's colours at two random patches: the same
// colour or not (half and half).
Sample same_colour(std::mt19937_64& rng, int side, int cell) {
    const int grid = side / cell;
    Sample s = blank_sample(rng, side);
    const int a = uniform_int(rng, grid * grid);
    int b = uniform_int(rng, grid * grid - 1);
    if (b >= a) ++b;  // two different patches
    s.label = uniform_int(rng, 2);
    const int ca = uniform_int(rng, static_cast<int>(kPalette.size()));
    int cb = ca;
    if (!s.label) {
        cb = uniform_int(rng, static_cast<int>(kPalette.size()) - 1);
        if (cb >= ca) ++cb;
    }
    paint_cell(s, side, cell, a / grid, a % grid, kPalette[ca]);
    paint_cell(s, side, cell, b / grid, b % grid, kPalette[cb]);
    return s;
}

// A red and a blue square in two different columns (so "left of" always has
// an answer); label 1: the red one is left of the blue one.
Sample left_of(std::mt19937_64& rng, int side, int cell) {
    const int grid = side / cell;
    Sample s = blank_sample(rng, side);
    const int col_a = uniform_int(rng, grid);
    int col_b = uniform_int(rng, grid - 1);
    if (col_b >= col_a) ++col_b;
    const int row_a = uniform_int(rng, grid), row_b = uniform_int(rng, grid);
    s.label = uniform_int(rng, 2);
    const int red_col = s.label ? std::min(col_a, col_b) : std::max(col_a, col_b);
    const int blue_col = s.label ? std::max(col_a, col_b) : std::min(col_a, col_b);
    paint_cell(s, side, cell, row_a, red_col, kRed);
    paint_cell(s, side, cell, row_b, blue_col, kBlue);
    return s;
}

}  // namespace samplers

namespace {

constexpr TaskSpec kTasks[] = {
#define TASK(id, name, question, needs, label0, label1, square0, square1, asked_about, swap_flips, learned_by) \
    {Task::id,           #name,       question,   needs,      {label0, label1},                                \
     {square0, square1}, asked_about, swap_flips, learned_by, samplers::name},
#include "vit/train/task_list.inc"
#undef TASK
};

// Row i is Task i, and no two tasks share a name or a label.
constexpr bool well_formed() {
    for (size_t i = 0; i < std::size(kTasks); ++i) {
        const TaskSpec& t = kTasks[i];
        if (static_cast<size_t>(t.task) != i || std::string_view(t.name).empty()) return false;
        if (std::string_view(t.labels[0]) == t.labels[1] || std::string_view(t.squares[0]) == t.squares[1])
            return false;
        for (size_t j = 0; j < i; ++j)
            if (std::string_view(kTasks[j].name) == t.name) return false;
    }
    return true;
}
static_assert(well_formed(), "task_list.inc: a task's name is empty or taken, or its two labels or squares are one");

}  // namespace

std::span<const TaskSpec> all_tasks() { return kTasks; }

const TaskSpec& task_spec(Task task) { return kTasks[static_cast<size_t>(task)]; }

const TaskSpec* find_task(const std::string& name) {
    for (const TaskSpec& t : kTasks)
        if (name == t.name) return &t;
    return nullptr;
}

Task parse_task(const std::string& name) {
    if (const TaskSpec* t = find_task(name)) return t->task;
    throw Error("unknown task '" + name + "' (known: " + task_names(", ") + ")");
}

std::string task_name(Task task) { return task_spec(task).name; }

std::vector<std::string> task_names() {
    std::vector<std::string> out;
    for (const TaskSpec& t : kTasks) out.push_back(t.name);
    return out;
}

std::string task_names(const std::string& separator) {
    std::string out;
    for (const TaskSpec& t : kTasks) out.append(out.empty() ? "" : separator).append(t.name);
    return out;
}

std::vector<std::string> task_labels(Task task) {
    const TaskSpec& t = task_spec(task);
    return {t.labels[0], t.labels[1]};
}

Sample draw_sample(Task task, std::mt19937_64& rng, int side, int cell) {
    return task_spec(task).draw(rng, side, cell);
}

Sample blank_sample(std::mt19937_64& rng, int side) {
    Sample s;
    s.rgb.resize(static_cast<size_t>(side) * side * 3);
    // Light grey with independent noise in every pixel and channel: 200 +- 24.
    for (uint8_t& v : s.rgb) v = static_cast<uint8_t>(176 + uniform_int(rng, 49));
    return s;
}

void paint_cell(Sample& s, int side, int cell, int row, int col, Rgb colour) {
    for (int y = row * cell; y < (row + 1) * cell; ++y)
        for (int x = col * cell; x < (col + 1) * cell; ++x)
            for (int c = 0; c < 3; ++c) s.rgb[(static_cast<size_t>(y) * side + x) * 3 + c] = colour[c];
}

void append_input(const std::vector<uint8_t>& rgb, int side, std::vector<float>& out) {
    const size_t plane = static_cast<size_t>(side) * side, start = out.size();
    out.resize(start + 3 * plane);
    for (int c = 0; c < 3; ++c)
        for (size_t i = 0; i < plane; ++i) out[start + c * plane + i] = (rgb[i * 3 + c] / 255.f - 0.5f) / 0.5f;
}

}  // namespace vit::train
