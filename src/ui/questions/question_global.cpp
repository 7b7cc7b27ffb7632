// "Is attention local like a convolution?": first the example chosen on the
// photo on show (layer 0's head that puts the largest share of the query's
// patch weight beyond its 3 x 3 neighbourhood, drawn on a scale that shows
// thin spread), with a sentence that says only what its numbers support; then
// where the selected head's weight goes by distance on the patch grid (the 3 x 3
// neighbourhood, outlined on the photo, reported apart: weight there is not
// reaching out), and for every head how much weight queries put beyond 3
// patches: from the first layer on.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ui/questions/head_dots.h"
#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/map_card.h"
#include "ui/widgets/map_view.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/number_table.h"
#include "vit/analysis/attention_rows.h"
#include "vit/analysis/global.h"
#include "vit/analysis/high_norm_distance.h"
#include "vit/base/error.h"

namespace ui {
namespace {

constexpr int kBeyond = 3;  // "beyond 3 patches": outside the 7 x 7 around the query
// The example's colour scale tops out at this many times an even share (1 /
// patches), so weight spread thinly over the photo shows instead of fading
// under the row's maximum.
constexpr float kEvenShares = 4.f;

// On the photo: the 3 x 3 patches around the query, all a 3 x 3 convolution
// would see, so the weight outside it shows.
void convolution_window(const Frame& f, const vit::Trace& t, int query, ImVec2 origin, ImVec2 cell) {
    const int r = t.row_of(query), c = t.col_of(query), last = t.grid - 1;
    const int r0 = std::max(0, r - 1), r1 = std::min(last, r + 1), c0 = std::max(0, c - 1), c1 = std::min(last, c + 1);
    const ImVec2 a(origin.x + c0 * cell.x, origin.y + r0 * cell.y),
        b(origin.x + (c1 + 1) * cell.x, origin.y + (r1 + 1) * cell.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 colour = IM_COL32(255, 255, 255, 255);
    dl->AddRect(ImVec2(a.x - f.px(1), a.y - f.px(1)), ImVec2(b.x + f.px(1), b.y + f.px(1)), IM_COL32(0, 0, 0, 200), 0,
                0, f.px(4));
    dl->AddRect(a, b, colour, 0, 0, f.px(2));
    // The longest name that fits the grid (small photos on narrow panels: shorter).
    const std::string name =
        first_that_fits({"3 × 3 convolution's reach", "3 × 3 reach", "3 × 3"}, t.grid * cell.x - f.px(8));
    const char* label = name.c_str();
    const ImVec2 ls = ImGui::CalcTextSize(label);
    // Below the square, or above it near the bottom edge; kept inside the grid.
    const float grid_right = origin.x + t.grid * cell.x, grid_bottom = origin.y + t.grid * cell.y;
    ImVec2 lp(std::min(a.x, grid_right - ls.x - f.px(4)), b.y + f.px(3));
    if (lp.y + ls.y > grid_bottom) lp.y = a.y - ls.y - f.px(3);
    lp.x = std::max(lp.x, origin.x + f.px(2));
    dl->AddRectFilled(ImVec2(lp.x - f.px(3), lp.y - f.px(1)), ImVec2(lp.x + ls.x + f.px(3), lp.y + ls.y + f.px(1)),
                      IM_COL32(0, 0, 0, 170), f.px(3));
    dl->AddText(lp, colour, label);
}

class GlobalView : public QuestionView {
public:
    void draw(const Frame& f) override;
    void draw_on_photo(const Frame& f, const PhotoGrid& grid) override {
        const vit::Trace* t = f.s.trace();
        if (t && t->is_patch(f.s.sel.query)) convolution_window(f, *t, f.s.sel.query, grid.origin, grid.cell);
    }

private:
    void example(const Frame& f, float w);
    void query_bands(const Frame& f, float w);
    void every_head(const Frame& f, float w);

    // Per photo and model: mean_mass_beyond of every layer (each walks N² weights per head).
    int beyond_generation_ = -1;
    std::vector<std::vector<double>> beyond_;
    std::string high_norm_note_;  // what the high-norm tokens take of the late layers' far weight (same generation)
    MapView example_map_;
};

void GlobalView::example(const Frame& f, float w) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const int q = s.sel.query;
    const vit::ReachingHead r = vit::farthest_reaching_head(t, 0, q);
    char title[160];
    std::snprintf(title, sizeof title,
                  "On this photo: layer 0's head that reaches farthest from patch (%d, %d): head %d", t.row_of(q),
                  t.col_of(q), r.head);
    evidence_heading(f, title);
    note(
        "Chosen on the photo on show: of the first layer's heads, the one that puts the largest share of this "
        "query's patch weight beyond its 3 × 3 neighbourhood (CLS left out).");
    char said[512];
    if (r.holds)
        std::snprintf(said, sizeof said,
                      "Layer 0, head %d puts %.0f %% of patch (%d, %d)'s patch weight beyond its 3 × 3 neighbourhood, "
                      "out of a 3 × 3 convolution's reach (an even spread would put %.0f %% there); %.0f %% stays "
                      "inside the neighbourhood.",
                      r.head, 100 * r.shares.beyond, t.row_of(q), t.col_of(q), 100 * r.shares.beyond_baseline,
                      100 * r.shares.inside);
    else
        std::snprintf(said, sizeof said,
                      "For this query no head of layer 0 puts most of its patch weight beyond the 3 × 3 "
                      "neighbourhood: the most is head %d's %.0f %% (an even spread would put %.0f %% there), and "
                      "%.0f %% stays inside. Attention could reach every patch; these heads learned to look near this "
                      "query. Another query, or the every-head plot below, shows where they do reach out.",
                      r.head, 100 * r.shares.beyond, 100 * r.shares.beyond_baseline, 100 * r.shares.inside);
    // Classroom mode leads with the map: its sentence goes under it.
    const bool map_first = s.classroom && !f.figure;
    const auto say = [&] {
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(said);
        ImGui::PopTextWrapPos();
    };
    if (!map_first) say();

    const vit::Vec row = vit::attention_row(t, 0, r.head, q);
    MapData map = weights_map(t, row, s.style);
    map.style.normalization = gfx::Normalization::Absolute;
    map.style.value_max = kEvenShares / static_cast<float>(t.tokens - t.prefix);
    map.style.fade = false;  // fading would hide exactly the thin spread this map is for
    char caption[200];
    std::snprintf(caption, sizeof caption,
                  "layer 0, head %d: the weight on a scale from 0 to %.0f × an even share (1/%d per patch), not the "
                  "row's maximum, so weight spread thinly still shows",
                  r.head, kEvenShares, t.tokens - t.prefix);
    if (map_first) {  // one line over the map; the scale's reason folded with the notes
        note(caption);
        std::snprintf(caption, sizeof caption, "layer 0, head %d: weight from 0 to %.0f × an even share", r.head,
                      kEvenShares);
    }
    const float h = maps_height_above_fold(f, std::min(w, f.px(360)), [&](float mh) {
        return caption_height({caption}, fit_photo(s, ImVec2(w, mh)).x);
    });
    const ImVec2 size = fit_photo(s, ImVec2(w, h));
    const MapHit hit = map_card(f, example_map_, "example", {caption, caption_height({caption}, size.x)}, map,
                                marks_for(t, q, s.sel.hovered_key, -1), size, nullptr, "weight");
    weight_hover(f, hit, t, row, "weight", true);
    if (map_first) say();
}

void GlobalView::query_bands(const Frame& f, float w) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const int l = s.sel.layer, h = s.sel.head, q = s.sel.query;
    char title[160];
    std::snprintf(title, sizeof title, "The selected head: patch (%d, %d) as the query, layer %d, head %d", t.row_of(q),
                  t.col_of(q), l, h);
    evidence_heading(f, title);
    const vit::DistanceMass m = vit::distance_mass(t, l, h, q);
    PlotSeries bars{PlotSeries::Kind::Bars, "", {}, {}, colors::accent};
    PlotAxes axes;
    // A band with no patch at that distance from this query (8+ from a central patch): its bar is empty
    // because the band is, and the axis says so.
    std::array<int, vit::kDistanceBands> patches_in{};
    for (int r = 0; r < t.grid; ++r)
        for (int c = 0; c < t.grid; ++c)
            ++patches_in[vit::distance_band(std::max(std::abs(r - t.row_of(q)), std::abs(c - t.col_of(q))))];
    std::string empty_bands;
    for (int b = 0; b < vit::kDistanceBands; ++b) {
        bars.x.push_back(b);
        bars.y.push_back(m.band[b]);
        axes.x_names.push_back(b == 0 ? std::string("same patch")
                                      : std::string(vit::distance_band_name(b)) + (patches_in[b] ? "" : " (no patch)"));
        if (!patches_in[b]) empty_bands += std::string(empty_bands.empty() ? "" : ", ") + vit::distance_band_name(b);
    }
    axes.x_label = "distance from the query (patches)";
    axes.y_label = "weight at that distance (of all the row's)";
    axes.y_lo = 0, axes.y_hi = 1;
    axes.shade_lo = -0.5, axes.shade_hi = vit::kConvolutionReach + 0.5;
    plot(f, "##bands", ImVec2(w, f.px(210)), axes, {bars});
    note(
        "Shaded: the same patch and distance 1, all a 3 × 3 convolution can see. Distance: how many rows or "
        "columns apart, whichever is more; 1 is the ring of 8 neighbours.");
    if (!empty_bands.empty())
        note(("No patch of the " + std::to_string(t.grid) + " × " + std::to_string(t.grid) + " grid is at distance " +
              empty_bands + " from this query: that bar is empty because the band is, not because the head ignores it.")
                 .c_str());

    const int quarter = static_cast<int>(vit::farthest_quarter(t, q).size());
    if (NumberTable table{f, "##mass", "what", {"weight (of all the row's)"}, ImGuiTableFlags_RowBg, "0.0000", false}) {
        const auto row = [&](const char* what, double v) {
            table.row(what);
            table.number("%.4f", v);
        };
        row("inside the 3 × 3 neighbourhood (outlined on the photo): a convolution sees this too", m.within_3x3);
        row("beyond it: out of a 3 × 3 convolution's reach", m.beyond_3x3);
        char far[96];
        std::snprintf(far, sizeof far, "on the farthest quarter of the photo (%d patches)", quarter);
        row(far, m.far_quarter);
        row("on CLS and other tokens with no place on the grid", m.prefix);
    }
    const vit::NeighbourhoodShares shares = vit::neighbourhood_shares(t, l, h, q);
    char said[400];
    std::snprintf(
        said, sizeof said,
        "Of its weight on patches (CLS left out), layer %d, head %d puts %.0f %% beyond the 3 × 3 "
        "neighbourhood, where an even spread would put %.0f %%.%s",
        l, h, 100 * shares.beyond, 100 * shares.beyond_baseline,
        shares.beyond >= vit::kReachesBeyondShare
            ? ""
            : " It keeps most of this query's patch weight within the neighbourhood: a local head for this query. The "
              "claim "
              "is about what attention can do; the example above is the first layer's head that reaches farthest.");
    note(said);
}

// Where high-norm tokens enter the layers (the corners, from layer 7 on in the
// default model), how much of the weight beyond 3 patches is theirs, and
// what is left without them; empty where no layer has them.
std::string high_norm_beyond_note(const vit::Trace& t, int patch) {
    int first = -1;
    double lo_all = 1, hi_all = 0, lo_high = 1, hi_high = 0, lo_without = 1, hi_without = 0;
    try {
        for (int l = 0; l < static_cast<int>(t.layers.size()); ++l) {
            const std::vector<double> all = vit::mean_mass_beyond(t, l, kBeyond);
            for (int h = 0; h < static_cast<int>(all.size()); ++h) {
                const vit::HighNormDistance d = vit::distance_without_high_norm(t, l, h, patch, kBeyond);
                if (d.left_out.empty()) continue;
                if (first < 0) first = l;
                lo_all = std::min(lo_all, all[h]), hi_all = std::max(hi_all, all[h]);
                lo_high = std::min(lo_high, d.high_norm_share), hi_high = std::max(hi_high, d.high_norm_share);
                lo_without = std::min(lo_without, d.beyond), hi_without = std::max(hi_without, d.beyond);
            }
        }
    } catch (const vit::Error&) {
        return "";
    }
    if (first < 0) return "";
    char text[600];
    std::snprintf(text, sizeof text,
                  "From layer %d on, high-norm tokens enter the layers (patch vectors at least 10 times the median's, "
                  "mostly in the corners, where the model stores global information). There the weight beyond 3 "
                  "patches is %.2f–%.2f per head, and the high-norm tokens take %.2f–%.2f of all the weight; left "
                  "out, %.2f–%.2f remains beyond 3 patches. Far weight in those layers is mostly not about the "
                  "pixels far away.",
                  first, lo_all, hi_all, lo_high, hi_high, lo_without, hi_without);
    return text;
}

void GlobalView::every_head(const Frame& f, float w) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    if (beyond_generation_ != s.loaded.generation) {
        beyond_.clear();
        for (int l = 0; l < s.layers(); ++l) beyond_.push_back(vit::mean_mass_beyond(t, l, kBeyond));
        high_norm_note_ = high_norm_beyond_note(t, s.loaded.model->patch);
        beyond_generation_ = s.loaded.generation;
    }
    evidence_heading(
        f, "On this photo, every head: the weight a query puts beyond 3 patches, averaged over all patch queries");
    const std::vector<double>& first = beyond_.at(0);
    ImGui::TextUnformatted("Layer 0, the first attention the patches meet:");
    ImGui::PushFont(f.fonts.mono);
    for (size_t h = 0; h < first.size(); ++h) {
        char text[48];
        std::snprintf(text, sizeof text, "head %zu: %.3f", h, first[h]);
        if (h) same_line_if_fits(ImGui::CalcTextSize(text).x + f.px(12));
        if (h && ImGui::GetCursorPosX() > ImGui::GetStyle().WindowPadding.x + 1)
            ImGui::SetCursorPosX(ImGui::GetCursorPosX() + f.px(12));
        ImGui::TextUnformatted(text);
    }
    ImGui::PopFont();

    head_dots(f, "##beyond", ImVec2(w, f.px(180)), "mean weight beyond 3 patches (of all a row's)", beyond_,
              s.sel.layer, s.sel.head);
    note(
        "One dot per head; click one to show that layer and head. A query whose weight stayed within its neighbours "
        "would give 0 here. A stack of 3 × 3 convolutions widens its "
        "view by one patch per side per layer; attention can reach every patch from the first layer, and the learned "
        "weights decide how far each head actually looks.");
    if (!high_norm_note_.empty()) note(high_norm_note_.c_str());
}

void GlobalView::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const float w = ImGui::GetContentRegionAvail().x;
    if (t.is_patch(s.sel.query)) {
        example(f, w);
        query_bands(f, w);
    } else {
        evidence_heading(f, "On this photo");
        note(
            "Click a patch on the photo (or press an arrow key) to make it the query: distances are measured on the "
            "patch grid, and CLS has no place on it.");
    }
    every_head(f, w);
}

}  // namespace

std::unique_ptr<QuestionView> make_global_view() { return std::make_unique<GlobalView>(); }

}  // namespace ui
