// "Does the attention map explain the prediction?": for a class the learner
// picks (the top-5 or any by name or index), four maps side by side (the
// last layer's CLS attention and rollout, the same for every class; gradient-
// weighted rollout and occlusion, computed for the class), then the
// perturbation curves that judge them against a random order, then the
// published result. Every number comes from vit::relevance_study.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/figure_probe.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/color_bar.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/map_view.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"
#include "vit/analysis/perturbation.h"
#include "vit/base/error.h"
#include "vit/forward/classes.h"

namespace ui {
namespace {

constexpr uint32_t kRandomSeed = 0;  // the random order's seed, as `vitscope explain` without --seed

struct MethodInfo {
    const char* method;  // as vit::perturbation_maps names it
    const char* title;   // above its map and in the legend
    const char* what;    // under its map
    bool class_specific;
    int series;  // its colour: colors::series[series]
};
constexpr int kMaps = 4;
const MethodInfo kMethods[] = {
    {"attention_last", "Last layer's attention",
     "CLS's weights in the last layer, mean of the heads. The same for every class.", false, 0},
    {"rollout", "Attention rollout",
     "CLS's row of rollout through every layer (a model of the flow). The same for every class.", false, 1},
    {"grad_rollout", "Gradient-weighted rollout",
     "Each layer's weights times d logit / d weight, negatives dropped, heads averaged, rolled out (Chefer et al. "
     "2021). "
     "For this class.",
     true, 2},
    {"occlusion", "Occlusion",
     "How much p(class) drops when that patch alone is set to 0 (one forward pass per patch). For this class. Red: "
     "removing the patch lowers p(class) (the class uses it); blue: removing it raises p(class); white: no change.",
     true, 3},
    {"random", "Random order", "The baseline: patches in a seeded random order.", false, 4},
};

const char* title_of(const std::string& method) {
    for (const MethodInfo& m : kMethods)
        if (method == m.method) return m.title;
    return method.c_str();
}

class RelevanceView : public QuestionView {
public:
    void draw(const Frame& f) override;

private:
    void class_picker(const Frame& f, int cls);
    void maps(const Frame& f, const vit::RelevanceStudy& study, const std::string& label);
    void curves(const Frame& f, const vit::RelevanceStudy& study, const std::string& label);
    void published(const Frame& f);

    std::array<MapView, kMaps> views_;
    std::string started_;
    char class_text_[96] = "";
    std::string class_error_;
};

// The class on show: the state's choice when this model has it, else the top-1.
int shown_class(const session::AppState& s) {
    const int classes = s.loaded.model->num_classes();
    if (s.relevance_class >= 0 && s.relevance_class < classes) return s.relevance_class;
    return s.loaded.top5.empty() ? 0 : s.loaded.top5[0].index;
}

void RelevanceView::class_picker(const Frame& f, int cls) {
    const session::AppState& s = f.s;
    if (f.figure) {  // a slide names the class; it has nothing to click
        ImGui::Text("Explaining the class \"%s\" (class %d).", vit::label_of(*s.loaded.model, cls).c_str(), cls);
        return;
    }
    ImGui::TextUnformatted("Explain the class:");
    // Each choice's centre goes to the state file ("class 207"), so tests can click it.
    std::vector<session::PageTarget> targets;
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (const vit::ClassScore& c : s.loaded.top5) {
        char text[160];
        std::snprintf(text, sizeof text, "%s (%.2f)", bounded(c.label.substr(0, c.label.find(',')), 100).c_str(),
                      c.probability);
        // On the same line while it fits in the panel, else on the next.
        const ImGuiStyle& st = ImGui::GetStyle();
        const float width = ImGui::GetFrameHeight() + st.ItemInnerSpacing.x + ImGui::CalcTextSize(text).x;
        if (ImGui::GetItemRectMax().x + st.ItemSpacing.x + width <= right) ImGui::SameLine();
        if (ImGui::RadioButton(text, c.index == cls)) f.emit(session::act::SetRelevanceClass{c.index});
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s: class %d, p = %.4f", bounded(c.label).c_str(), c.index, c.probability);
        targets.push_back(last_item_target("class " + std::to_string(c.index)));
    }
    if (!f.figure) f.drawn.page_targets = targets;
    ImGui::SetNextItemWidth(f.px(220));
    const bool entered = ImGui::InputTextWithHint("##class", "or any class: name or index", class_text_,
                                                  sizeof class_text_, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button("Show") || entered) {
        try {
            f.emit(session::act::SetRelevanceClass{vit::find_class(*s.loaded.model, class_text_)});
            class_error_.clear();
        } catch (const vit::Error& e) {
            class_error_ = e.what();
        }
    }
    if (!class_error_.empty()) ImGui::TextColored(colors::error, "%s", bounded(class_error_).c_str());
}

void RelevanceView::maps(const Frame& f, const vit::RelevanceStudy& study, const std::string& label) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    char heading[200];
    std::snprintf(heading, sizeof heading, "On this photo: four maps for \"%s\" (p = %.4f)", label.c_str(),
                  study.maps.probability);
    evidence_heading(f, heading);
    const Eigen::VectorXd* values[kMaps] = {&study.maps.attention_last, &study.maps.rollout, &study.maps.grad_rollout,
                                            &study.maps.occlusion};
    const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
    const float avail = ImGui::GetContentRegionAvail().x;
    const int per_row = avail > f.px(4 * 170) ? 4 : 2;
    const float w = std::floor((avail - gap * (per_row - 1)) / per_row);
    // Over each map its title (bold, wrapped in the map's width).
    const auto titles_at = [&](float h) {
        const float width = fit_photo(s, ImVec2(w, h)).x;
        float title_h = 0;
        ImGui::PushFont(f.fonts.bold);
        for (const MethodInfo& m : kMethods)
            title_h = std::max(title_h, ImGui::CalcTextSize(m.title, nullptr, false, width).y);
        ImGui::PopFont();
        return title_h;
    };
    const ImVec2 size = fit_photo(s, ImVec2(w, maps_height_above_fold(f, w, titles_at)));
    gfx::OverlayStyle style = s.style;
    style.normalization = gfx::Normalization::RowMax;  // each map against its own largest patch
    style.show_grid = false;
    for (int i = 0; i < kMaps; ++i) {
        const MethodInfo& m = kMethods[i];
        if (i % per_row) ImGui::SameLine(0, gap);
        ImGui::BeginGroup();
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
        ImGui::PushFont(f.fonts.bold);
        text_wrapped_at_spaces(m.class_specific ? colors::ok : ImGui::GetStyleColorVec4(ImGuiCol_Text), m.title,
                               size.x);
        ImGui::PopFont();
        vit::Vec row = vit::Vec::Zero(t.tokens);  // the prefix tokens have no place on the photo
        row.tail(values[i]->size()) = values[i]->cast<float>();
        // Occlusion can be negative (a patch whose removal helps the class): a diverging map.
        const MapData map = m.class_specific && i == 3 ? signed_map(t, row, style) : weights_map(t, row, style);
        ImGui::PushID(i);
        views_[i].show(f, "##relevance_map", &map, gfx::Marks{}, size);
        // Each map's own scale: the colours of two maps are not comparable.
        static const char* const kUnits[kMaps] = {"CLS's weight", "rollout weight", "relevance", "drop in p(class)"};
        color_bar(f, map, size.x, kUnits[i]);
        ImGui::PopID();
        ImGui::TextColored(colors::muted, "%s", m.what);
        ImGui::PopTextWrapPos();
        ImGui::EndGroup();
    }
    whatif_note(f,
                "Occlusion runs the network on altered photos (one patch set to 0), and rollout is a model of the "
                "flow: neither is a number the network computes on this photo. Colours: each map against its own "
                "largest value, read on its own colour bar; occlusion's from blue through white (0) to red, as far "
                "below 0 as above.");
}

void RelevanceView::curves(const Frame& f, const vit::RelevanceStudy& study, const std::string& label) {
    evidence_heading(f, "Which map ranks the patches the class needs? Perturbation tests");
    note(
        "Remove patches (set them to 0 in the normalised input) in the order a map ranks them, 10 % more at each step "
        "up to 90 %, and run the network again. Most relevant first (left): a map that found what the class needs "
        "makes p fall fast, so a lower area is better. Least relevant first (right): a higher area is better. A "
        "random order is the baseline a map has to beat.");
    whatif_note(f, "Every point but the first is the network on a photo with patches removed.");
    const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
    const float w = std::floor((ImGui::GetContentRegionAvail().x - gap) / 2);
    for (bool positive : {true, false}) {
        std::vector<PlotSeries> series;
        for (const vit::PerturbationCurve& c : study.test.curves) {
            if (c.positive != positive) continue;
            PlotSeries line{PlotSeries::Kind::Line, title_of(c.method), {}, c.probability, {}};
            for (const MethodInfo& m : kMethods)
                if (c.method == m.method) line.color = colors::series[m.series];
            for (size_t i = 0; i < c.probability.size(); ++i)
                line.x.push_back(static_cast<double>(i) / vit::kPerturbationSteps);
            series.push_back(std::move(line));
        }
        PlotAxes axes;
        axes.x_label = positive ? "fraction removed, most relevant first" : "fraction removed, least relevant first";
        axes.y_label = "p(" + label + ")";
        axes.x_lo = 0, axes.x_hi = 0.9;
        axes.y_lo = 0, axes.y_hi = 1;
        if (!positive) ImGui::SameLine(0, gap);
        plot(f, positive ? "##positive" : "##negative", ImVec2(w, f.px(260)), axes, series);
    }
    if (begin_table_fitting(f, "##areas", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV, 560,
                            static_cast<int>(std::size(kMethods)) + 3)) {
        ImGui::TableSetupColumn(
            "map", ImGuiTableColumnFlags_WidthFixed);  // as wide as the longest name: the numbers share the rest
        ImGui::TableSetupColumn("area x 100, most relevant first (lower is better)");
        ImGui::TableSetupColumn("least relevant first (higher is better)");
        wrapped_headers_row();
        for (const MethodInfo& m : kMethods) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(colors::series[m.series], "%s", m.title);
            ImGui::PushFont(f.fonts.mono);
            for (bool positive : {true, false}) {
                ImGui::TableNextColumn();
                const double a = vit::area_of(study.test, m.method, positive);
                if (std::isfinite(a)) ImGui::Text("%6.2f", 100 * a);
                else ImGui::TextColored(colors::muted, "—");
            }
            ImGui::PopFont();
        }
        end_figure_table();
    }
    if (study.cancelled) {
        ImGui::TextColored(colors::whatif, "Stopped before every curve was finished: no verdict.");
        return;
    }
    // A winner only when the rule in vit::clear_winner names one: ahead of the
    // next map and of every random seed by the stated margin.
    for (bool positive : {true, false}) {
        const vit::PerturbationWinner w = vit::clear_winner(study.test, positive, vit::random_areas(study, positive));
        const char* order = positive ? "Most relevant first" : "Least relevant first";
        char text[600];
        if (w.best.empty() || w.runner_up.empty() || w.random_areas.empty()) {
            std::snprintf(text, sizeof text, "%s: not every curve was completed, no verdict.", order);
        } else {
            char why[300];
            std::snprintf(why, sizeof why,
                          "%s %.2f against %s %.2f; random order %.2f to %.2f over %zu seeds; the margin needed %.2f, "
                          "the larger of 10 %% of the runner-up's area and the random orders' spread",
                          title_of(w.best), 100 * w.best_area, title_of(w.runner_up), 100 * w.runner_up_area,
                          100 * *std::min_element(w.random_areas.begin(), w.random_areas.end()),
                          100 * *std::max_element(w.random_areas.begin(), w.random_areas.end()), w.random_areas.size(),
                          100 * w.margin);
            if (!w.winner.empty())
                std::snprintf(text, sizeof text, "%s: %s is the clear winner on this photo (%s, %s).", order,
                              title_of(w.winner), positive ? "lowest area" : "highest area", why);
            else std::snprintf(text, sizeof text, "%s: no clear winner on this photo (%s).", order, why);
        }
        text_wrapped_at_spaces(text);
    }
    note(
        "One photo: a map that wins here may lose on the next. Pick another class above; the two maps on the "
        "left stay the same, because attention weights are computed before the classifier sees anything.");
}

void RelevanceView::published(const Frame& f) {
    evidence_heading(f, "In general: what the published test found");
    note(
        "Chefer, Gur & Wolf (ICCV 2021), ViT-B/16 on the ImageNet validation set, the predicted class, area under the "
        "curve x 100 as patches are removed: least relevant first (higher is better) rollout 53.1, GradCAM 41.52, "
        "gradient-weighted relevance 54.16; most relevant first (lower is better) gradient-weighted relevance 17.03. "
        "Their curves average top-1 accuracy over 50 000 photos; the curves above follow one class's probability "
        "on one photo with a smaller model (ViT-Ti by default), so compare the ordering of the maps, not the numbers.");
}

void RelevanceView::draw(const Frame& f) {
    const session::AppState& s = f.s;
    if (s.loaded.model->num_classes() == 0) {
        note("This model has no classifier: there is no prediction to explain. Open a classification checkpoint.");
        return;
    }
    const int cls = shown_class(s);
    const std::string label = bounded(vit::label_of(*s.loaded.model, cls), 100);  // in headings and sentences
    // Classroom mode leads with the maps: the class picker goes under them.
    const bool maps_first = s.classroom && !f.figure;
    if (!maps_first) class_picker(f, cls);
    const std::string key = experiment_key(f, "relevance-c" + std::to_string(cls));
    const session::ExperimentJob job = [model = s.loaded.model, input = s.loaded.input, trace = s.loaded.trace,
                                        cls](const vit::TaskControl& c) {
        return std::static_pointer_cast<const void>(std::make_shared<const vit::RelevanceStudy>(
            vit::relevance_study(*model, *input, *trace, cls, kRandomSeed, c)));
    };
    if (!f.figure) start_once(f, started_, key, job);
    const int forwards = vit::relevance_study_forwards(s.trace()->grid * s.trace()->grid);
    char button[120];
    std::snprintf(button, sizeof button, "Compute the maps and curves (1 backward, %d forward passes)", forwards);
    if (!experiment_controls(f, button, key, job)) {
        if (maps_first) class_picker(f, cls);
        published(f);
        return;
    }
    const auto study = s.experiments.result<vit::RelevanceStudy>(key);
    if (study->maps.cancelled) {
        ImGui::TextColored(colors::whatif, "Stopped after %d of %d patches occluded.", study->maps.occlusion_done,
                           static_cast<int>(study->maps.occlusion.size()));
        ImGui::SameLine();
        if (ImGui::SmallButton("Compute it all")) f.emit(session::cmd::RunExperiment{key, job});
        if (maps_first) class_picker(f, cls);
        published(f);
        return;
    }
    maps(f, *study, label);
    if (maps_first) class_picker(f, cls);
    curves(f, *study, label);
    published(f);
}

}  // namespace

std::unique_ptr<QuestionView> make_relevance_view() { return std::make_unique<RelevanceView>(); }

}  // namespace ui
