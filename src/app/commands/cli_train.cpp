// vitscope train --task NAME -o RUN [--steps N] [--seed S] [--no-position] [--threads T] [--lr X] [--force]
// vitscope train --task NAME [--seed S] [--no-position] --check-gradients DIR [--force]
// Trains a tiny ViT from scratch on a synthetic task (vit/train). RUN is
// written in a temporary folder beside it and renamed into place at the end,
// so RUN is never half written; Ctrl+C stops between steps and keeps the
// checkpoints made so far. --check-gradients writes the first batch, the
// initial model and the gradient of every tensor, for tests/vit/train/train_gradients_test.py.
#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "app/subcommands.h"
#include "app/cli_output_rules.h"
#include "app/npy.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/base/printable.h"
#include "vit/base/temporaries.h"
#include "vit/train/checkpoint_io.h"
#include "vit/train/run_folder.h"
#include "vit/train/trainer.h"

namespace fs = std::filesystem;

namespace app {
namespace {

constexpr int kMaxSteps = 100000;  // ~6 hours here: more is a typing mistake

std::atomic<bool> g_interrupted{false};
void on_interrupt(int) {
    if (g_interrupted.exchange(true)) {  // a second Ctrl+C: stop now, keeping nothing (RUN.tmp-PID removed)
        vit::temporaries::remove_all_now();
        static const char note[] = "interrupted again: stopped at once, nothing kept\n";
        (void)!::write(2, note, sizeof note - 1);
        _exit(130);
    }
}

// SIGINT/SIGTERM set a flag for as long as this lives (the loop stops between steps).
struct InterruptFlag {
    struct sigaction old_int {
    }, old_term{};
    InterruptFlag() {
        struct sigaction sa {};
        sa.sa_handler = on_interrupt;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &old_int);
        sigaction(SIGTERM, &sa, &old_term);
    }
    ~InterruptFlag() {
        sigaction(SIGINT, &old_int, nullptr);
        sigaction(SIGTERM, &old_term, nullptr);
    }
};

double parse_lr(const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end || !(v > 0 && v <= 0.1))
        throw vit::Error("--lr must be a number in (0, 0.1], not '" + text + "'");
    return v;
}

vit::train::TrainSettings settings_from(const CliArgs& args) {
    vit::train::TrainSettings s;
    if (!args.has("--task")) throw vit::Error("train needs --task NAME (" + vit::train::task_names(" or ") + ")");
    s.task = vit::train::parse_task(args.get("--task"));
    s.steps = args.get_int_opt("--steps", 1, kMaxSteps).value_or(s.steps);
    s.seed = static_cast<uint64_t>(args.get_int_opt("--seed", 0, 2147483647).value_or(1));
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    s.threads = args.get_int_opt("--threads", 1, 256).value_or(cores);
    if (args.has("--lr")) s.adamw.lr = parse_lr(args.get("--lr"));
    s.model.position = !args.has("--no-position");
    s.model.classes = static_cast<int>(vit::train::task_labels(s.task).size());
    return s;
}

// The folder an option names, refused before any work where it cannot be
// written: "-", a missing parent, and (in vit::OutputFolder) an existing
// folder, which only --force replaces and only when it is a run train wrote.
std::string folder_option(const CliArgs& args, const std::string& option) {
    const std::string path = args.get(option);
    if (path.empty()) throw vit::Error("missing " + option + " value");
    if (path == "-") throw vit::Error(option + " -: train writes a folder, not a stream; name a folder");
    return path;
}

void write_file(const std::string& path, const std::string& bytes) {
    vit::OutputRules rules;
    rules.force = true;
    vit::write_output(path, bytes, rules);
}

int check_gradients(const CliArgs& args, const vit::train::TrainSettings& s) {
    using namespace vit::train;
    const std::string dir = folder_option(args, "--check-gradients");
    vit::OutputFolder out(dir, cli_output_rules(args));  // a new folder: --force replaces no gradients folder
    const TinyVit model = initial_model(s);
    BatchStream stream(s);
    const Batch batch = stream.next();
    Gradients grads;
    const BatchResult r = run_batch(model, batch, &grads, s.threads);

    fs::create_directory(out.temp_path() + "/init");
    write_model_folder(model, task_labels(s.task), out.temp_path() + "/init");
    const int side = s.model.image;
    write_file(out.temp_path() + "/inputs.npy", encode_npy({batch.size, 3, side, side}, batch.inputs.data()));
    const std::vector<int64_t> labels(batch.labels.begin(), batch.labels.end());
    write_file(out.temp_path() + "/labels.npy", encode_npy({batch.size}, labels.data()));
    for (size_t i = 0; i < model.tensors.size(); ++i)
        write_file(out.temp_path() + "/grad." + model.tensors[i].name + ".npy",
                   encode_npy(model.tensors[i].shape, grads[i].data()));
    write_file(out.temp_path() + "/loss.txt", std::to_string(r.loss) + "\n");
    out.commit();
    std::fprintf(stderr, "gradients of %zu tensors for a batch of %d (loss %.6f) in %s\n", model.tensors.size(),
                 batch.size, r.loss, vit::printable(dir).c_str());
    return 0;
}

// --benchmark: training steps per second on batches drawn beforehand, with
// no held-out evaluation and no checkpoints (scripts/bench_train.py compares
// it with PyTorch). Writes nothing; one line on standard output.
int benchmark(const vit::train::TrainSettings& s, int steps) {
    using namespace vit::train;
    TinyVit model = initial_model(s);
    BatchStream stream(s);
    std::vector<Batch> batches;
    for (int i = 0; i < 4; ++i) batches.push_back(stream.next());
    AdamW opt(model, s.adamw);
    Gradients grads;
    auto step = [&](int i) {
        run_batch(model, batches[i % batches.size()], &grads, s.threads);
        clip_gradients(grads, s.clip);
        opt.step(model, grads, s.adamw.lr);
    };
    for (int i = 0; i < 3; ++i) step(i);  // warm-up: allocations, caches
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) step(i);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("steps %d threads %d batch %d seconds %.3f steps_per_second %.3f\n", steps, s.threads, s.batch, seconds,
                steps / seconds);
    return 0;
}

}  // namespace

// Every step allocates and frees the same activation buffers (a few MB): by
// default glibc hands blocks over 128 KiB back to the kernel at once, and the
// next step's page faults took a quarter of the time (perf). Kept in the
// process instead; this process only trains.
static void keep_freed_memory() {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

int cmd_train(const CliArgs& args) {
    using namespace vit::train;
    keep_freed_memory();
    const TrainSettings s = settings_from(args);
    if (args.has("--benchmark")) {
        if (args.has("--output") || args.has("--check-gradients"))
            throw vit::Error("--benchmark writes nothing: leave out -o and --check-gradients");
        return benchmark(s, args.get_int_opt("--steps", 1, kMaxSteps).value_or(30));
    }
    if (args.has("--check-gradients")) {
        if (args.has("--output")) throw vit::Error("--check-gradients writes no run: leave out -o");
        return check_gradients(args, s);
    }
    if (!args.has("--output")) throw vit::Error("train needs -o RUN (a new folder for the run)");
    const std::string run = folder_option(args, "--output");
    const std::vector<std::string> labels = task_labels(s.task);
    // Written whole beside RUN and moved into place at the end; --force replaces only an earlier run.
    vit::OutputFolder out(run, cli_output_rules(args), why_not_a_run);

    // Ctrl+C from here on stops between steps; before the first checkpoint nothing is kept.
    g_interrupted = false;
    InterruptFlag flag;
    write_file(out.temp_path() + "/config", describe(s));
    // Every held-out sample (512 PNGs of 64 x 64 px, about 6 MB): the lab's timeline can show any of them.
    write_samples(make_held_out(s), labels, s.held_out, s.model.image, out.temp_path());

    std::fprintf(stderr, "training a %lld-parameter ViT on %s for %d steps (batch %d, %d threads) into %s\n",
                 static_cast<long long>(initial_model(s).parameter_count()), task_name(s.task).c_str(), s.steps,
                 s.batch, s.threads, vit::printable(run).c_str());
    std::vector<LogRow> log;
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    double last_report = -1;
    TrainCallbacks cb;
    cb.checkpoint = [&](const TinyVit& model, const LogRow& row) {
        // The folder is complete before log.csv names it: a stop in between leaves an unlisted folder, never a listed
        // half one.
        const std::string step_dir = out.temp_path() + "/" + step_folder_name(row.step);
        fs::create_directory(step_dir);
        write_model_folder(model, labels, step_dir);
        log.push_back(row);
        write_file(out.temp_path() + "/log.csv", log_csv(log));
        std::fprintf(stderr, "step %6d/%d  held-out loss %.4f  accuracy %.3f  (%.0f s)%s\n", row.step, s.steps,
                     row.loss, row.accuracy, seconds(), row.fast ? "  [loss falling fast]" : "");
    };
    cb.step_done = [&](int step, double loss) {
        const double t = seconds();
        if (t - last_report < 10 && step != s.steps) return;
        last_report = t;
        std::fprintf(stderr, "  step %d/%d  batch loss %.4f  %.2f steps/s\n", step, s.steps, loss, step / t);
    };
    vit::TaskControl control;
    control.cancel = &g_interrupted;
    const TrainResult result = train(s, cb, control);
    if (log.empty()) {  // stopped before step 0's checkpoint: nothing to keep (out removes its folder)
        std::fprintf(stderr, "interrupted before the first checkpoint: %s not written\n", vit::printable(run).c_str());
        return 130;
    }
    // A folder that appeared at RUN meanwhile wins; this run is kept beside it, under a name it prints.
    const std::string kept = out.commit_beside();
    const bool beside = kept != out.path();
    if (beside)
        std::fprintf(stderr, "vitscope: warning: %s appeared while training and is left as it was; this run is in %s\n",
                     vit::printable(run).c_str(), vit::printable(kept).c_str());
    const std::string shown = beside ? kept : run;
    const LogRow& last = log.back();
    if (result.cancelled) {
        std::fprintf(stderr, "interrupted: %s keeps the checkpoints up to step %d (held-out accuracy %.3f)\n",
                     vit::printable(shown).c_str(), last.step, last.accuracy);
        return 130;
    }
    std::fprintf(stderr, "done in %.0f s: held-out accuracy %.3f at step %d; checkpoints in %s/step_*\n", seconds(),
                 last.accuracy, last.step, vit::printable(shown).c_str());
    return beside ? 1 : 0;  // 1: done, but not where asked
}

}  // namespace app
