#include "vit/train/trainer.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace vit::train {
namespace {

// Independent streams from one seed (splitmix64 of the seed and a stream number).
uint64_t stream_seed(uint64_t seed, uint64_t stream) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ull * (stream + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
enum Stream : uint64_t { kInitStream = 1, kTrainStream = 2, kHeldOutStream = 3 };

}  // namespace

std::string describe(const TrainSettings& s) {
    std::ostringstream o;
    o.precision(10);
    o << "task = " << task_name(s.task) << "\n"
      << "steps = " << s.steps << "\n"
      << "seed = " << s.seed << "\n"
      << "threads = " << s.threads << "\n"
      << "batch = " << s.batch << "\n"
      << "held_out = " << s.held_out << "\n"
      << "optimizer = AdamW\n"
      << "lr = " << s.adamw.lr << "\n"
      << "warmup_steps = " << s.warmup << " (linear from 0)\n"
      << "lr_schedule = cosine from lr after the warm-up to lr_end x lr at the last step\n"
      << "lr_end = " << s.lr_end << "\n"
      << "grad_clip_norm = " << s.clip << " (global L2 norm)\n"
      << "beta1 = " << s.adamw.beta1 << "\n"
      << "beta2 = " << s.adamw.beta2 << "\n"
      << "eps = " << s.adamw.eps << "\n"
      << "weight_decay = " << s.adamw.weight_decay << " (weight matrices only)\n"
      << "loss = mean softmax cross-entropy\n"
      << "image = " << s.model.image << "\n"
      << "patch = " << s.model.patch << "\n"
      << "width = " << s.model.dim << "\n"
      << "heads = " << s.model.heads << "\n"
      << "depth = " << s.model.depth << "\n"
      << "mlp = " << s.model.mlp << "\n"
      << "classes = " << s.model.classes << "\n"
      << "layer_norm_eps = " << s.model.ln_eps << "\n"
      << "position_embeddings = " << (s.model.position ? "yes" : "no (zero, not trained)") << "\n"
      << "init = PyTorch's defaults: weights and biases uniform +-1/sqrt(fan_in), norms 1/0; cls_token, pos_embed "
         "trunc_normal std 0.02\n"
      << "input = x / 255, mean 0.5, std 0.5\n"
      << "checkpoints = step 0, ~4 per doubling of the step, the last, and one every " << s.fast_every
      << " steps while the running training loss falls by >= " << s.fast_drop << " nats\n";
    return o.str();
}

HeldOut make_held_out(const TrainSettings& s) {
    HeldOut h;
    std::mt19937_64 rng(stream_seed(s.seed, kHeldOutStream));
    h.batch.size = s.held_out;
    for (int i = 0; i < s.held_out; ++i) {
        h.samples.push_back(draw_sample(s.task, rng, s.model.image, s.model.patch));
        append_input(h.samples.back().rgb, s.model.image, h.batch.inputs);
        h.batch.labels.push_back(h.samples.back().label);
    }
    return h;
}

BatchStream::BatchStream(const TrainSettings& s)
    : task_(s.task),
      batch_(s.batch),
      image_(s.model.image),
      patch_(s.model.patch),
      rng_(stream_seed(s.seed, kTrainStream)) {}

Batch BatchStream::next() {
    Batch b;
    b.size = batch_;
    for (int i = 0; i < batch_; ++i) {
        const Sample smp = draw_sample(task_, rng_, image_, patch_);
        append_input(smp.rgb, image_, b.inputs);
        b.labels.push_back(smp.label);
    }
    return b;
}

std::vector<int> checkpoint_schedule(int steps) {
    std::set<int> s{0, steps};
    for (int k = 0;; ++k) {
        const int step = static_cast<int>(std::lround(std::pow(2.0, k / 4.0)));
        if (step >= steps) break;
        s.insert(step);
    }
    return {s.begin(), s.end()};
}

TinyVit initial_model(const TrainSettings& s) {
    TinyVit m = make_tiny_vit(s.model);
    std::mt19937_64 rng(stream_seed(s.seed, kInitStream));
    initialise(m, rng);
    return m;
}

LogRow evaluate(const TinyVit& model, const HeldOut& held_out, int threads) {
    const BatchResult r = run_batch(model, held_out.batch, nullptr, threads);
    LogRow row;
    row.loss = r.loss;
    row.accuracy = held_out.batch.size ? static_cast<double>(r.correct) / held_out.batch.size : 0;
    return row;
}

double learning_rate(const TrainSettings& s, int step) {
    if (step <= s.warmup) return s.adamw.lr * step / std::max(1, s.warmup);
    const double t = static_cast<double>(step - s.warmup) / std::max(1, s.steps - s.warmup);
    return s.adamw.lr * (s.lr_end + (1 - s.lr_end) * 0.5 * (1 + std::cos(3.141592653589793 * std::min(1.0, t))));
}

double clip_gradients(Gradients& grads, double max_norm) {
    double sum = 0;
    for (const Floats& g : grads)
        for (float v : g) sum += static_cast<double>(v) * v;
    const double norm = std::sqrt(sum);
    if (max_norm > 0 && norm > max_norm) {
        const float scale = static_cast<float>(max_norm / norm);
        for (Floats& g : grads)
            for (float& v : g) v *= scale;
    }
    return norm;
}

TrainResult train(const TrainSettings& s, const TrainCallbacks& cb, const TaskControl& control) {
    TrainResult result;
    result.model = initial_model(s);
    TinyVit& model = result.model;
    const HeldOut held_out = make_held_out(s);
    BatchStream stream(s);
    AdamW opt(model, s.adamw);
    const std::vector<int> frozen = s.model.position ? std::vector<int>{} : std::vector<int>{kPos};
    const std::vector<int> schedule = checkpoint_schedule(s.steps);
    size_t next_scheduled = 0;
    double running = 0, running_before = 0;  // running mean of the batch loss, and its value fast_every steps ago
    int last_checkpoint = -1;

    auto checkpoint = [&](int step, bool fast) {
        LogRow row = evaluate(model, held_out, s.threads);
        row.step = step;
        row.train_loss = running;
        row.fast = fast;
        result.log.push_back(row);
        last_checkpoint = step;
        if (cb.checkpoint) cb.checkpoint(model, row);
    };

    checkpoint(0, false);
    ++next_scheduled;
    Gradients grads;
    for (int step = 1; step <= s.steps; ++step) {
        if (control.cancelled()) {
            result.cancelled = true;
            break;
        }
        const Batch batch = stream.next();
        const BatchResult r = run_batch(model, batch, &grads, s.threads);
        if (!s.model.position) std::fill(grads[kPos].begin(), grads[kPos].end(), 0.f);  // frozen: not in the norm
        clip_gradients(grads, s.clip);
        opt.step(model, grads, learning_rate(s, step), frozen);
        running = step == 1 ? r.loss : 0.9 * running + 0.1 * r.loss;
        if (cb.step_done) cb.step_done(step, r.loss);
        control.report(step, s.steps);

        const bool scheduled = next_scheduled < schedule.size() && schedule[next_scheduled] == step;
        bool fast = false;
        if (step % s.fast_every == 0) {
            fast = step > s.fast_every && running_before - running >= s.fast_drop &&
                   step - last_checkpoint >= s.fast_every;
            running_before = running;
        }
        if (scheduled) ++next_scheduled;
        if (scheduled || fast) checkpoint(step, !scheduled);
    }
    return result;
}

}  // namespace vit::train
