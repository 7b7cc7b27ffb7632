// The synthetic tasks a tiny ViT is trained on, drawn on the fly from a
// seeded generator: 64 x 64 px images, each square filling one 8 x 8 patch
// (aligned to the patch grid) on a light, noisy background.
//   same_colour: two squares of 6 colours at two random patches: the same
//     colour or not (half and half). Needs two distant, content-defined
//     patches related: global, content-based attention.
//   left_of: a red and a blue square in two different columns: is the red
//     one left of the blue one? Needs positions: a model without position
//     embeddings sees the same set of patches either way, and stays at chance.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace vit::train {

enum class Task { SameColour, LeftOf };

// "same_colour" / "left_of"; throws vit::Error naming the known ones otherwise.
Task parse_task(const std::string& name);
std::string task_name(Task task);
std::vector<std::string> task_names();
// Class names in label order, as the checkpoints' config.json gives them.
std::vector<std::string> task_labels(Task task);

struct Sample {
    std::vector<uint8_t> rgb;  // side x side x 3, row-major
    int label = 0;
};

// One sample of the task, side x side px, squares of `cell` px on the cell grid.
Sample draw_sample(Task task, std::mt19937_64& rng, int side = 64, int cell = 8);

// The model's input from 8-bit RGB: x / 255, normalised with mean 0.5 and
// std 0.5 (as the checkpoints' pretrained_cfg says), channel-first
// (3 x side x side), appended to `out`.
void append_input(const std::vector<uint8_t>& rgb, int side, std::vector<float>& out);

}  // namespace vit::train
