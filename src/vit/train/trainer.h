// Training a tiny ViT on a synthetic task: the loop, the held-out set, the
// checkpoint schedule. GUI-free: the command line (app/commands/cli_train.cpp) runs it
// on its thread, a window can run it on a background thread and watch it
// through the callbacks and vit::TaskControl (progress, cancel).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vit/base/task_control.h"
#include "vit/train/adamw.h"
#include "vit/train/backprop.h"
#include "vit/train/tasks.h"
#include "vit/train/tiny_vit.h"

namespace vit::train {

struct TrainSettings {
    Task task = kDefaultTask;
    int steps = 1000;
    uint64_t seed = 1;
    int threads = 1;
    int batch = 64;
    int held_out = 512;  // fixed held-out samples, drawn from their own stream
    int warmup = 100;    // steps of linear learning-rate warm-up from 0, then a cosine to lr_end x lr at the last step
    double lr_end = 0.1;
    double clip = 1.0;  // the gradients' global norm is clipped to this (0: no clipping)
    AdamWSettings adamw = {};
    TinyVitConfig model = {};
    // Extra checkpoints where the loss falls fastest: every `fast_every`
    // steps, one when the training loss (its running mean) fell by at least
    // `fast_drop` nats over those steps.
    int fast_every = 20;
    double fast_drop = 0.03;
};

// Every setting as "name = value" lines (RUN/config).
std::string describe(const TrainSettings& settings);

struct LogRow {
    int step = 0;
    double loss = 0;        // held-out mean cross-entropy
    double accuracy = 0;    // held-out accuracy
    double train_loss = 0;  // running mean of the training batches' loss (0 at step 0)
    bool fast = false;      // an extra checkpoint (the loss falling fast), not a scheduled one
};

struct HeldOut {
    Batch batch;
    std::vector<Sample> samples;  // the images, for RUN/samples
};
HeldOut make_held_out(const TrainSettings& settings);
// Training batch number `index` (0 is the first): batches come from one stream, in order.
class BatchStream {
public:
    explicit BatchStream(const TrainSettings& settings);
    Batch next();

private:
    Task task_;
    int batch_, image_, patch_;
    std::mt19937_64 rng_;
};

// The scheduled checkpoints for `steps` steps: 0, about four per doubling of the step, and the last.
std::vector<int> checkpoint_schedule(int steps);

struct TrainCallbacks {
    // At each checkpoint, with the model at that step (write it, plot it).
    std::function<void(const TinyVit& model, const LogRow& row)> checkpoint;
    // After every training step (loss of that batch), for progress lines.
    std::function<void(int step, double batch_loss)> step_done;
};

struct TrainResult {
    std::vector<LogRow> log;
    bool cancelled = false;
    TinyVit model;
};

// The initial model of a run (its seed decides it).
TinyVit initial_model(const TrainSettings& settings);
// Held-out loss and accuracy.
LogRow evaluate(const TinyVit& model, const HeldOut& held_out, int threads);
// The learning rate at step (1-based) of `settings`.
double learning_rate(const TrainSettings& settings, int step);
// Scales the gradients to at most `max_norm` in global L2 norm; returns the norm before.
double clip_gradients(Gradients& grads, double max_norm);
// Trains from initial_model; stops between steps when control is cancelled
// (the checkpoints made so far are complete), reporting progress (step, steps).
TrainResult train(const TrainSettings& settings, const TrainCallbacks& callbacks, const TaskControl& control = {});

}  // namespace vit::train
