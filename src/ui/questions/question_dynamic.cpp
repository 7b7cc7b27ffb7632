// "Are the weights fixed, like a kernel?": evidence a fixed kernel cannot
// produce (kernel_evidence.h says why moving the content is not). The same
// query position on two photos (the second from File > Compare with…), shown
// by default for the head where the two differ most, with their Jensen-Shannon
// divergence and every head's; and within the open photo, the weight each
// offset of the 3 x 3 neighbourhood gets over every query, which a kernel
// would make one number.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ui/questions/head_dots.h"
#include "ui/questions/question_compare.h"
#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/map_card.h"
#include "ui/widgets/map_view.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/number_table.h"
#include "vit/analysis/attention_rows.h"
#include "vit/analysis/content_reach.h"
#include "vit/analysis/divergence.h"
#include "vit/analysis/kernel_evidence.h"
#include "vit/base/error.h"
#include "vit/forward/token_name.h"

namespace ui {
namespace {

struct HeadRef {
    int layer = 0, head = 0;
};

class DynamicView : public QuestionView {
public:
    void draw(const Frame& f) override;

private:
    HeadRef two_photos(const Frame& f, const vit::Trace& b, float w);
    void within_photo(const Frame& f, HeadRef shown, float w);

    MapView a_, b_;
    bool most_different_ = true;  // the maps show the head where the photos differ most (else the selected one)
};

// "up-left", "up", ..., "itself", ..., "down-right".
const char* offset_name(const vit::OffsetWeights& o) {
    static const char* names[9] = {"up-left", "up",        "up-right", "left",      "itself",
                                   "right",   "down-left", "down",     "down-right"};
    return names[(o.dr + 1) * 3 + (o.dc + 1)];
}

// Two maps side by side in `w`, each fitting half of it and at most h tall.
ImVec2 half_size(const Frame& f, int width, int height, float w, float h) {
    const float half = std::floor((w - ImGui::GetStyle().ItemSpacing.x - f.px(4)) / 2);
    return fit_size(width, height, ImVec2(half, std::min({half, f.px(360), h})));
}

// One photo's map of the query's row; a click on either photo moves the query on both.
void photo_map(const Frame& f, MapView& view, const char* id, const MapCaption& caption, const vit::Trace& t,
               HeadRef head, ImVec2 size, const MapPhoto& photo) {
    const session::AppState& s = f.s;
    const vit::Vec row = vit::attention_row(t, head.layer, head.head, s.sel.query);
    const MapHit hit = map_card(f, view, id, caption, weights_map(t, row, s.style),
                                marks_for(t, s.sel.query, s.sel.hovered_key, -1), size, &photo, "weight");
    weight_hover(f, hit, t, row, "weight", true);
}

HeadRef DynamicView::two_photos(const Frame& f, const vit::Trace& b, float w) {
    const session::AppState& s = f.s;
    const vit::Trace& a = *s.trace();
    const int q = s.sel.query;
    const vit::DifferingHead most = vit::most_different_head(a, b, q);
    char label[96];
    std::snprintf(label, sizeof label, "most different (layer %d, head %d)", most.layer, most.head);
    if (ImGui::RadioButton(label, most_different_)) most_different_ = true;
    std::snprintf(label, sizeof label, "selected (layer %d, head %d)", s.sel.layer, s.sel.head);
    same_line_if_fits(ImGui::CalcTextSize(label).x + f.px(40));
    if (ImGui::RadioButton(label, !most_different_)) most_different_ = false;
    const HeadRef shown = most_different_ ? HeadRef{most.layer, most.head} : HeadRef{s.sel.layer, s.sel.head};
    if (most_different_)
        note(
            "The maps show the head chosen on these two photos: of every layer's heads, the one whose rows for this "
            "query differ most (the largest Jensen–Shannon divergence below).");

    const vit::Image& ia = *s.loaded.image;
    const vit::Image& ib = *s.compared.image;
    char where[64];
    std::snprintf(where, sizeof where, ", layer %d, head %d", shown.layer, shown.head);
    const std::string ca = "this photo: " + bounded(file_name(s.loaded.image_path), 300) + where;
    const std::string cb = "second photo: " + bounded(file_name(s.compared.image_path), 300) + where;
    const auto captions_at = [&](float h) {
        return std::max(caption_height({ca.c_str()}, half_size(f, ia.width, ia.height, w, h).x),
                        caption_height({cb.c_str()}, half_size(f, ib.width, ib.height, w, h).x));
    };
    const float h = maps_height_above_fold(f, f.px(360), captions_at);
    const ImVec2 size_a = half_size(f, ia.width, ia.height, w, h), size_b = half_size(f, ib.width, ib.height, w, h);
    const float caption_h = captions_at(h);
    photo_map(f, a_, "a", {ca.c_str(), caption_h}, a, shown, size_a, loaded_photo(f));
    ImGui::SameLine();
    photo_map(f, b_, "b", {cb.c_str(), caption_h}, b, shown, size_b, compared_photo(f));

    const double jsd = vit::attention_jsd(a, b, shown.layer, shown.head, q);
    char value[32];
    std::snprintf(value, sizeof value, "%.3f bits", jsd);
    ImGui::TextUnformatted("Jensen–Shannon divergence of the two rows:");
    ImGui::PushFont(f.fonts.bold);
    same_line_if_fits(ImGui::CalcTextSize(value).x);
    ImGui::TextColored(colors::accent, "%s", value);
    ImGui::PopFont();
    note(
        "0 bits: the same weights; 1 bit: no key in common. A convolution's kernel is the same on any two photos: "
        "it would give 0 bits in every head. Click either map to move the query on both.");

    // Every layer and head at this query position: cheap (one row pair each).
    std::vector<std::vector<double>> every_head(s.layers(), std::vector<double>(s.heads()));
    for (int li = 0; li < s.layers(); ++li)
        for (int hi = 0; hi < s.heads(); ++hi) every_head[li][hi] = vit::attention_jsd(a, b, li, hi, q);
    const bool clicked = head_dots(f, "##jsd", ImVec2(w, f.px(170)), "JSD between the photos (bits)", every_head,
                                   shown.layer, shown.head);
    note("The same query position in every layer and head: one dot per head; click one to select it.");
    if (clicked) most_different_ = false;
    return shown;
}

// The head's position-only kernel (its mean weight at each offset over the
// photo's queries) against the query on show: whether it reaches for content
// far away beyond what position alone gives (vit/analysis/content_reach.h).
void reach_against_kernel(const vit::Trace& t, HeadRef shown, int query) {
    if (!t.is_patch(query)) return;
    vit::ContentReach r;
    try {
        r = vit::content_reach(t, shown.layer, shown.head, query);
    } catch (const vit::Error&) {
        return;  // a trace without token states: the high-norm tokens are not known
    }
    const bool holds = vit::claim_holds(vit::ClaimKind::ContentReach, r.value, 3);
    char said[600];
    std::snprintf(said, sizeof said,
                  "Against this head's own position-only kernel (its mean weight at each offset over every query of "
                  "the photo, high-norm tokens left out): the %zu heaviest patches 3 or more patches from %s hold "
                  "%.0f %% of its patch weight, %.1f times the %.1f %% the kernel gives them (an even share: %.1f %%). "
                  "%s",
                  r.patches.size(), vit::token_name(t, query).c_str(), 100 * r.value.value,
                  r.value.baseline > 0 ? r.value.value / r.value.baseline : 0.0, 100 * r.value.baseline,
                  100 * r.value.even,
                  holds ? "At 3 times both, this head reaches for content there, not just for positions."
                        : "Under 3 times the larger of the two: position alone explains this query's far weight "
                          "about as well.");
    ImGui::Spacing();
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(said);
    ImGui::PopTextWrapPos();
}

void DynamicView::within_photo(const Frame& f, HeadRef shown, float w) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    char title[160];
    std::snprintf(title, sizeof title, "On this photo alone: one offset, many weights (layer %d, head %d)", shown.layer,
                  shown.head);
    evidence_heading(f, title);
    note(
        "A 3 × 3 convolution gives the neighbour at each offset one weight, the same at every patch. Below, for each "
        "offset, the weight this head gives that neighbour over every patch query of the photo. (Moving the photo's "
        "content is no test: a convolution's output moves with its input too.)");
    const std::array<vit::OffsetWeights, 9> offsets = vit::offset_weights(t, shown.layer, shown.head);
    if (NumberTable table{f,
                          "##offsets",
                          "neighbour",
                          {"smallest weight", "largest weight", "queries"},
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp,
                          "0.0000",
                          true,
                          std::min(w, f.px(640))}) {
        for (const vit::OffsetWeights& o : offsets) {
            table.row(offset_name(o));
            table.number("%.4f", o.min);
            table.number("%.4f", o.max);
            table.number("%d", o.queries);
        }
    }
    const vit::OffsetWeights widest = vit::widest_offset(offsets);
    char said[400];
    if (widest.range() >= vit::kKernelLikeRange)
        std::snprintf(said, sizeof said,
                      "The widest range: the key %s the query gets %.4f from %s and %.4f from %s. No fixed kernel "
                      "gives one offset two weights; the head computes them from what the patches hold (and where).",
                      widest.dr == 0 && widest.dc == 0
                          ? "that is"
                          : (std::string("one step ") + offset_name(widest) + " of").c_str(),
                      widest.min, vit::token_name(t, widest.min_query).c_str(), widest.max,
                      vit::token_name(t, widest.max_query).c_str());
    else
        std::snprintf(said, sizeof said,
                      "This head gives each offset nearly one weight on this photo (the widest range is %.4f, "
                      "%s): close to a fixed kernel here. The two-photo comparison above, or another head, shows "
                      "the difference.",
                      widest.range(), offset_name(widest));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(said);
    ImGui::PopTextWrapPos();
    reach_against_kernel(t, shown, s.sel.query);
}

void DynamicView::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const float w = ImGui::GetContentRegionAvail().x;
    evidence_heading(f, "Two photos, the same query position");
    HeadRef shown{s.sel.layer, s.sel.head};
    if (const vit::Trace* b = second_photo(f)) shown = two_photos(f, *b, w);
    ImGui::Spacing();
    ImGui::Separator();
    within_photo(f, shown, w);
}

}  // namespace

std::unique_ptr<QuestionView> make_dynamic_view() { return std::make_unique<DynamicView>(); }

}  // namespace ui
