// "Why divide by √dₖ?": the spread of one head's scores with and without the
// scaling, how sharp the selected query's softmax is either way (with the
// Jacobian that carries gradients), how often rows saturate in every head, and
// the model-free control that q·k of unit-variance vectors spreads like √dₖ.
#include <cmath>
#include <cstdio>
#include <memory>

#include "ui/questions/head_dots.h"
#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/figure_probe.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/number_table.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/bounded_text.h"
#include "vit/analysis/scaling.h"

namespace ui {
namespace {

class ScalingView : public QuestionView {
public:
    void draw(const Frame& f) override;

private:
    int histogram_key_[3] = {-1, -1, -1};  // generation, layer, head
    vit::ScoreHistogram histogram_;
};

std::vector<double> centres(const std::vector<double>& edges) {
    std::vector<double> c;
    for (size_t i = 0; i + 1 < edges.size(); ++i) c.push_back(0.5 * (edges[i] + edges[i + 1]));
    return c;
}

std::vector<double> as_doubles(const std::vector<long long>& v) { return {v.begin(), v.end()}; }

void saturation_plot(const Frame& f, const vit::ScalingTable& table, float w) {
    std::vector<double> layer_x, share_scaled, share_raw;
    for (int li = 0; li < static_cast<int>(table.saturated_raw.rows()); ++li)
        for (int hi = 0; hi < static_cast<int>(table.saturated_raw.cols()); ++hi) {
            layer_x.push_back(head_dot_x(li, hi, static_cast<int>(table.saturated_raw.cols())));
            share_raw.push_back(table.saturated_raw(li, hi));
            share_scaled.push_back(table.saturated_scaled(li, hi));
        }
    std::vector<PlotSeries> sat = {
        {PlotSeries::Kind::Dots, "without ÷√dₖ (what-if)", layer_x, share_raw, colors::whatif},
        {PlotSeries::Kind::Dots, "with ÷√dₖ (the model)", layer_x, share_scaled, colors::accent},
    };
    PlotAxes sat_axes;
    sat_axes.x_label = "layer (one dot per head)";
    sat_axes.y_label = "share of rows saturated";
    sat_axes.y_lo = 0, sat_axes.y_hi = 1;
    sat_axes.x_integer = true;
    plot(f, "##saturation", ImVec2(w, f.px(170)), sat_axes, sat);
}

void ScalingView::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const int l = s.sel.layer, h = s.sel.head;
    // The table walks every row of every head: seconds at a large input, so off the window's thread.
    const auto table = analysis<vit::ScalingTable>(f, experiment_key(f, "scaling-table"),
                                                   [trace = s.loaded.trace] { return vit::scaling_table(*trace); });
    if (histogram_key_[0] != s.loaded.generation || histogram_key_[1] != l || histogram_key_[2] != h) {
        histogram_ = vit::score_histogram(t, l, h);
        histogram_key_[0] = s.loaded.generation, histogram_key_[1] = l, histogram_key_[2] = h;
    }
    const float w = ImGui::GetContentRegionAvail().x;

    char title[128];
    std::snprintf(title, sizeof title, "On this photo: the %d × %d scores of layer %d, head %d", t.tokens, t.tokens, l,
                  h);
    evidence_heading(f, title);
    const double sqrt_dk = std::sqrt(static_cast<double>(t.head_dim));
    char spread[160];
    std::snprintf(spread, sizeof spread, "spread (std) of q·k: %.2f     of q·k/√dₖ: %.2f     √dₖ = %.0f",
                  histogram_.raw_std, histogram_.scaled_std, sqrt_dk);
    text_wrapped_at_spaces(spread);
    // What the spread beside it supports: "near unit spread" only when it is.
    char said[320];
    if (vit::near_unit_spread(histogram_.scaled_std))
        std::snprintf(said, sizeof said,
                      "The scaled spread %.2f is near the unit spread that unit-variance q and k would give (within a "
                      "factor of %.0f of 1).",
                      histogram_.scaled_std, vit::kUnitSpreadFactor);
    else
        std::snprintf(said, sizeof said,
                      "The scaled spread is %.2f, not 1: the division took out the factor √dₖ = %.0f that adding dₖ "
                      "products brings; what remains is how large training made this head's q and k.",
                      histogram_.scaled_std, sqrt_dk);
    note(said);
    const std::vector<double> x = centres(histogram_.edges);
    std::vector<PlotSeries> hist = {
        {PlotSeries::Kind::Line, "raw q·k", x, as_doubles(histogram_.raw_counts), colors::whatif},
        {PlotSeries::Kind::Line, "scaled q·k/√dₖ (the model)", x, as_doubles(histogram_.scaled_counts), colors::accent},
    };
    PlotAxes axes;
    axes.x_label = "score";
    axes.y_label = "scores";
    plot(f, "##hist", ImVec2(w, height_above_fold(f, f.px(190), f.px(140))), axes, hist);

    evidence_heading(f, "The selected query's softmax");
    const vit::QueryScaling q = vit::query_scaling(t, l, h, s.sel.query);
    if (NumberTable table{f,
                          "##query",
                          "",
                          {"largest weight", "spread (keys)", "‖Jacobian‖"},
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp,
                          "0.0000"}) {
        const auto row = [&](const char* name, const vit::SoftmaxSharpness& x, ImVec4 colour) {
            table.row(name, colour);
            table.number("%.4f", x.max_weight);
            table.number("%.1f", x.spread_keys);
            table.number("%.4f", x.jacobian_norm);
        };
        row("with ÷√dₖ (the model)", q.scaled, colors::accent);
        row("without (what-if)", q.raw, colors::whatif);
    }
    // By the unscaled_top_weight rule (value >= 0.9), as the tour's scaling step.
    note(vit::query_scaling_sentence(q).c_str());
    note(
        "The Jacobian of the softmax, diag(a) − a aᵀ, is how much the weights move when the scores move: it "
        "carries the gradient in training. As one weight approaches 1 it approaches zero, and no gradient flows "
        "back through that row.");

    evidence_heading(f, "Every head of this photo: rows whose largest weight exceeds 0.99");
    if (table && table->value) {
        saturation_plot(f, *table->value, w);
        const vit::ScalingSummary r = vit::scaling_summary(*table->value);
        char range[400];
        std::snprintf(range, sizeof range,
                      "Over this photo's %d heads: %.1f %% of all their query rows saturate without the scaling "
                      "(what-if), %.1f %% with it. Their scaled spread runs from %.2f to %.2f; %d of them are within a "
                      "factor of %.0f of "
                      "unit spread.",
                      r.heads, 100 * r.saturated_raw, 100 * r.saturated_scaled, r.min_scaled_std, r.max_scaled_std,
                      r.near_unit, vit::kUnitSpreadFactor);
        note(range);
    } else if (table) {
        ImGui::TextColored(colors::error, "%s", bounded(table->error).c_str());
    } else {
        computing_note("every head's rows");
    }

    evidence_heading(f, "In general, with no model: q·k of random unit-variance vectors");
    const std::string key = "dot-product-control";
    const bool have = experiment_controls(f, "Measure (10 000 pairs per size)", key, [](const vit::TaskControl&) {
        return std::static_pointer_cast<const void>(
            std::make_shared<const std::vector<vit::DotProductSpread>>(vit::dot_product_control()));
    });
    if (have) {
        const auto rows = s.experiments.result<std::vector<vit::DotProductSpread>>(key);
        if (ImGui::BeginTable("##control", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
            ImGui::TableSetupColumn("dₖ");
            ImGui::TableSetupColumn("measured std of q·k");
            ImGui::TableSetupColumn("√dₖ");
            wrapped_headers_row();
            ImGui::PushFont(f.fonts.mono);
            for (const vit::DotProductSpread& r : *rows) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::Text("%d", r.d_k);
                ImGui::TableNextColumn();
                ImGui::Text("%.3f", r.measured_std);
                ImGui::TableNextColumn();
                ImGui::Text("%.3f", r.theory_std);
            }
            ImGui::PopFont();
            end_figure_table();
        }
    }
}

}  // namespace

std::unique_ptr<QuestionView> make_scaling_view() { return std::make_unique<ScalingView>(); }

}  // namespace ui
