// The tiny ViT trainer (src/vit/train): gradients against finite differences,
// the permutation property without position embeddings, a checkpoint read by
// the project's own loader and forward pass giving the trainer's logits, a
// short run that lowers the loss and beats chance, and the same log twice.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>

#include "vit/formats/checkpoint.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/train/backprop.h"
#include "vit/train/checkpoint_io.h"
#include "vit/train/run_folder.h"
#include "vit/train/trainer.h"

namespace fs = std::filesystem;
using namespace vit::train;

namespace {

// A small model and batch, so a test takes milliseconds.
TrainSettings small_settings(Task task, bool position) {
    TrainSettings s;
    s.task = task;
    s.model.image = 32;
    s.model.patch = 8;
    s.model.dim = 32;
    s.model.heads = 2;
    s.model.depth = 2;
    s.model.mlp = 64;
    s.model.position = position;
    s.batch = 16;
    s.held_out = 128;
    s.threads = 2;
    s.seed = 7;
    return s;
}

// The model with larger random weights than the initialisation, so every path carries gradient.
TinyVit random_model(const TrainSettings& s, uint64_t seed) {
    TinyVit m = initial_model(s);
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> n(0.f, 0.3f);
    for (ParamTensor& t : m.tensors)
        if (t.name != "pos_embed" || s.model.position)
            for (float& v : t.data) v += n(rng);
    return m;
}

double loss_of(const TinyVit& m, const Batch& b) { return run_batch(m, b, nullptr, 1).loss; }

}  // namespace

TEST(TrainBackprop, GradientsMatchFiniteDifferencesInEveryTensor) {
    const TrainSettings s = small_settings(Task::SameColour, true);
    TinyVit m = random_model(s, 11);
    BatchStream stream(s);
    Batch b = stream.next();
    b.size = 4;
    b.inputs.resize(4 * 3 * 32 * 32);
    b.labels.resize(4);
    Gradients g;
    run_batch(m, b, &g, 2);
    // In each tensor, its largest gradient entry against a central difference in float32.
    for (size_t t = 0; t < m.tensors.size(); ++t) {
        const auto& grad = g[t];
        const size_t j =
            std::max_element(grad.begin(), grad.end(), [](float a, float c) { return std::fabs(a) < std::fabs(c); }) -
            grad.begin();
        const float h = 1e-2f, saved = m.tensors[t].data[j];
        m.tensors[t].data[j] = saved + h;
        const double up = loss_of(m, b);
        m.tensors[t].data[j] = saved - h;
        const double down = loss_of(m, b);
        m.tensors[t].data[j] = saved;
        const double fd = (up - down) / (2 * h);
        EXPECT_NEAR(grad[j], fd, 0.03 * std::fabs(fd) + 2e-4) << m.tensors[t].name << " entry " << j;
    }
}

TEST(TrainBackprop, ThreadsDoNotChangeTheGradients) {
    const TrainSettings s = small_settings(Task::LeftOf, true);
    const TinyVit m = random_model(s, 3);
    BatchStream stream(s);
    const Batch b = stream.next();
    Gradients one, two;
    const BatchResult r1 = run_batch(m, b, &one, 1), r2 = run_batch(m, b, &two, 3);
    EXPECT_EQ(r1.loss, r2.loss);
    EXPECT_EQ(one, two);
}

// Without position embeddings the class token's output cannot depend on where
// a patch is: shuffling the patches of the image leaves the logits as they are.
TEST(TrainPermutation, WithoutPositionsShuffledPatchesGiveTheSameLogits) {
    for (bool position : {false, true}) {
        const TrainSettings s = small_settings(Task::LeftOf, position);
        const TinyVit m = random_model(s, 5);
        BatchStream stream(s);
        Batch b = stream.next();
        Batch shuffled = b;
        const int side = 32, p = 8, grid = 4;
        std::vector<int> order(grid * grid);
        for (int i = 0; i < grid * grid; ++i) order[i] = (i * 7 + 3) % (grid * grid);  // a fixed permutation
        for (int n = 0; n < b.size; ++n)
            for (int i = 0; i < grid * grid; ++i)
                for (int c = 0; c < 3; ++c)
                    for (int y = 0; y < p; ++y)
                        for (int x = 0; x < p; ++x) {
                            const size_t base = static_cast<size_t>(n) * 3 * side * side + c * side * side;
                            const int from = order[i];
                            shuffled.inputs[base + (i / grid * p + y) * side + i % grid * p + x] =
                                b.inputs[base + (from / grid * p + y) * side + from % grid * p + x];
                        }
        const BatchResult a = run_batch(m, b, nullptr, 1), c = run_batch(m, shuffled, nullptr, 1);
        float largest = 0;
        for (size_t i = 0; i < a.logits.size(); ++i) largest = std::max(largest, std::fabs(a.logits[i] - c.logits[i]));
        if (position) EXPECT_GT(largest, 1e-2f) << "with position embeddings the shuffle must matter";
        else EXPECT_LT(largest, 1e-4f) << "without position embeddings the shuffle changed the logits";
    }
}

// A checkpoint is a model folder: the project's loader and forward pass,
// on a sample's PNG preprocessed as any photo, give the trainer's logits.
TEST(TrainCheckpoint, TheProjectsForwardPassGivesTheTrainersLogits) {
    TrainSettings s = small_settings(Task::SameColour, true);
    s.model.image = 64;  // the size the checkpoints' config describes
    const TinyVit m = random_model(s, 9);
    const fs::path dir = fs::temp_directory_path() / ("vitscope_train_ckpt_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    write_model_folder(m, task_labels(s.task), dir.string());
    const HeldOut held = make_held_out(s);
    const std::string png = (dir / "sample.png").string();
    {
        const std::string bytes = encode_png(held.samples[0].rgb, 64);
        FILE* f = std::fopen(png.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        std::fwrite(bytes.data(), 1, bytes.size(), f);
        std::fclose(f);
    }
    const vit::Model model = vit::load_model(dir.string());
    EXPECT_EQ(model.config.labels, task_labels(s.task));
    const vit::Input input = vit::preprocess(vit::load_image(png), model.config.pre);
    ASSERT_EQ(input.size, 64);
    const vit::Trace trace = vit::forward(model, input);
    Batch one;
    one.size = 1;
    one.inputs.assign(held.batch.inputs.begin(), held.batch.inputs.begin() + 3 * 64 * 64);
    one.labels = {held.samples[0].label};
    const BatchResult r = run_batch(m, one, nullptr, 1);
    ASSERT_EQ(trace.logits.size(), 2u);
    for (int k = 0; k < 2; ++k) EXPECT_NEAR(trace.logits[k], r.logits[k], 1e-3f) << "class " << k;
    const TinyVit back = read_model_folder(dir.string());
    for (size_t t = 0; t < m.tensors.size(); ++t)
        EXPECT_EQ(back.tensors[t].data, m.tensors[t].data) << m.tensors[t].name;
    fs::remove_all(dir);
}

TEST(TrainRun, AShortRunLowersTheLossAndBeatsChance) {
    // A setting that learns in seconds (here 1.00 held-out accuracy in 300 steps): left_of on a 4 x 4 grid.
    TrainSettings s = small_settings(Task::LeftOf, true);
    s.steps = 300;
    s.batch = 32;
    s.adamw.lr = 1e-3;
    s.warmup = 10;
    const TrainResult r = vit::train::train(s, {});
    ASSERT_GE(r.log.size(), 2u);
    EXPECT_EQ(r.log.front().step, 0);
    EXPECT_EQ(r.log.back().step, s.steps);
    EXPECT_LT(r.log.back().loss, r.log.front().loss - 0.1) << log_csv(r.log);
    EXPECT_GT(r.log.back().accuracy, 0.9) << log_csv(r.log);
}

TEST(TrainRun, TheSameSeedGivesTheSameLogWhateverTheThreads) {
    TrainSettings s = small_settings(Task::SameColour, true);
    s.steps = 12;
    s.threads = 1;
    const std::string a = log_csv(vit::train::train(s, {}).log);
    s.threads = 2;
    const std::string b = log_csv(vit::train::train(s, {}).log);
    EXPECT_EQ(a, b);
    s.seed = 8;
    EXPECT_NE(log_csv(vit::train::train(s, {}).log), a) << "another seed should give another run";
}

TEST(TrainRun, CancelStopsBetweenStepsWithCompleteCheckpoints) {
    TrainSettings s = small_settings(Task::SameColour, true);
    s.steps = 50;
    std::atomic<bool> cancel{false};
    vit::TaskControl control;
    control.cancel = &cancel;
    int last_reported = 0;
    control.progress = [&](int done, int) {
        last_reported = done;
        if (done == 9) cancel = true;
    };
    std::vector<int> saved;
    TrainCallbacks cb;
    cb.checkpoint = [&](const TinyVit&, const LogRow& row) { saved.push_back(row.step); };
    const TrainResult r = vit::train::train(s, cb, control);
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(last_reported, 9);
    EXPECT_EQ(saved, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(TrainSchedule, LogSpacedFromZeroToTheLastStep) {
    const std::vector<int> s = checkpoint_schedule(1000);
    EXPECT_EQ(s.front(), 0);
    EXPECT_EQ(s.back(), 1000);
    EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
    // Denser early: more checkpoints in the first 100 steps than in the last 500.
    EXPECT_GT(std::count_if(s.begin(), s.end(), [](int x) { return x <= 100; }),
              std::count_if(s.begin(), s.end(), [](int x) { return x > 500; }));
}

TEST(TrainTasks, LabelsAreBalancedAndTheSquaresAreWhereTheLabelSays) {
    std::mt19937_64 rng(1);
    int ones = 0;
    for (int i = 0; i < 400; ++i) {
        const Sample smp = draw_sample(Task::LeftOf, rng);
        ones += smp.label;
        // The red square's column (a patch whose centre pixel is red) against the blue one's.
        int red = -1, blue = -1;
        for (int cell = 0; cell < 64; ++cell) {
            const size_t px = ((cell / 8 * 8 + 4) * 64 + cell % 8 * 8 + 4) * 3;
            if (smp.rgb[px] == 220 && smp.rgb[px + 1] == 30) red = cell % 8;
            if (smp.rgb[px] == 30 && smp.rgb[px + 2] == 220) blue = cell % 8;
        }
        ASSERT_GE(red, 0);
        ASSERT_GE(blue, 0);
        EXPECT_EQ(smp.label, red < blue ? 1 : 0);
    }
    EXPECT_GT(ones, 160);
    EXPECT_LT(ones, 240);
}
