// The follow-up questions' numbers as CSV (`vitscope explain --question NAME
// --csv OUT.csv`): why sqrt(d_k), what heads buy, why quadratic, how CLS
// aggregates (with rollout and head ablation on their own). The column
// contracts are in docs/command-line-and-python.md; every number comes from src/vit.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/csv_field.h"
#include "app/explain_questions.h"
#include "app/progress.h"
#include "vit/analysis/cls.h"
#include "vit/analysis/head_ablation.h"
#include "vit/analysis/global.h"
#include "vit/analysis/heads.h"
#include "vit/analysis/high_norm_distance.h"
#include "vit/analysis/logit_lens.h"
#include "vit/analysis/quadratic.h"
#include "vit/analysis/rollout.h"
#include "vit/analysis/scaling.h"
#include "vit/analysis/token_norms.h"
#include "vit/base/error.h"
#include "vit/forward/classes.h"

namespace app {
namespace {

// printf into a string ("%.9g" for numbers: a float32 exactly).
__attribute__((format(printf, 1, 2))) std::string format(const char* format, ...) {
    char text[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    return text;
}

// --sizes 224,448 (default: the page's list for the model's patch size).
std::vector<int> timing_sizes(const ExplainInput& in) {
    if (!in.args.has("--sizes")) return vit::default_timing_sizes(in.photo.model);
    const std::string text = in.args.get("--sizes");
    std::vector<int> sizes;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        char* end = nullptr;
        const long v = item.empty() ? 0 : std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v < 1 || v > 4096)
            throw vit::Error(
                "--sizes expects input sizes in pixels (1..4096) separated by commas, e.g. 224,448; got '" + text +
                "'");
        sizes.push_back(static_cast<int>(v));
        start = comma + 1;
    }
    return sizes;
}

}  // namespace

// The Jacobian columns are for one query: --patch / --query, CLS if neither.
std::string explain_scaling(const ExplainInput& in) {
    const vit::Trace& t = in.photo.trace;
    const vit::ScalingTable s = vit::scaling_table(t);
    const int query = in.args.has("--patch") || in.args.has("--query") ? query_token(in.args, t) : 0;
    std::string out;
    for (int l = 0; l < s.raw_std.rows(); ++l)
        for (int h = 0; h < s.raw_std.cols(); ++h) {
            const vit::QueryScaling q = vit::query_scaling(t, l, h, query);
            out += format("%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", l, h, s.raw_std(l, h), s.scaled_std(l, h),
                          s.saturated_raw(l, h), s.saturated_scaled(l, h), q.raw.jacobian_norm, q.scaled.jacobian_norm);
        }
    return out;
}

// Beside each distance, the same with the high-norm tokens entering the layer left out
// (vit/analysis/high_norm_distance.h), and the share of weight they take.
std::string explain_heads(const ExplainInput& in) {
    const vit::Trace& t = in.photo.trace;
    const Eigen::MatrixXd distance = vit::mean_attention_distances(t, in.photo.model.patch);
    const Eigen::MatrixXd spread = vit::mean_spreads(t);
    std::string out;
    for (int l = 0; l < distance.rows(); ++l) {
        const std::vector<double> beyond = vit::mean_mass_beyond(t, l, 3);
        for (int h = 0; h < distance.cols(); ++h) {
            const vit::HighNormDistance d = vit::distance_without_high_norm(t, l, h, in.photo.model.patch, 3);
            out += format("%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", l, h, distance(l, h), spread(l, h), d.distance_px,
                          beyond[h], d.beyond, d.high_norm_share);
        }
    }
    return out;
}

std::string explain_quadratic(const ExplainInput& in) {
    const vit::Model& model = in.photo.model;
    const vit::TimingRun run = vit::measure_forward_times(model, in.photo.image, timing_sizes(in), 3,
                                                          stderr_progress("timing the forward pass"));
    std::string out;
    for (const vit::TimingPoint& p : run.points) {
        const vit::AttentionSize s = vit::attention_size(model, p.input_size);
        out += format("%d,%d,%lld,%lld,%.9g,%.9g\n", p.input_size, s.tokens, s.attention_weights, s.attention_bytes,
                      1e3 * p.linear_seconds, 1e3 * p.attention_seconds);
    }
    return out;
}

std::string explain_cls(const ExplainInput& in) {
    const vit::LogitLens lens = vit::logit_lens(in.photo.model, in.photo.trace);
    const Eigen::VectorXd self = vit::cls_weights(in.photo.trace).self_mean;
    const std::vector<vit::LayerNorms> norms = vit::token_norms(in.photo.trace);
    std::string out;
    for (const vit::LensLayer& l : lens.layers) {
        const vit::LayerNorms& n = norms[l.layer];
        std::string high;  // token indices, space-separated
        for (int j : n.high) {
            if (!high.empty()) high += ' ';
            high += std::to_string(j);
        }
        out += format("%d,%.9g,", l.layer, self[l.layer]) + csv_field(vit::label_of(in.photo.model, l.top[0].index)) +
               format(",%.9g,%.9g,%.9g,%.9g,", l.top[0].probability, l.final_top1_probability, n.median_patch_norm,
                      n.top_over_median) +
               high + format(",%.9g,%.9g\n", n.cls_weight_on_high, n.patch_weight_on_high);
    }
    return out;
}

std::string explain_rollout(const ExplainInput& in) {
    const vit::Trace& t = in.photo.trace;
    const Eigen::VectorXd r = vit::rollout_row(t, 0);
    std::string out;
    for (int j = 0; j < t.tokens; ++j) out += format("%d,%d,%d,%.9g\n", j, t.row_of(j), t.col_of(j), r[j]);
    return out;
}

std::string explain_ablation(const ExplainInput& in) {
    const vit::Model& model = in.photo.model;
    if (in.args.has("--mean-heads"))
        throw vit::Error("--question ablation removes one head: give --head H, not --mean-heads");
    const int layer = in.args.get_int("--layer", 0, model.depth - 1);
    const int head = in.args.get_int("--head", 0, model.heads - 1);
    const vit::HeadRemoved removed = vit::remove_head(model, in.photo.input, in.photo.trace.logits, layer, head, 5);
    std::string out;
    for (size_t r = 0; r < removed.before.size(); ++r) {
        const vit::ClassProbability &before = removed.before[r], &after = removed.after[r];
        out += format("%zu,%.9g,", r + 1, before.probability) + csv_field(label_of(model, before.index)) +
               format(",%.9g,", after.probability) + csv_field(label_of(model, after.index)) + "\n";
    }
    return out;
}

}  // namespace app
