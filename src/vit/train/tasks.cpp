#include "vit/train/tasks.h"

#include <algorithm>
#include <array>

#include "vit/base/error.h"
#include "vit/train/random.h"

namespace vit::train {
namespace {

using Rgb = std::array<uint8_t, 3>;
// Six colours far apart, none near the light background.
const std::array<Rgb, 6> kPalette = {{{220, 30, 30}, {30, 160, 40}, {30, 60, 220}, {230, 200, 20}, {170, 40, 190}, {20, 180, 190}}};
const Rgb kRed = kPalette[0], kBlue = kPalette[2];

void fill_background(std::vector<uint8_t>& rgb, std::mt19937_64& rng) {
    // Light grey with independent noise in every pixel and channel: 200 +- 24.
    for (uint8_t& v : rgb) v = static_cast<uint8_t>(176 + uniform_int(rng, 49));
}

void paint_cell(std::vector<uint8_t>& rgb, int side, int cell, int row, int col, Rgb colour) {
    for (int y = row * cell; y < (row + 1) * cell; ++y)
        for (int x = col * cell; x < (col + 1) * cell; ++x)
            for (int c = 0; c < 3; ++c) rgb[(static_cast<size_t>(y) * side + x) * 3 + c] = colour[c];
}

}  // namespace

Task parse_task(const std::string& name) {
    if (name == "same_colour") return Task::SameColour;
    if (name == "left_of") return Task::LeftOf;
    throw Error("unknown task '" + name + "' (known: same_colour, left_of)");
}

std::string task_name(Task task) { return task == Task::SameColour ? "same_colour" : "left_of"; }
std::vector<std::string> task_names() { return {"same_colour", "left_of"}; }

std::vector<std::string> task_labels(Task task) {
    if (task == Task::SameColour) return {"different colours", "same colour"};
    return {"red right of blue", "red left of blue"};
}

Sample draw_sample(Task task, std::mt19937_64& rng, int side, int cell) {
    const int grid = side / cell;
    Sample s;
    s.rgb.resize(static_cast<size_t>(side) * side * 3);
    fill_background(s.rgb, rng);
    if (task == Task::SameColour) {
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
        paint_cell(s.rgb, side, cell, a / grid, a % grid, kPalette[ca]);
        paint_cell(s.rgb, side, cell, b / grid, b % grid, kPalette[cb]);
    } else {
        // Two different columns, so "left of" always has an answer.
        const int col_a = uniform_int(rng, grid);
        int col_b = uniform_int(rng, grid - 1);
        if (col_b >= col_a) ++col_b;
        const int row_a = uniform_int(rng, grid), row_b = uniform_int(rng, grid);
        s.label = uniform_int(rng, 2);
        const int red_col = s.label ? std::min(col_a, col_b) : std::max(col_a, col_b);
        const int blue_col = s.label ? std::max(col_a, col_b) : std::min(col_a, col_b);
        paint_cell(s.rgb, side, cell, row_a, red_col, kRed);
        paint_cell(s.rgb, side, cell, row_b, blue_col, kBlue);
    }
    return s;
}

void append_input(const std::vector<uint8_t>& rgb, int side, std::vector<float>& out) {
    const size_t plane = static_cast<size_t>(side) * side, start = out.size();
    out.resize(start + 3 * plane);
    for (int c = 0; c < 3; ++c)
        for (size_t i = 0; i < plane; ++i) out[start + c * plane + i] = (rgb[i * 3 + c] / 255.f - 0.5f) / 0.5f;
}

}  // namespace vit::train
