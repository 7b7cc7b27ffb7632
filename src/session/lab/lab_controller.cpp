#include "session/lab/lab_controller.h"

#include <filesystem>
#include <thread>

#include "session/core/output_rules.h"
#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"
#include "vit/forward/classes.h"
#include "vit/train/tasks.h"

namespace fs = std::filesystem;

namespace session {
namespace {

// "lab_same_colour", then "lab_same_colour_2", ... : the first free name in dir.
std::string free_run_name(const std::string& dir, const std::string& base) {
    std::error_code ec;
    for (int i = 1;; ++i) {
        const fs::path p = fs::path(dir) / (i == 1 ? base : base + "_" + std::to_string(i));
        if (!fs::exists(fs::symlink_status(p, ec))) return p.string();
    }
}

}  // namespace

std::optional<LabExplore> LabController::handle(AppState& s, const LabCommand& a) {
    LabState& lab = s.lab;
    if (auto* x = std::get_if<lab::OpenRun>(&a)) {
        open_run(s, x->dir);
    } else if (auto* x = std::get_if<lab::SetTraining>(&a)) {
        vit::train::parse_task(x->task);  // an unknown task: one line, nothing changed
        if (x->steps < 1 || x->steps > kMaxLabSteps)
            throw vit::Error("steps must be 1 .. " + std::to_string(kMaxLabSteps) + ", not " +
                             std::to_string(x->steps));
        std::error_code ec;
        if (!x->dir.empty() && !fs::is_directory(x->dir, ec))
            throw vit::Error(x->dir + ": no such folder for the runs");
        lab.train_task = x->task;
        lab.train_position = x->position;
        lab.train_steps = x->steps;
        lab.train_dir = x->dir;
    } else if (std::holds_alternative<lab::Train>(a)) {
        vit::train::TrainSettings settings;
        settings.task = vit::train::parse_task(lab.train_task);
        settings.steps = lab.train_steps;
        settings.model.position = lab.train_position;
        settings.model.classes = static_cast<int>(vit::train::task_labels(settings.task).size());
        // One core is the window's: training takes the rest (at least one).
        settings.threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
        const std::string dir = lab.train_dir.empty() ? s.export_dir : lab.train_dir;
        const std::string run =
            free_run_name(dir, "lab_" + lab.train_task + (lab.train_position ? "" : "_no_position"));
        trainer_.start(settings, run, output_rules(s, false));
        lab.training = trainer_.view();
    } else if (std::holds_alternative<lab::CancelTraining>(a)) {
        trainer_.cancel();
    } else if (std::holds_alternative<lab::NextWrongSample>(a)) {
        if (!lab.run) throw vit::Error("no run open in the lab");
        next_wrong_sample(lab);
    } else if (std::holds_alternative<lab::Explore>(a)) {
        if (!lab.run) throw vit::Error("no run open in the lab");
        lab.open = false;
        return LabExplore{lab.run->checkpoint_dir(lab.checkpoint), lab.run->sample_path(lab.sample)};
    }
    return std::nullopt;
}

void LabController::open_run(AppState& s, const std::string& dir) {
    auto run = read_lab_run(dir);  // throws before anything changes
    std::shared_ptr<const LabRun> pair;
    if (const std::string p = find_pair_run(*run); !p.empty()) pair = read_lab_run(p);
    LabState& lab = s.lab;
    lab.open = true;
    lab.run = run;
    lab.pair = pair;
    lab.checkpoint = 0;
    lab.sample = 0;
    lab.layer = -1;
    lab.query_square = 0;
    lab.swap = false;
    lab.error.clear();
    lab.notice.clear();
    lab.series.clear();
    computed_.clear();
    series_for_.clear();
}

std::shared_ptr<const vit::Model> LabController::model(const std::string& dir) {
    auto it = models_.find(dir);
    if (it != models_.end()) return it->second;
    auto m = std::make_shared<const vit::Model>(vit::load_model(dir));
    models_.emplace(dir, m);
    return m;
}

LabCheckpoint LabController::checkpoint(const LabRun& run, size_t index, const vit::Image& sample, int layer, int query,
                                        int square1, int square2) {
    LabCheckpoint c;
    const vit::train::LogRow& row = run.log.at(index);
    c.step = row.step;
    c.accuracy = row.accuracy;
    c.loss = row.loss;
    const auto m = model(run.checkpoint_dir(index));
    c.trace = run_checkpoint(*m, sample);
    c.layer = std::clamp(layer, 0, static_cast<int>(c.trace->layers.size()) - 1);
    c.heads = head_rows(*c.trace, c.layer, query, square1, square2);
    if (const auto top = vit::top_classes(*m, *c.trace, 1); !top.empty()) {
        c.predicted = top[0].label;
        c.probability = top[0].probability;
    }
    return c;
}

void LabController::next_wrong_sample(LabState& lab) {
    const LabRun& run = *lab.run;
    const auto m = model(run.checkpoint_dir(lab.checkpoint));
    const int n = static_cast<int>(run.samples.size());
    for (int i = 1; i <= n; ++i) {
        const int index = (lab.sample + i) % n;
        const auto trace = run_checkpoint(*m, vit::load_image(run.sample_path(index)));
        const auto top = vit::top_classes(*m, *trace, 1);
        if (!top.empty() && top[0].label != run.sample_labels[index]) {
            lab.sample = index;
            lab.notice.clear();
            return;
        }
    }
    lab.notice = "At step " + with_thousands(run.log[lab.checkpoint].step) + " the model answers all " +
                 std::to_string(n) + " samples right: no wrong sample.";
}

void LabController::sync(AppState& s) {
    LabState& lab = s.lab;
    lab.training = trainer_.view();
    // A run the window finished training opens in the lab by itself.
    if (!lab.training.finished.empty() && lab.training.finished != adopted_run_) {
        adopted_run_ = lab.training.finished;
        try {
            open_run(s, adopted_run_);
        } catch (const std::exception& e) {
            lab.error = e.what();
        }
    }
    if (!lab.open || !lab.run) return;
    const std::string key = lab.run->dir + "|" + (lab.pair ? lab.pair->dir : "") + "|" +
                            std::to_string(lab.checkpoint) + "|" + std::to_string(lab.layer) + "|" +
                            std::to_string(lab.sample) + "|" + std::to_string(lab.query_square) + "|" +
                            std::to_string(lab.swap);
    if (key == computed_) return;
    computed_ = key;
    try {
        const LabRun& run = *lab.run;
        const std::string path = run.sample_path(lab.sample);
        if (!lab.sample_image || lab.sample_image_path != path) {
            lab.sample_image = std::make_shared<const vit::Image>(vit::load_image(path));
            lab.sample_image_path = path;
            ++lab.sample_generation;
        }
        const vit::Image& img = *lab.sample_image;
        const auto first_model = model(run.checkpoint_dir(0));
        lab.squares = find_squares(img, first_model->patch, run.task);
        lab.sample_label = run.sample_labels.at(lab.sample);
        const int prefix = first_model->prefix_tokens();
        const bool two = lab.squares.size() == 2;
        lab.square1 = lab.squares.empty() ? -1 : prefix + lab.squares[0].patch;
        lab.square2 = two ? prefix + lab.squares[1].patch : -1;
        const int query = two ? lab.query_square : lab.squares.empty() ? kQueryCls : kQuerySquare1;
        lab.query = lab_query_token(query, lab.square1, lab.square2);
        lab.other = query == kQuerySquare1 ? lab.square2 : query == kQuerySquare2 ? lab.square1 : -1;
        // Every checkpoint on the sample, once per run and sample: the curves, auto and the positions read it.
        if (const std::string for_ = run.dir + "|" + path; for_ != series_for_) {
            lab.series =
                run_numbers(run, img, lab.square1, lab.square2, [this](const std::string& dir) { return model(dir); });
            series_for_ = for_;
        }
        // Auto: the layer (and head) singling out the task's squares most at the step shown.
        int layer = lab.layer;
        if (layer < 0) layer = two ? pick_head(lab.series.at(lab.checkpoint).shares, query).layer : 0;
        lab.first = checkpoint(run, 0, img, layer, query, lab.square1, lab.square2);
        lab.now = checkpoint(run, lab.checkpoint, img, layer, query, lab.square1, lab.square2);
        lab.shown_layer = lab.now.layer;
        lab.shown_head = std::max(0, lab.now.best_head());
        lab.moment.reset();
        if (two)
            lab.moment = learned_moment(lab.series, lab.shown_layer, lab.shown_head, query, lab.now.trace->tokens,
                                        lab.now.trace->grid * lab.now.trace->grid);
        lab.pair_now.reset();
        if (lab.pair)
            lab.pair_now = checkpoint(*lab.pair, lab.pair->checkpoint_at(lab.now.step), img, layer, query, lab.square1,
                                      lab.square2);
        lab.sentences =
            lab_sentences(lab.first, lab.now, lab.pair_now ? &*lab.pair_now : nullptr, lab.pair && lab.pair->position,
                          two, query, LabSampleFacts{lab.sample, lab.sample_label});
        if (lab.moment) {
            LabSentence m;
            m.kind = "moment";
            m.step = lab.moment->learned_step;
            m.layer = lab.moment->layer;
            m.head = lab.moment->head;
            m.value = lab.moment->learned_weight;
            m.baseline = lab.moment->threshold;
            m.holds = lab.moment->learned_step >= 0;
            m.text = moment_sentence(*lab.moment);
            lab.sentences.push_back(m);
        }
        if (const auto& pos = lab.series.at(lab.checkpoint).positions; pos || !run.position) {
            LabSentence p;
            p.kind = "positions";
            p.step = lab.now.step;
            p.holds = pos && pos->holds();
            p.value = pos ? pos->near - pos->far : 0;
            p.baseline = kPositionMargin;
            p.text = position_sentence(pos ? &*pos : nullptr, lab.now.step);
            lab.sentences.push_back(p);
        }
        lab.swapped.reset();
        if (lab.swap && two) {
            lab.swapped =
                run_swap(*model(run.checkpoint_dir(lab.checkpoint)), img, lab.squares[0].patch, lab.squares[1].patch);
            const vit::train::TaskSpec* spec = vit::train::find_task(run.task);
            LabSentence w;
            w.kind = "swap";
            w.step = lab.now.step;
            w.value = lab.swapped->cls_difference;
            w.baseline = kSwapTolerance;
            w.holds = run.position ? lab.swapped->answer_flips() : lab.swapped->cls_difference <= kSwapTolerance;
            w.text = swap_sentence(*lab.swapped, run.position, spec && spec->swap_flips_label);
            lab.sentences.push_back(w);
        }
        lab.error = two ? ""
                        : "this sample has " + std::to_string(lab.squares.size()) +
                              " flat squares, not 2: no other square to follow";
    } catch (const std::exception& e) {
        lab.error = e.what();
        lab.sentences.clear();
        lab.now = {};
    }
}

}  // namespace session
