// "Self-attention or cross-attention?": the what-if that pairs the open
// photo's queries with the second photo's keys and values at the selected
// layer and head. Each photo's q, k, v are its own run's; only the pairing is
// new: the arithmetic of a decoder attending to an encoder.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "ui/questions/question_compare.h"
#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/map_card.h"
#include "ui/widgets/map_view.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/vector_strip.h"
#include "vit/analysis/attention_rows.h"
#include "vit/analysis/cross.h"
#include "vit/forward/token_name.h"

namespace ui {
namespace {

class CrossView : public QuestionView {
public:
    void draw(const Frame& f) override;

private:
    void maps(const Frame& f, const vit::Trace& b, const vit::CrossAttentionRow& r, float w);
    void output(const Frame& f, const vit::CrossAttentionRow& r, float w);

    MapView self_, cross_;
};

void CrossView::maps(const Frame& f, const vit::Trace& b, const vit::CrossAttentionRow& r, float w) {
    const session::AppState& s = f.s;
    const vit::Trace& a = *s.trace();
    const int l = s.sel.layer, h = s.sel.head, q = s.sel.query;
    const float half = std::floor((w - ImGui::GetStyle().ItemSpacing.x - f.px(4)) / 2);
    const std::string ca =
        "A, " + bounded(file_name(s.loaded.image_path), 300) + ": the query and its own attention (the model)";
    const std::string cb =
        "B, " + bounded(file_name(s.compared.image_path), 300) + ": A's query over B's keys (what-if)";
    const auto size_a_at = [&](float h) { return fit_photo(s, ImVec2(half, std::min(half, h))); };
    const auto size_b_at = [&](float h) {
        return fit_size(s.compared.image->width, s.compared.image->height, ImVec2(half, std::min(half, h)));
    };
    const auto captions_at = [&](float h) {
        return std::max(caption_height({ca.c_str()}, size_a_at(h).x), caption_height({cb.c_str()}, size_b_at(h).x));
    };
    const float maps_h = maps_height_above_fold(f, f.px(360), captions_at);
    const ImVec2 size_a = size_a_at(maps_h), size_b = size_b_at(maps_h);
    const float caption_h = captions_at(maps_h);

    const vit::Vec own = vit::attention_row(a, l, h, q);
    const MapHit hit_a = map_card(f, self_, "a", {ca.c_str(), caption_h, colors::accent}, weights_map(a, own, s.style),
                                  marks_for(a, q, s.sel.hovered_key, -1), size_a, nullptr, "weight");
    weight_hover(f, hit_a, a, own, "weight", true);
    ImGui::SameLine();
    const MapPhoto photo_b = compared_photo(f);
    const MapHit hit_b =
        map_card(f, cross_, "b", {cb.c_str(), caption_h, colors::whatif}, weights_map(b, r.weights, s.style),
                 marks_for(b, -1, s.sel.hovered_key, -1), size_b, &photo_b, "what-if weight");
    if (hit_b.hovered && hit_b.token >= 0) {  // B's patches are not queries here: no click
        f.emit(session::act::HoverKey{hit_b.token});
        ImGui::SetTooltip("B's %s: what-if weight %.4f\nscore q·k %.3f, scaled %.3f",
                          vit::token_name(b, hit_b.token).c_str(), r.weights[hit_b.token], r.raw[hit_b.token],
                          r.scaled[hit_b.token]);
    }
}

void CrossView::output(const Frame& f, const vit::CrossAttentionRow& r, float w) {
    const session::AppState& s = f.s;
    const vit::Trace& a = *s.trace();
    const vit::Trace& b = *s.compared.trace;
    const vit::RowSummary sum = vit::summarize_row(r.weights);
    ImGui::PushFont(f.fonts.mono);
    char softmax[256];
    std::snprintf(softmax, sizeof softmax,
                  "softmax over B's %d tokens: Σ = %.4f · largest %.4f on B's %s · spread ≈ %.1f "
                  "keys · on B's CLS %.4f",
                  b.tokens, sum.sum, sum.max, vit::token_name(b, sum.argmax).c_str(), sum.effective_keys, r.weights[0]);
    text_wrapped_at_spaces(softmax);
    ImGui::PopFont();

    evidence_heading(f, "What the query takes home: Σⱼ aᵢⱼ vⱼ");
    const vit::HeadTrace& head = vit::head_trace(a, s.sel.layer, s.sel.head);
    const vit::Vec own = head.out.row(s.sel.query).transpose();
    // One colour scale for both strips, so they compare cell by cell.
    const float extent = std::max(r.output.cwiseAbs().maxCoeff(), own.cwiseAbs().maxCoeff());
    const int d = static_cast<int>(r.output.size());
    const float label_w = std::min(f.px(190), w * 0.45f), strip_w = std::max(f.px(64), w - label_w);
    auto strip = [&](const char* label, const char* id, const vit::Vec& v, ImVec4 colour) {
        ImGui::AlignTextToFramePadding();
        ImGui::TextColored(colour, "%s", label);
        ImGui::SameLine(label_w);
        vector_strip(f, id, v.data(), d, extent, strip_w);
    };
    strip("from B's values", "##cross", r.output, colors::whatif);
    strip("oᵢ from A's values", "##own", own, colors::accent);
    char text[160];
    std::snprintf(text, sizeof text, "‖Σ a·v from B‖ = %.3f   ‖oᵢ on A‖ = %.3f   (%d numbers each)", r.output.norm(),
                  own.norm(), d);
    ImGui::PushFont(f.fonts.mono);
    text_wrapped_at_spaces(text);
    ImGui::PopFont();
}

void CrossView::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const float w = ImGui::GetContentRegionAvail().x;
    const char* whatif =
        "Not what this model computes; the same arithmetic as a decoder attending to an encoder, or a "
        "text prompt attending to image features.";
    // The projector leads with the maps (B's caption names the what-if), the banner under them.
    const bool maps_first = s.classroom && !f.figure;
    const vit::Trace* b = second_photo(f);
    if (!maps_first || !b) whatif_note(f, whatif);
    if (!b) return;
    const vit::Trace& a = *s.trace();
    const int l = s.sel.layer, h = s.sel.head, q = s.sel.query;
    char title[200];
    std::snprintf(title, sizeof title, "Layer %d, head %d: queries from photo A (%s), keys and values from photo B", l,
                  h, vit::token_name(a, q).c_str());
    evidence_heading(f, title);
    note(
        "A's tokens at this layer times W_Q give the queries; B's tokens at the same layer times W_K and W_V give the "
        "keys and values. Then the usual q·k/√dₖ, softmax over B's tokens, and Σ a·v. Click A to move the query.");
    const vit::CrossAttentionRow r = vit::cross_attention_row(a, *b, l, h, q);
    maps(f, *b, r, w);
    if (maps_first) whatif_note(f, whatif);
    output(f, r, w);
}

}  // namespace

std::unique_ptr<QuestionView> make_cross_view() { return std::make_unique<CrossView>(); }

}  // namespace ui
