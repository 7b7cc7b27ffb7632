// "What do several heads buy?": how far each head of each layer looks (mean
// attention distance, a dot per head; click one to go there), how widely the
// heads of the selected layer spread and how different they are, and the
// what-if of removing one head (its top-5 before and after, and the table of
// every head's effect on the top-1 probability, computed on request).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/figure_probe.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"
#include "vit/analysis/head_ablation.h"
#include "vit/analysis/heads.h"
#include "vit/analysis/high_norm_distance.h"
#include "vit/base/error.h"

namespace ui {
namespace {

class HeadsView : public QuestionView {
public:
    void draw(const Frame& f) override;

private:
    void distance_plot(const Frame& f, const Eigen::MatrixXd& distances, const std::string& late_note);
    void layer_table(const Frame& f, const Eigen::MatrixXd& distances, const Eigen::MatrixXd& spreads,
                     const Eigen::MatrixXd& jsd);
    void head_removal(const Frame& f);
    void removal_table(const Frame& f);

    int removed_head_ = -1;  // the head whose removal is shown (of the selected layer)
};

// Every layer and head of the photo (a walk over every row of every head:
// long at a large input, so computed off the window's thread).
struct HeadNumbers {
    Eigen::MatrixXd distance, spread;
    std::string late_note;  // late_layers_note's sentence
};

// What the plot says about late layers, checked without the high-norm tokens
// (they sit in the corners, far from most queries): the ViT paper's Fig. 7
// reading only where it holds so.
std::string late_layers_note(const vit::Trace& t, int patch) {
    vit::LateLayersFar far;
    try {
        far = vit::late_layers_look_far(t, patch);
    } catch (const vit::Error&) {
        return "Measured on this photo.";
    }
    char text[700];
    std::string out = "Measured on this photo. ";
    if (far.first_high_norm >= 0) {
        std::snprintf(text, sizeof text,
                      "From layer %d on, high-norm tokens (patch vectors at least 10 times the median's, mostly in "
                      "the corners) enter the layers and take %.0f–%.0f %% of the patch queries' weight: the dots "
                      "count them as far. Left out, ",
                      far.first_high_norm, 100 * far.least_share, 100 * far.most_share);
        out += text;
    } else {
        out += "No high-norm token enters any layer here, and ";
    }
    if (far.holds)
        std::snprintf(text, sizeof text,
                      "every head of layers %d on averages at least the median head's %.0f px (the nearest, layer "
                      "%d head %d, %.0f px): as in the ViT paper's Fig. 7 over many images, late layers look far.",
                      far.first_late, far.median_px, far.nearest_layer, far.nearest_head, far.nearest_px);
    else
        std::snprintf(text, sizeof text,
                      "layer %d head %d averages %.0f px, under the median head's %.0f px: on this photo the late "
                      "layers do not all look far, unlike the ViT paper's Fig. 7 over many images.",
                      far.nearest_layer, far.nearest_head, far.nearest_px, far.median_px);
    return out + text;
}

// The x of head h's dot: its layer, the heads side by side around it so they
// can be told apart and clicked.
double dot_x(int layer, int head, int heads) { return layer + 0.5 * (head - 0.5 * (heads - 1)) / std::max(2, heads); }

void HeadsView::distance_plot(const Frame& f, const Eigen::MatrixXd& distances, const std::string& late_note) {
    const session::AppState& s = f.s;
    const int layers = static_cast<int>(distances.rows()), heads = static_cast<int>(distances.cols());
    const int patch = s.loaded.model->patch, input = s.loaded.input->size;
    evidence_heading(f, "On this photo: how far each head looks");
    char text[400];
    std::snprintf(text, sizeof text,
                  "Mean attention distance: for each patch query, the distance to every patch key (between patch "
                  "centres, in pixels of the %d px model input) weighted by the attention weight, averaged over the "
                  "queries. CLS and register keys are left out and the weights renormalised over the patches.",
                  input);
    note(text);

    PlotSeries dots{PlotSeries::Kind::Dots, "", {}, {}, colors::accent};
    std::vector<std::pair<int, int>> which;  // (layer, head) of each dot
    double top = 0;
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h) {
            if (l == s.sel.layer && h == s.sel.head) dots.highlight = static_cast<int>(dots.x.size());
            dots.x.push_back(dot_x(l, h, heads));
            dots.y.push_back(distances(l, h));
            char name[48];
            std::snprintf(name, sizeof name, "layer %d, head %d", l, h);
            dots.names.push_back(name);
            which.push_back({l, h});
            top = std::max(top, distances(l, h));
        }
    PlotAxes axes;
    axes.x_label = "layer (a dot per head: click one)";
    axes.y_label = "distance (px)";
    axes.x_lo = -0.5, axes.x_hi = layers - 0.5;
    axes.y_lo = 0, axes.y_hi = std::max(patch, static_cast<int>(std::ceil(top * 1.1)));
    axes.x_integer = true;
    const PlotHit hit =
        plot(f, "##distance", ImVec2(ImGui::GetContentRegionAvail().x, height_above_fold(f, f.px(210), f.px(150))),
             axes, {dots});
    if (hit.clicked && hit.index >= 0) {
        f.emit(session::act::SetLayer{which[hit.index].first});
        f.emit(session::act::SetHead{which[hit.index].second});
    }
    // Where each dot is, for tests that click one.
    std::vector<session::PageTarget> targets;
    for (size_t i = 0; i < which.size(); ++i) {
        const ImVec2 p = hit.to_screen(dots.x[i], dots.y[i]);
        char name[32];
        std::snprintf(name, sizeof name, "L%d H%d", which[i].first, which[i].second);
        targets.push_back({name, p.x, p.y});
    }
    f.drawn.page_targets = targets;
    note(late_note.c_str());
}

void HeadsView::layer_table(const Frame& f, const Eigen::MatrixXd& distances, const Eigen::MatrixXd& spreads,
                            const Eigen::MatrixXd& jsd) {
    const session::AppState& s = f.s;
    const int l = s.sel.layer, heads = static_cast<int>(distances.cols());
    char title[96];
    std::snprintf(title, sizeof title, "The heads of layer %d side by side", l);
    evidence_heading(f, title);
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_BordersInnerV;
    if (ImGui::BeginTable("##layer_heads", 3 + heads, flags, ImVec2(0, table_height(heads + 1)))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        ImGui::TableSetupColumn("head");
        ImGui::TableSetupColumn("distance (px)");
        ImGui::TableSetupColumn("spread (keys)");
        for (int h = 0; h < heads; ++h) ImGui::TableSetupColumn(("JSD with " + std::to_string(h)).c_str());
        wrapped_headers_row();
        for (int h = 0; h < heads; ++h) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            char label[32];
            std::snprintf(label, sizeof label, "head %d", h);
            if (ImGui::Selectable(label, h == s.sel.head && s.sel.source == session::MapSource::Head,
                                  ImGuiSelectableFlags_SpanAllColumns))
                f.emit(session::act::SetHead{h});
            ImGui::PushFont(f.fonts.mono);
            ImGui::TableNextColumn();
            ImGui::Text("%.1f", distances(l, h));
            ImGui::TableNextColumn();
            ImGui::Text("%.1f", spreads(l, h));
            for (int g = 0; g < heads; ++g) {
                ImGui::TableNextColumn();
                if (g == h) ImGui::TextColored(colors::muted, "—");
                else ImGui::Text("%.3f", jsd(h, g));
            }
            ImGui::PopFont();
        }
        end_figure_table();
    }
    note(
        "Spread: 1 / Σ a² of a query's weights a, in keys (1 = all on one key, N = even over N), averaged over the "
        "patch queries. "
        "JSD: the Jensen–Shannon divergence between two heads' weights for the same query, in bits (0 = the same "
        "weights, 1 = no key in common), averaged over the patch queries.");
}

void HeadsView::head_removal(const Frame& f) {
    const session::AppState& s = f.s;
    const int l = s.sel.layer, heads = s.heads();
    // A figure has no buttons: with no head removed there is nothing to show, and no prompt to click one.
    if (f.figure && removed_head_ < 0) return;
    char title[96];
    std::snprintf(title, sizeof title, "Remove one head of layer %d", l);
    evidence_heading(f, title);
    whatif_note(f,
                "Not what the model computes: the head's output is set to zero before the output projection and "
                "the rest of the network runs on.");
    if (removed_head_ >= heads) removed_head_ = -1;
    auto key_of = [&](int h) {
        return experiment_key(f, "remove-head-L" + std::to_string(l) + "-H" + std::to_string(h));
    };
    const session::ExperimentsView& x = s.experiments;
    for (int h = 0; h < heads && !f.figure; ++h) {  // buttons: not in a figure for print
        char label[32];
        std::snprintf(label, sizeof label, "Remove head %d", h);
        if (h) same_line_if_fits(button_width(label));
        const bool chosen = h == removed_head_;
        if (chosen) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::Button(label)) {
            removed_head_ = h;
            if (!x.results.count(key_of(h)))
                f.emit(
                    session::cmd::RunExperiment{key_of(h), [model = s.loaded.model, input = s.loaded.input,
                                                            trace = s.loaded.trace, l, h](const vit::TaskControl&) {
                                                    return std::static_pointer_cast<const void>(
                                                        std::make_shared<const vit::HeadRemoved>(
                                                            vit::remove_head(*model, *input, trace->logits, l, h, 5)));
                                                }});
        }
        if (chosen) ImGui::PopStyleColor();
    }
    if (!x.running.empty() && x.running.rfind("remove-head", 0) != 0)
        ImGui::TextColored(colors::muted, "(another experiment is running: removing a head stops it)");
    if (removed_head_ < 0) {
        note("Choose a head: one more forward pass with that head removed.");
        return;
    }
    const std::string key = key_of(removed_head_);
    if (x.is_running(key)) {
        ImGui::TextColored(colors::muted, "Running the network without head %d…", removed_head_);
        return;
    }
    const auto r = x.result<vit::HeadRemoved>(key);
    if (!r) {
        if (!x.error.empty()) ImGui::TextColored(colors::error, "%s", bounded(x.error).c_str());
        return;
    }
    const vit::Model& m = *s.loaded.model;
    if (ImGui::BeginTable("##removed", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("rank", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("the model", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("");
        ImGui::TableSetupColumn("without the head", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("");
        wrapped_headers_row();
        for (size_t i = 0; i < std::max(r->before.size(), r->after.size()); ++i) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%zu", i + 1);
            auto cell = [&](const std::vector<vit::ClassProbability>& v, ImVec4 colour) {
                ImGui::TableNextColumn();
                if (i < v.size()) {
                    ImGui::PushFont(f.fonts.mono);
                    ImGui::TextColored(colour, "%.4f", v[i].probability);
                    ImGui::PopFont();
                }
                ImGui::TableNextColumn();
                ImGui::PushTextWrapPos(0);  // long class names wrap in their cell
                if (i < v.size()) ImGui::TextColored(colour, "%s", bounded(vit::label_of(m, v[i].index)).c_str());
                ImGui::PopTextWrapPos();
            };
            cell(r->before, ImGui::GetStyleColorVec4(ImGuiCol_Text));
            cell(r->after, colors::whatif);
        }
        end_figure_table();
    }
    ImGui::TextWrapped("The model's top-1, %s (p = %.4f), changes by %+.4f without head %d.",
                       vit::label_of(m, r->before[0].index).c_str(), r->before[0].probability, r->top1_change,
                       removed_head_);
}

// A change as a cell colour: red where removing the head lowers the top-1
// probability, blue where it raises it, stronger for larger changes.
ImU32 change_colour(double v, double largest) {
    if (!std::isfinite(v) || largest <= 0) return 0;
    const float a = static_cast<float>(std::min(1.0, std::abs(v) / largest)) * 0.85f;
    return ImGui::GetColorU32(v < 0 ? ImVec4(0.85f, 0.22f, 0.18f, a) : ImVec4(0.20f, 0.45f, 0.95f, a));
}

void HeadsView::removal_table(const Frame& f) {
    const session::AppState& s = f.s;
    const int layers = s.layers(), heads = s.heads();
    evidence_heading(f, "Every head removed in turn: the change in the top-1 probability");
    char label[96];
    std::snprintf(label, sizeof label, "Compute the table (%d forward passes)", 1 + layers * heads);
    const std::string key = experiment_key(f, "ablation-table");
    const session::ExperimentJob job = [model = s.loaded.model, input = s.loaded.input](const vit::TaskControl& c) {
        return std::static_pointer_cast<const void>(
            std::make_shared<const vit::AblationTable>(vit::ablation_table(*model, *input, c)));
    };
    const bool have = experiment_controls(f, label, key, job);
    if (!have) return;
    const auto t = s.experiments.result<vit::AblationTable>(key);
    const vit::Model& m = *s.loaded.model;
    ImGui::TextWrapped(
        "Top-1 of the model: %s, p = %.4f. Each cell: its probability with that head removed, minus %.4f.",
        vit::label_of(m, t->top1_class).c_str(), t->top1_probability, t->top1_probability);
    if (t->cancelled && !s.experiments.is_running(key)) {
        ImGui::TextColored(colors::whatif, "Stopped after %d of %d heads: the rest are blank.", t->done,
                           layers * heads);
        if (!f.figure) {
            ImGui::SameLine();
            if (ImGui::SmallButton("Compute it all")) f.emit(session::cmd::RunExperiment{key, job});
        }
    }
    double largest = 0;
    for (int i = 0; i < t->top1_change.size(); ++i)
        if (std::isfinite(t->top1_change.data()[i])) largest = std::max(largest, std::abs(t->top1_change.data()[i]));
    const ImGuiTableFlags flags =
        ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX | ImGuiTableFlags_BordersInner;
    if (ImGui::BeginTable("##ablation", 1 + heads, flags, ImVec2(0, table_height(layers + 1)))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        ImGui::TableSetupColumn("layer");
        for (int h = 0; h < heads; ++h) ImGui::TableSetupColumn(("head " + std::to_string(h)).c_str());
        wrapped_headers_row();
        for (int l = 0; l < layers; ++l) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(l == s.sel.layer ? colors::accent : colors::muted, "%d", l);
            ImGui::PushFont(f.fonts.mono);
            for (int h = 0; h < heads; ++h) {
                ImGui::TableNextColumn();
                const double v = t->top1_change(l, h);
                ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, change_colour(v, largest));
                char text[384];  // "%+.4f" of any double fits (GCC counts 341 bytes at worst)
                if (std::isfinite(v)) std::snprintf(text, sizeof text, "%+.4f##%d_%d", v, l, h);
                else std::snprintf(text, sizeof text, "##%d_%d", l, h);
                // The selected head is outlined: a selection colour would hide the cell's own.
                if (ImGui::Selectable(text, false)) {
                    f.emit(session::act::SetLayer{l});
                    f.emit(session::act::SetHead{h});
                }
                if (l == s.sel.layer && h == s.sel.head)
                    ImGui::GetWindowDrawList()->AddRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                                                        ImGui::GetColorU32(colors::accent), 0, 0, f.px(2));
            }
            ImGui::PopFont();
        }
        end_figure_table();
    }
    note(
        "Red: removing the head lowers the probability of the model's answer; blue: raises it. Click a cell to go to "
        "that head. Measured on this photo; another photo can rely on other heads.");
}

void HeadsView::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const int layer = s.sel.layer;
    const auto numbers =
        analysis<HeadNumbers>(f, experiment_key(f, "heads-distance"),
                              [trace = s.loaded.trace, patch = s.loaded.model->patch] {
                                  return HeadNumbers{vit::mean_attention_distances(*trace, patch),
                                                     vit::mean_spreads(*trace), late_layers_note(*trace, patch)};
                              });
    const auto jsd =
        analysis<Eigen::MatrixXd>(f, experiment_key(f, "heads-jsd-L" + std::to_string(layer)),
                                  [trace = s.loaded.trace, layer] { return vit::head_divergences(*trace, layer); });
    if (numbers && numbers->value) {
        distance_plot(f, numbers->value->distance, numbers->value->late_note);
    } else {
        evidence_heading(f, "On this photo: how far each head looks");
        if (numbers) ImGui::TextColored(colors::error, "%s", bounded(numbers->error).c_str());
        else computing_note("every head's mean attention distance");
    }
    if (numbers && numbers->value && jsd && jsd->value) {
        layer_table(f, numbers->value->distance, numbers->value->spread, *jsd->value);
    } else if (jsd && !jsd->value) {
        ImGui::TextColored(colors::error, "%s", bounded(jsd->error).c_str());
    } else {
        computing_note("how the heads of this layer differ");
    }
    if (s.loaded.model->num_classes() == 0) {
        evidence_heading(f, "Removing a head");
        note("This model has no classifier head: there are no classes whose probability removing a head could change.");
        return;
    }
    head_removal(f);
    removal_table(f);
}

}  // namespace

std::unique_ptr<QuestionView> make_heads_view() { return std::make_unique<HeadsView>(); }

}  // namespace ui
