#include "session/lab/lab_view.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "vit/forward/classes.h"
#include "vit/image/preprocess.h"
#include "vit/train/tasks.h"

namespace session {

std::vector<LabSquare> find_squares(const vit::Image& img, int cell, const std::string& task) {
    std::vector<LabSquare> out;
    if (cell <= 0 || img.width < cell || img.height < cell) return out;
    const int cols = img.width / cell, rows = img.height / cell;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            bool flat = true;
            for (int y = r * cell; y < (r + 1) * cell && flat; ++y)
                for (int x = c * cell; x < (c + 1) * cell && flat; ++x)
                    for (int k = 0; k < 3; ++k) flat &= img.at(x, y, k) == img.at(c * cell, r * cell, k);
            if (!flat) continue;
            LabSquare s;
            s.patch = r * cols + c;
            for (int k = 0; k < 3; ++k) s.rgb[k] = img.at(c * cell, r * cell, k);
            out.push_back(s);
        }
    // The square the task's question is about first: its colour, each channel within 70.
    const vit::train::TaskSpec* spec = vit::train::find_task(task);
    if (spec && spec->asked_about) {
        const vit::train::Rgb c = *spec->asked_about;
        auto asked = [&](const LabSquare& s) {
            for (int k = 0; k < 3; ++k)
                if (std::abs(s.rgb[k] - c[k]) >= 70) return false;
            return true;
        };
        std::stable_partition(out.begin(), out.end(), asked);
    }
    return out;
}

int LabCheckpoint::best_head() const {
    int best = -1;
    for (size_t h = 0; h < heads.size(); ++h)
        if (best < 0 || heads[h].on_task > heads[best].on_task) best = static_cast<int>(h);
    return best;
}

double LabCheckpoint::largest() const {
    double m = 0;
    for (const LabHeadRow& h : heads) m = std::max(m, h.largest);
    return m;
}

std::vector<LabHeadRow> head_rows(const vit::Trace& t, int layer, int query, int square1, int square2) {
    std::vector<LabHeadRow> out;
    const int token = lab_query_token(query, square1, square2);
    if (layer < 0 || layer >= static_cast<int>(t.layers.size()) || token < 0 || token >= t.tokens) return out;
    for (size_t h = 0; h < t.layers[layer].heads.size(); ++h) {
        const vit::Mat& attn = t.layers[layer].heads[h].attn;
        LabHeadRow r;
        r.weights.resize(t.tokens);
        for (int j = 0; j < t.tokens; ++j) {
            r.weights[j] = attn(token, j);
            if (r.weights[j] > r.largest) r.largest = r.weights[j], r.largest_token = j;
        }
        r.shares = shares_of(t, layer, static_cast<int>(h), token, square1, square2);
        r.on_task = task_weight(r.shares, query);
        out.push_back(std::move(r));
    }
    return out;
}

std::shared_ptr<const vit::Trace> run_checkpoint(const vit::Model& model, const vit::Image& sample) {
    const vit::Input input = vit::preprocess(sample, model.config.pre);
    return std::make_shared<const vit::Trace>(vit::forward(model, input));
}

std::string with_thousands(int n) {
    std::string digits = std::to_string(n < 0 ? -n : n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return n < 0 ? "-" + out : out;
}

std::string short_run_warning(const std::string& task, bool position, int steps) {
    const vit::train::TaskSpec* spec = vit::train::find_task(task);
    if (!spec) return "";
    if (!position && spec->swap_flips_label)
        return task +
               " without position embeddings stays at chance (0.5) at any length: swapping the squares "
               "flips its answer, and such a model cannot tell the two apart.";
    if (steps >= spec->learned_by) return "";
    return std::to_string(steps) + " steps is short: the default run (1,000 steps) first passed 0.9 accuracy at step " +
           std::to_string(spec->learned_by) + ", and a shorter run squeezes the schedule; expect about chance (0.5).";
}

namespace {

std::string format(const char* fmt, auto... args) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    return buf;
}

}  // namespace

std::vector<LabSentence> lab_sentences(const LabCheckpoint& first, const LabCheckpoint& now, const LabCheckpoint* pair,
                                       bool pair_position, bool has_squares, int query, const LabSampleFacts& sample) {
    std::vector<LabSentence> out;
    if (first.heads.empty() || now.heads.empty() || !first.trace) return out;
    const int n = first.trace->tokens;
    const int patches = first.trace->grid * first.trace->grid;
    const double even = 1.0 / n;
    const bool cls = query == kQueryCls;
    const char* who = cls ? "the class token" : "the query";

    LabSentence spread;
    spread.kind = "spread";
    spread.step = first.step;
    spread.layer = first.layer;
    spread.value = first.largest();
    spread.baseline = even;
    spread.holds = spread.value <= kEvenRatio * even;
    for (size_t h = 0; h < first.heads.size(); ++h)
        if (first.heads[h].largest == spread.value) spread.head = static_cast<int>(h);
    const std::string step0 = with_thousands(first.step);
    spread.text = spread.holds ? format(
                                     "At step %s %s spreads its weight evenly: largest weight %.3f, where an "
                                     "even spread gives each of the %d tokens %.3f.",
                                     step0.c_str(), who, spread.value, n, even)
                               : format(
                                     "At step %s %s's weight is already uneven: head %d gives one token %.3f "
                                     "(an even spread gives each of the %d tokens %.3f).",
                                     step0.c_str(), who, spread.head, spread.value, n, even);
    out.push_back(spread);

    const std::string step = with_thousands(now.step);
    if (has_squares) {
        LabSentence reach;
        reach.kind = cls ? "class_token" : "other_square";
        reach.step = now.step;
        reach.layer = now.layer;
        reach.head = now.best_head();
        reach.value = now.heads[reach.head].on_task;
        reach.baseline = even_task_share(query, n, patches);
        reach.holds = reach.value >= kReachRatio * reach.baseline;
        const double times = reach.value / reach.baseline;
        if (cls)
            reach.text =
                reach.holds ? format(
                                  "At step %s head %d of layer %d puts %.0f %% of the class token's weight on "
                                  "the two squares, %.0f times the %.1f %% an even share gives them.",
                                  step.c_str(), reach.head, reach.layer, 100 * reach.value, times, 100 * reach.baseline)
                            : format(
                                  "At step %s no head singles out the two squares for the class token: the "
                                  "most is head %d of layer %d's %.1f %% (an even share gives them %.1f %%).",
                                  step.c_str(), reach.head, reach.layer, 100 * reach.value, 100 * reach.baseline);
        else
            reach.text =
                reach.holds ? format(
                                  "At step %s head %d of layer %d puts %.0f %% of the query's weight on the "
                                  "other square, %.0f times the %.1f %% an even spread gives it.",
                                  step.c_str(), reach.head, reach.layer, 100 * reach.value, times, 100 * reach.baseline)
                            : format(
                                  "At step %s no head singles out the other square: the most is head %d of "
                                  "layer %d's %.1f %% (an even spread gives it %.1f %%).",
                                  step.c_str(), reach.head, reach.layer, 100 * reach.value, 100 * reach.baseline);
        out.push_back(reach);
    }

    LabSentence acc;
    acc.kind = "accuracy";
    acc.step = now.step;
    acc.value = now.accuracy;
    acc.baseline = 0.5;
    acc.text = sample.index >= 0
                   ? format("Held-out accuracy at step %s: %.3f (chance: 0.500).", step.c_str(), now.accuracy)
                   : format(
                         "Held-out accuracy at step %s: %.3f (chance: 0.500). On this sample the model answers "
                         "\"%s\" (%.0f %%).",
                         step.c_str(), now.accuracy, now.predicted.c_str(), 100 * now.probability);
    out.push_back(acc);

    if (sample.index >= 0) {
        LabSentence judged;
        judged.kind = "sample";
        judged.step = now.step;
        judged.value = now.probability;
        judged.holds = now.predicted == sample.label;
        judged.text =
            format("Sample %d is \"%s\"; the model answers \"%s\" (%.0f %%): %s.", sample.index, sample.label.c_str(),
                   now.predicted.c_str(), 100 * now.probability, judged.holds ? "right" : "wrong");
        out.push_back(judged);
    }

    if (pair && !pair->heads.empty()) {
        LabSentence p;
        p.kind = "pair";
        p.step = pair->step;
        p.layer = pair->layer;
        p.head = pair->best_head();
        p.value = pair->accuracy;
        p.baseline = 0.5;
        p.text =
            format("%s position embeddings, at step %s: held-out accuracy %.3f; its most is head %d's %.1f %% on %s.",
                   pair_position ? "With" : "Without", with_thousands(pair->step).c_str(), pair->accuracy, p.head,
                   100 * pair->heads[p.head].on_task, cls ? "the two squares" : "the other square");
        if (!has_squares)
            p.text = format("%s position embeddings, at step %s: held-out accuracy %.3f.",
                            pair_position ? "With" : "Without", with_thousands(pair->step).c_str(), pair->accuracy);
        out.push_back(p);
    }
    return out;
}

}  // namespace session
