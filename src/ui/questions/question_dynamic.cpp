// "Are the weights fixed, like a kernel?": the same query position on two
// photos (the second from File > Compare with…) gives two different maps, with
// their Jensen-Shannon divergence; and a what-if that moves the photo's
// content by whole patches shows the weights moving with it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ui/questions/question_compare.h"
#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/input_picture.h"
#include "ui/widgets/map_card.h"
#include "ui/widgets/map_view.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/number_table.h"
#include "vit/analysis/attention_rows.h"
#include "vit/analysis/dynamic.h"
#include "vit/analysis/divergence.h"
#include "vit/image/input_image.h"

namespace ui {
namespace {

// The moved-content experiment's result: the three runs and the shifted input as a picture.
struct ShiftResult {
    vit::ContentShift shift;
    vit::Image picture;
};

class DynamicView : public QuestionView {
public:
    void draw(const Frame& f) override;

private:
    void two_photos(const Frame& f, const vit::Trace& b, float w);
    void moved_content(const Frame& f, float w);

    MapView a_, b_, shifted_, moved_;
    InputPicture picture_;
    int rows_ = 2, cols_ = 3;   // the shift asked for
    std::string started_;       // the shift this page started by itself
};

// Two maps side by side in `w`, each fitting half of it.
ImVec2 half_size(const Frame& f, int width, int height, float w) {
    const float half = std::floor((w - ImGui::GetStyle().ItemSpacing.x - f.px(4)) / 2);
    return fit_size(width, height, ImVec2(half, std::min(half, f.px(360))));
}

// One photo's map of the query's row; a click on either photo moves the query on both.
void photo_map(const Frame& f, MapView& view, const char* id, const MapCaption& caption, const vit::Trace& t,
               ImVec2 size, const MapPhoto& photo) {
    const session::AppState& s = f.s;
    const vit::Vec row = vit::attention_row(t, s.sel.layer, s.sel.head, s.sel.query);
    const MapHit hit = map_card(f, view, id, caption, weights_map(t, row, s.style),
                                marks_for(t, s.sel.query, s.sel.hovered_key, -1), size, &photo, "weight");
    weight_hover(f, hit, t, row, "weight", true);
}

void DynamicView::two_photos(const Frame& f, const vit::Trace& b, float w) {
    const session::AppState& s = f.s;
    const vit::Trace& a = *s.trace();
    const int l = s.sel.layer, h = s.sel.head, q = s.sel.query;
    const vit::Image& ia = *s.loaded.image;
    const vit::Image& ib = *s.compared.image;
    const ImVec2 size_a = half_size(f, ia.width, ia.height, w), size_b = half_size(f, ib.width, ib.height, w);
    const std::string ca = "this photo: " + file_name(s.loaded.image_path);
    const std::string cb = "second photo: " + file_name(s.compared.image_path);
    const float caption_h = std::max(caption_height({ca.c_str()}, size_a.x), caption_height({cb.c_str()}, size_b.x));
    photo_map(f, a_, "a", {ca.c_str(), caption_h}, a, size_a, loaded_photo(f));
    ImGui::SameLine();
    photo_map(f, b_, "b", {cb.c_str(), caption_h}, b, size_b, compared_photo(f));

    const double jsd = vit::attention_jsd(a, b, l, h, q);
    char value[32];
    std::snprintf(value, sizeof value, "%.3f bits", jsd);
    ImGui::TextUnformatted("Jensen–Shannon divergence of the two rows:");
    ImGui::PushFont(f.fonts.bold);
    same_line_if_fits(ImGui::CalcTextSize(value).x);
    ImGui::TextColored(colors::accent, "%s", value);
    ImGui::PopFont();
    note("0 bits: the same weights; 1 bit: no key in common. A convolution's kernel would give 0 on any two photos. "
         "Click either map to move the query on both.");

    // Every layer and head at this query position: cheap (one row pair each).
    PlotSeries dots{PlotSeries::Kind::Dots, "", {}, {}, colors::accent};
    const int heads = s.heads();
    for (int li = 0; li < s.layers(); ++li)
        for (int hi = 0; hi < heads; ++hi) {
            if (li == l && hi == h) dots.highlight = static_cast<int>(dots.x.size());
            dots.x.push_back(li + 0.12 * (hi - 0.5 * (heads - 1)));
            dots.y.push_back(vit::attention_jsd(a, b, li, hi, q));
        }
    PlotAxes axes;
    axes.x_label = "layer";
    axes.y_label = "JSD between the photos (bits)";
    axes.y_lo = 0, axes.y_hi = 1;
    axes.x_integer = true;
    axes.x_lo = -0.5, axes.x_hi = s.layers() - 0.5;
    const PlotHit hit = plot(f, "##jsd", ImVec2(w, f.px(170)), axes, {dots});
    note("The same query position in every layer and head: one dot per head; click one to show it.");
    if (hit.clicked && hit.index >= 0) {
        f.emit(session::act::SetLayer{hit.index / heads});
        f.emit(session::act::SetHead{hit.index % heads});
    }
}

void DynamicView::moved_content(const Frame& f, float w) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const int l = s.sel.layer, h = s.sel.head, q = s.sel.query, g = t.grid;
    evidence_heading(f, "Moved content: the same photo shifted by whole patches");
    whatif_note(f, "The photo's patches moved down and right with wrap-around and run through the model again: not "
                   "a photo the model saw.");
    ImGui::SetNextItemWidth(f.px(140));
    ImGui::SliderInt("rows down", &rows_, -(g - 1), g - 1);
    bool dragging = ImGui::IsItemActive();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(f.px(140));
    ImGui::SliderInt("columns right", &cols_, -(g - 1), g - 1);
    dragging |= ImGui::IsItemActive();

    char name[64];
    std::snprintf(name, sizeof name, "content-shift r%d c%d", rows_, cols_);
    const std::string key = experiment_key(f, name);
    const auto model = s.loaded.model;
    const auto input = s.loaded.input;
    const int rows = rows_, cols = cols_;
    const session::ExperimentJob job = [=](const vit::TaskControl& c) {
        c.report(0, 1);
        vit::TraceOptions options;  // the maps need the weights only
        options.keep_qkv = false;
        options.keep_states = false;
        auto r = std::make_shared<ShiftResult>();
        r->shift = vit::run_content_shift(*model, *input, rows, cols, options);
        r->picture = vit::input_as_image(r->shift.runs.input, model->config.pre);
        c.report(1, 1);
        return std::static_pointer_cast<const void>(std::shared_ptr<const ShiftResult>(r));
    };
    if (!dragging) start_once(f, started_, key, job);  // the shift runs once the slider is let go
    if (!experiment_controls(f, "Shift and run (3 forward passes)", key, job)) return;
    const auto result = s.experiments.result<ShiftResult>(key);
    const vit::ContentShift& shift = result->shift;
    const vit::Trace& shifted = shift.runs.rearranged;
    const int moved_q = vit::moved_token(t, shift.moves, q);
    const MapPhoto photo = picture_.photo(result, result->picture, shifted);
    const ImVec2 size = half_size(f, result->picture.width, result->picture.height, w);
    // A click on the shifted picture selects the patch whose content is there.
    const vit::PatchPermutation back = vit::inverse(shift.moves);
    const char* shifted_caption = "the shifted photo's own run (what-if), the query moved with its content";
    const char* moved_caption = "the real map of this photo, moved by the same shift";
    const float caption_h = caption_height({shifted_caption, moved_caption}, size.x);
    const int hovered = s.sel.hovered_key >= 0 ? vit::moved_token(t, shift.moves, s.sel.hovered_key) : -1;
    auto show = [&](MapView& view, const char* id, const char* caption, const vit::Vec& row) {
        const MapHit hit = map_card(f, view, id, {caption, caption_h}, weights_map(shifted, row, s.style),
                                    marks_for(shifted, moved_q, hovered, -1), size, &photo, "weight");
        weight_hover(f, hit, shifted, row, "weight", true, &t, &back);
    };
    show(shifted_, "shifted", shifted_caption, vit::attention_row(shifted, l, h, moved_q));
    ImGui::SameLine();
    show(moved_, "moved", moved_caption, vit::move_row(t, shift.moves, vit::attention_row(t, l, h, q)));

    const vit::MovedMapDifferences d = vit::moved_map_differences(t, shift, l, h, q);
    ImGui::TextWrapped("Mean |shifted run's map − moved map| over the patches:");
    if (NumberTable table{f, "##diff", "what", {"difference"}, ImGuiTableFlags_RowBg, "0.000e-00", false}) {
        table.row("with position embeddings (as the model runs)");
        table.number("%.3g", d.with_pos);
        table.row("without position embeddings (what-if: both runs without)");
        table.number("%.3g", d.without_pos);
    }
    note("Why: the weights come from what the patches contain, not from a fixed window at a fixed place, so they move "
         "with the content. Without position embeddings they move exactly (the rest is float rounding); with them each "
         "patch now carries another place's embedding, which changes the map a little.");
}

void DynamicView::draw(const Frame& f) {
    const float w = ImGui::GetContentRegionAvail().x;
    evidence_heading(f, "Two photos, the same query position, layer and head");
    if (const vit::Trace* b = second_photo(f)) two_photos(f, *b, w);
    ImGui::Spacing();
    ImGui::Separator();
    moved_content(f, w);
}

}  // namespace

std::unique_ptr<QuestionView> make_dynamic_view() { return std::make_unique<DynamicView>(); }

}  // namespace ui
