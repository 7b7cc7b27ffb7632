// "How does the class token gather the image?": CLS as the query in every
// layer (one small map each, as the photo's Map choice shows it, with CLS's
// weight on itself and the prefix), attention rollout's CLS row beside the last
// layer's CLS map, the logit lens (CLS read by the classifier after each
// layer: its top-3 and the final answer's probability), and the token norms
// that explain the corners of late layers (cls_token_norms.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "session/core/shown_rows.h"
#include "ui/questions/cls_token_norms.h"
#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/figure_probe.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/map_view.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"
#include "vit/analysis/cls.h"
#include "vit/analysis/logit_lens.h"
#include "vit/analysis/rollout.h"
#include "vit/base/error.h"

namespace ui {
namespace {

// "on CLS itself: 0.297" under a map `width` wide, wrapped between words.
void on_cls_itself(float weight, float width) {
    char text[48];
    std::snprintf(text, sizeof text, "on CLS itself: %.3f", weight);
    text_wrapped_at_spaces(text, width);
}

class ClsView : public QuestionView {
public:
    void draw(const Frame& f) override;

private:
    void layer_strip(const Frame& f);
    void rollout(const Frame& f);
    void lens(const Frame& f);

    std::vector<MapView> strip_;  // one per layer
    MapView rollout_view_, last_view_;
    // Per photo and model (the rollout comes from the analysis runner: long at large inputs).
    int generation_ = -1;
    std::optional<vit::LogitLens> lens_;
    std::string lens_error_;
};

// Small maps: no grid lines; with fade, the strongest patch fully coloured
// (as the heads panel's thumbnails).
gfx::OverlayStyle small_map_style(const session::AppState& s) {
    gfx::OverlayStyle st = s.style;
    st.show_grid = false;
    if (st.fade) st.opacity = 1.f;
    return st;
}

// "mean of heads" or "head 1": what the maps on this page show, as the photo does.
std::string map_choice(const session::AppState& s) {
    const std::string c = session::shown_caption(s, 0), cut = "· ";
    const size_t at = c.find(cut);  // "Layer 0 · " dropped
    return at == std::string::npos ? c : c.substr(at + cut.size());
}

void ClsView::layer_strip(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const int layers = s.layers();
    strip_.resize(layers);
    char title[160];
    std::snprintf(title, sizeof title, "On this photo: CLS as the query in every layer (%s)", map_choice(s).c_str());
    evidence_heading(f, title);
    note(t.prefix > 1 ? "Under each map: CLS's weight on itself, and on all the tokens before the patches (CLS and the "
                        "registers); the rest of its weight is on the patches. The maps show what the photo's Map "
                        "choice shows. Click a map to go to that layer."
                      : "Under each map: CLS's weight on itself; the rest of its weight is on the patches. The maps "
                        "show what the photo's Map choice shows. Click a map to go to that layer.");

    const float avail = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
    const int per_row = std::clamp(static_cast<int>((avail + gap) / (f.px(96) + gap)), 1, layers);
    const float w = std::floor((avail - gap * (per_row - 1)) / per_row);
    const ImVec2 size = fit_photo(s, ImVec2(w, w));
    const gfx::OverlayStyle style = small_map_style(s);
    const gfx::Marks marks = marks_for(t, 0, -1, -1);
    for (int l = 0; l < layers; ++l) {
        if (l % per_row) ImGui::SameLine();
        ImGui::BeginGroup();
        ImGui::PushID(l);
        const std::optional<vit::Vec> row = session::map_row(t, l, s.sel.source, s.sel.head, s.sel.visible_heads(), 0);
        const MapData map = row ? weights_map(t, *row, style) : MapData{};
        const MapHit hit = strip_[l].show(f, "##cls_map", row ? &map : nullptr, marks, size);
        if (l == s.sel.layer)
            ImGui::GetWindowDrawList()->AddRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                                                ImGui::GetColorU32(colors::accent), 0, 0, f.px(2.5f));
        if (hit.clicked) f.emit(session::act::SetLayer{l});
        if (hit.hovered) ImGui::SetTooltip("layer %d: CLS's weights over the patches", l);
        ImGui::TextColored(l == s.sel.layer ? colors::accent : colors::muted, "layer %d", l);
        if (row) {
            const vit::PrefixWeights p = vit::prefix_weights(t, *row);
            ImGui::PushFont(f.fonts.mono);
            ImGui::Text("self %.3f", p.self);
            if (t.prefix > 1) ImGui::Text("prefix %.3f", p.prefix);
            ImGui::PopFont();
        } else {
            ImGui::TextColored(colors::muted, "no heads");
        }
        ImGui::PopID();
        ImGui::EndGroup();
    }
}

void ClsView::rollout(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const int last = s.layers() - 1;
    evidence_heading(f, "Through all the layers: attention rollout");
    whatif_note(f,
                "A model of the flow, not a number the network computes. Rollout assumes the residual connection is "
                "half of the mixing: each layer (A + I) / 2, A the mean of the heads' weights, rows renormalised, "
                "multiplied from the first layer up (Abnar & Zuidema 2020); the MLPs and values are taken to carry "
                "tokens unchanged.");
    const float gap = ImGui::GetStyle().ItemSpacing.x * 3;
    const float w = std::floor((ImGui::GetContentRegionAvail().x - gap) / 2);
    const ImVec2 size = fit_photo(s, ImVec2(w, std::min(w, f.px(300))));
    const gfx::Marks marks = marks_for(t, 0, -1, -1);
    const auto rolled = analysis<vit::Vec>(f, experiment_key(f, "cls-rollout"), [trace = s.loaded.trace] {
        return vit::Vec(vit::rollout_row(*trace, 0).cast<float>());
    });

    // Each column's text wraps at the column's edge.
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
    ImGui::TextColored(colors::whatif, "Rollout through layer %d", last);
    if (rolled && rolled->value) {
        const MapData map = weights_map(t, *rolled->value, s.style);
        rollout_view_.show(f, "##rollout", &map, marks, size);
        ImGui::PushFont(f.fonts.mono);
        on_cls_itself((*rolled->value)[0], size.x);
        ImGui::PopFont();
    } else {
        ImGui::Dummy(ImVec2(size.x, 0));
        if (rolled) ImGui::TextColored(colors::error, "%s", rolled->error.c_str());
        else computing_note("the rollout");
    }
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
    ImGui::Text("Layer %d alone (%s)", last, map_choice(s).c_str());
    const std::optional<vit::Vec> row = session::map_row(t, last, s.sel.source, s.sel.head, s.sel.visible_heads(), 0);
    if (row) {
        const MapData map = weights_map(t, *row, s.style);
        last_view_.show(f, "##last", &map, marks, size);
        ImGui::PushFont(f.fonts.mono);
        on_cls_itself(vit::prefix_weights(t, *row).self, size.x);
        ImGui::PopFont();
    } else {
        ImGui::TextColored(colors::muted, "No heads visible.");
    }
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    note(
        "Colours relative to each map's largest patch weight (the photo's scale setting). The last layer alone shows "
        "only the last mixing step; rollout follows the earlier layers too.");
}

void ClsView::lens(const Frame& f) {
    const session::AppState& s = f.s;
    evidence_heading(f, "The logit lens: CLS read by the classifier after each layer");
    if (!lens_) {
        note(("No logit lens for this model: " + bounded(lens_error_) +
              ". The maps above still show how CLS gathers the image.")
                 .c_str());
        return;
    }
    const vit::Model& m = *s.loaded.model;
    // In an axis and a column header: the class's first name ("Pembroke, Pembroke Welsh corgi"), and no
    // more than a header can hold beside the table's other columns (a config's name may be 1000 bytes).
    const std::string final_full = vit::label_of(m, lens_->final_top1);
    const std::string final_label = bounded(final_full.substr(0, final_full.find(',')), 32);
    note(
        "CLS as it leaves each block, put through the final LayerNorm and the classifier head, as if the network "
        "stopped there. After the last block it is the model's own answer.");
    PlotSeries p{PlotSeries::Kind::Line, "", {}, {}, colors::accent};
    PlotSeries dots{PlotSeries::Kind::Dots, "", {}, {}, colors::accent};
    for (const vit::LensLayer& l : lens_->layers) {
        p.x.push_back(l.layer), p.y.push_back(l.final_top1_probability);
        dots.names.push_back("after layer " + std::to_string(l.layer));
        if (l.layer == s.sel.layer) dots.highlight = static_cast<int>(p.x.size()) - 1;
    }
    dots.x = p.x, dots.y = p.y;
    PlotAxes axes;
    axes.x_label = "after layer";
    axes.y_label = "p(" + final_label + ")";
    axes.x_lo = -0.5, axes.x_hi = s.layers() - 0.5;
    axes.y_lo = 0, axes.y_hi = 1;
    axes.x_integer = true;
    const PlotHit hit = plot(f, "##lens", ImVec2(ImGui::GetContentRegionAvail().x, f.px(170)), axes, {p, dots});
    if (hit.clicked && hit.series == 1) f.emit(session::act::SetLayer{lens_->layers[hit.index].layer});

    if (ImGui::BeginTable("##lens_table", 5,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("after layer", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn(("p(" + final_label + ")").c_str(), ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("1st");
        ImGui::TableSetupColumn("2nd");
        ImGui::TableSetupColumn("3rd");
        wrapped_headers_row();
        for (const vit::LensLayer& l : lens_->layers) {
            ImGui::TableNextRow();
            const ImVec4 colour = l.layer == s.sel.layer ? colors::accent : ImGui::GetStyleColorVec4(ImGuiCol_Text);
            ImGui::TableNextColumn();
            ImGui::TextColored(colour, "%d", l.layer);
            ImGui::TableNextColumn();
            ImGui::PushFont(f.fonts.mono);
            ImGui::TextColored(colour, "%.4f", l.final_top1_probability);
            ImGui::PopFont();
            for (size_t i = 0; i < 3; ++i) {
                ImGui::TableNextColumn();
                if (i >= l.top.size()) continue;
                const std::string label = bounded(vit::label_of(m, l.top[i].index));
                // Long ImageNet names ("Pembroke, Pembroke Welsh corgi") keep their first name, wrapped in the cell.
                const std::string shown = bounded(label.substr(0, label.find(',')), 100);
                char text[160];
                std::snprintf(text, sizeof text, "%.2f %s", l.top[i].probability, shown.c_str());
                text_in_cell(l.top[i].index == lens_->final_top1 ? colors::ok : colour, text);
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: %.4f", label.c_str(), l.top[i].probability);
            }
        }
        end_figure_table();
    }
    note(
        "Green: the model's final answer. Measured on this photo: on another photo the answer can appear earlier or "
        "later. The earlier layers were never trained to be read this way, so their classes say what CLS resembles, "
        "not what the network has decided.");
}

void ClsView::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    if (generation_ != s.loaded.generation) {
        try {
            lens_ = vit::logit_lens(*s.loaded.model, t, 3);
            lens_error_.clear();
        } catch (const vit::Error& e) {
            lens_.reset();
            lens_error_ = e.what();
        }
        generation_ = s.loaded.generation;
    }
    layer_strip(f);
    rollout(f);
    lens(f);
    cls_token_norms_section(f);
}

}  // namespace

std::unique_ptr<QuestionView> make_cls_view() { return std::make_unique<ClsView>(); }

}  // namespace ui
