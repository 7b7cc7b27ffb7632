#include "ui/panels/math_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "session/core/shown_rows.h"
#include "ui/widgets/color_bar.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/number_table.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/vector_strip.h"
#include "vit/analysis/step_explanation.h"
#include "vit/forward/token_name.h"

namespace ui {
namespace {

// Subscripted names as the math panel writes them.
namespace sym {
inline constexpr const char* q_i = "qᵢ";
inline constexpr const char* k_j = "kⱼ";
inline constexpr const char* v_j = "vⱼ";
inline constexpr const char* o_i = "oᵢ";
inline constexpr const char* s_ij = "sᵢⱼ";
inline constexpr const char* a_ij = "aᵢⱼ";
inline constexpr const char* sqrt_dk = "√dₖ";
inline constexpr const char* d_k = "dₖ";
}  // namespace sym

// A number with 5 significant digits, in scientific notation when tiny or
// huge, so 0.00009 never reads as 0.00009 when it is 8.7654e-05.
std::string five_digits(double v) {
    char buf[32];
    const double a = std::abs(v);
    std::snprintf(buf, sizeof buf, (a != 0 && (a < 1e-3 || a >= 1e6)) ? "%.4e" : "%.5g", v);
    return buf;
}

// A labelled strip: name on the left, the strip, a note on the right.
void strip_row(const Frame& f, const char* name, const char* id, const float* v, int n, float extent,
               const char* note) {
    const float label_w = f.px(56), note_w = f.px(150);
    ImGui::PushFont(f.fonts.bold);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(name);
    ImGui::PopFont();
    ImGui::SameLine(label_w);
    const float w = std::max(f.px(64), ImGui::GetContentRegionAvail().x - note_w);
    vector_strip(f, id, v, n, extent, w);
    ImGui::SameLine();
    ImGui::PushFont(f.fonts.mono);
    ImGui::TextColored(colors::muted, "%s", note);
    ImGui::PopFont();
}

// A vector's strip with its norm as the note: "‖qᵢ‖ = 1.234".
void norm_row(const Frame& f, const char* name, const char* id, const vit::Vec& v, int n, float extent) {
    char note[96];
    std::snprintf(note, sizeof note, "‖%s‖ = %.3f", name, v.norm());
    strip_row(f, name, id, v.data(), n, extent, note);
}

// One line of an equation, slightly brighter than prose; wrapped at the
// panel's edge between its terms when the panel is narrow (classroom type).
template <class... A>
void equation(const Frame&, const char* fmt, A... args) {
    char text[256];
    std::snprintf(text, sizeof text, fmt, args...);
    text_wrapped_at_spaces(colors::strong, text);
}

struct Key {
    int token = -1;
    const char* why = "";
};

Key key_of(const session::AppState& s) {
    using Why = session::ExplainedKey::Why;
    const session::ExplainedKey k = session::explained_key(s);
    switch (k.why) {
        case Why::Pinned: return {k.token, "pinned: click it again or press Esc to release"};
        case Why::Hovered: return {k.token, "under the mouse; click a map to pin it"};
        default: return {k.token, "the key the query attends to most; hover a map to pick another"};
    }
}

// "Step 3 of 7: Score", with buttons (and , . keys) to the step before and after.
void step_navigator(const Frame& f) {
    static const char* names[session::kMathSteps] = {"Query", "Key", "Score", "Scale", "Softmax", "Value", "Output"};
    const int step = f.s.math_step;
    ImGui::BeginDisabled(step <= 1);
    if (ImGui::ArrowButton("##step_back", ImGuiDir_Left)) f.emit(session::act::SetMathStep{step - 1});
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(step >= session::kMathSteps);
    if (ImGui::ArrowButton("##step_next", ImGuiDir_Right)) f.emit(session::act::SetMathStep{step + 1});
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::Text("Step %d of %d: %s", step, session::kMathSteps, names[step - 1]);
    const std::vector<const char*> keys = {",", "."};
    same_line_if_fits(key_caps_width(keys));
    key_caps(keys);
}

// What every step reads: the trace, the pair (i, j) and the explanation of it.
struct Pair {
    const vit::Trace& t;
    int i, j, d;
    const vit::StepExplanation& e;
};

void header(const Frame& f, const Pair& p, const Key& key) {
    const session::AppState& s = f.s;
    ImGui::PushFont(f.fonts.title);
    ImGui::Text("Layer %d · head %d", s.sel.layer, s.sel.head);
    ImGui::PopFont();
    char dims[64];
    std::snprintf(dims, sizeof dims, "%s = %d numbers per token", sym::d_k, p.d);
    same_line_if_fits(ImGui::CalcTextSize(dims).x);
    ImGui::TextColored(colors::muted, "%s", dims);
    ImGui::TextUnformatted("query i:");
    ImGui::SameLine();
    ImGui::TextColored(colors::accent, "%s · token %d", vit::token_name(p.t, p.i).c_str(), p.i);
    ImGui::TextUnformatted("key j:");
    ImGui::SameLine();
    ImGui::TextColored(s.sel.pinned_key >= 0 ? colors::pinned : colors::strong, "%s · token %d",
                       vit::token_name(p.t, p.j).c_str(), p.j);
    // Beside the key when it fits, else on a line of its own: never a column one word wide.
    char why[128];
    std::snprintf(why, sizeof why, "(%s)", key.why);
    same_line_if_fits(std::min(ImGui::CalcTextSize(why).x, f.px(220)));
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(colors::muted, "%s", why);
    ImGui::PopTextWrapPos();
    if (s.sel.source == session::MapSource::MeanOfVisible)
        ImGui::TextColored(colors::muted, "The photo shows the mean of heads; this panel explains head %d alone.",
                           s.sel.head);
}

void query_step(const Frame& f, const Pair& p) {
    step_heading(f, "1", "Query",
                 "What this patch is looking for: its token times W_Q, a question asked of every other token.");
    norm_row(f, sym::q_i, "##q", p.e.q, p.d, p.e.qk_extent);
}

void key_step(const Frame& f, const Pair& p) {
    step_heading(f, "2", "Key", "What each patch offers: its token times W_K, the label a query is matched against.");
    norm_row(f, sym::k_j, "##k", p.e.k, p.d, p.e.qk_extent);
}

void score_step(const Frame& f, const Pair& p) {
    step_heading(f, "3", "Score",
                 "How well the question matches the offer: multiply dimension by dimension and add "
                 "up. Red cells agree in sign, blue cells disagree.");
    char note[96];
    std::snprintf(note, sizeof note, "Σ = %.4f", p.e.score);
    strip_row(f, "qᵢ⊙kⱼ", "##qk", p.e.qk_product.data(), p.d, p.e.product_extent, note);
    equation(f, "%s = qᵢ · kⱼ = Σ_d qᵢ[d]·kⱼ[d] = %.4f", sym::s_ij, p.e.score);
}

void scale_step(const Frame& f, const Pair& p) {
    step_heading(f, "4", "Scale", vit::kScaleGeneral);
    equation(f, "%s / %s = %.4f / √%d = %.4f / %.4g = %.4f", sym::s_ij, sym::sqrt_dk, p.e.score, p.d, p.e.score,
             p.e.sqrt_dk, p.e.scaled_score);
    // A claim on this row (unscaled_top_weight), not a general promise.
    text_wrapped_at_spaces(colors::muted, vit::unscaled_sentence(p.e).c_str());
}

// The softmax's arithmetic for the pair, against what the forward pass stored.
void softmax_equations(const Frame& f, const Pair& p) {
    const vit::StepExplanation& e = p.e;
    step_heading(f, "5", "Softmax",
                 "Turns the scores of all keys into weights that are positive and add up to 1: "
                 "exponentiate each, divide by the total Z.");
    equation(f, "exp(%s/%s) = exp(%.4f) = %s", sym::s_ij, sym::sqrt_dk, e.scaled_score,
             five_digits(e.exp_score).c_str());
    equation(f, "Z = Σⱼ exp(sᵢⱼ/√dₖ) = %s   (over all %d keys j)", five_digits(e.z).c_str(), p.t.tokens);
    equation(f, "%s = %s / %s = %s", sym::a_ij, five_digits(e.exp_score).c_str(), five_digits(e.z).c_str(),
             five_digits(e.recomputed_weight).c_str());
    // The recomputation against what the forward pass stored (float32 there).
    char check[64];
    std::snprintf(check, sizeof check, "%s the model's %s", e.agrees ? "✓" : "≠", five_digits(e.model_weight).c_str());
    same_line_if_fits(ImGui::CalcTextSize(check).x);
    ImGui::TextColored(e.agrees ? colors::ok : colors::error, "%s", check);
}

void value_step(const Frame& f, const Pair& p) {
    step_heading(f, "6", "Value", "What each patch hands over when attended: its token times W_V.");
    norm_row(f, sym::v_j, "##v", p.e.v, p.d, p.e.value_extent);
}

// The keys that contribute most to the output; a row pins its key.
void contributions(const Frame& f, const Pair& p) {
    const auto& all = p.e.contributions;
    char caption[200];
    std::snprintf(caption, sizeof caption,
                  "Keys contributing most to head %d's output (by aᵢⱼ · ‖vⱼ‖; share = of the sum "
                  "over all %d keys, CLS included):",
                  p.e.head, p.t.tokens);
    text_wrapped_at_spaces(colors::muted, caption);
    const ImGuiTableFlags flags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (NumberTable table{f, "##top", "key", {"aᵢⱼ", "‖vⱼ‖", "aᵢⱼ·‖vⱼ‖", "share of Σ"}, flags}) {
        for (size_t r = 0; r < std::min<size_t>(6, all.size()); ++r) {
            const auto& c = all[r];
            char label[64];
            std::snprintf(label, sizeof label, "%s##c%zu", vit::token_name(p.t, c.token).c_str(), r);
            if (table.selectable_row(label, c.token == p.j)) f.emit(session::act::PinKey{c.token});
            if (ImGui::IsItemHovered()) f.emit(session::act::HoverKey{c.token});
            table.number("%.4f", c.weight);
            table.number("%.3f", c.value_norm);
            table.number("%.4f", c.amount);
            table.number("%.1f %%", 100.0 * c.share);
        }
    }
}

void output_step(const Frame& f, const Pair& p) {
    step_heading(f, "7", "Output", "The query's new information: all values averaged with the attention weights.");
    norm_row(f, "oᵢ", "##o", p.e.output, p.d, p.e.value_extent);
    equation(f, "%s = Σⱼ aᵢⱼ vⱼ   (the strips of v share one colour scale)", sym::o_i);
    // "A few keys dominate" only when the contributions below show it.
    text_wrapped_at_spaces(colors::muted, vit::contributions_sentence(p.e).c_str());
    contributions(f, p);
}

}  // namespace

void MathPanel::maps(const Frame& f, const vit::StepExplanation& e, std::initializer_list<Map> which, float below) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const int n = static_cast<int>(which.size());
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const float title_and_bar = ImGui::GetTextLineHeightWithSpacing() + f.px(14) + ImGui::GetTextLineHeight() + gap;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float w = std::floor((avail.x - (n - 1) * gap) / n);
    // Never below a readable size (the panel scrolls rather than shrink them to stamps), but in the room
    // the panel has down to that: on a projector the card's large key sentence takes some of it.
    const float h = std::max(f.px(80), avail.y - below - title_and_bar);
    const ImVec2 size = fit_photo(s, ImVec2(w, std::min(w, h)));
    const gfx::Marks marks = marks_for(t, s.sel.query, s.sel.hovered_key, s.sel.pinned_key);
    const char* titles[3] = {"raw score sᵢⱼ", "scaled sᵢⱼ/√dₖ", "softmax weight aᵢⱼ"};
    MapView* views[3] = {&raw_, &scaled_, &weights_};
    bool first = true;
    for (Map m : which) {
        if (!first) ImGui::SameLine();
        first = false;
        const MapData map =
            m == Weights ? weights_map(t, e.weights, s.style) : signed_map(t, m == Raw ? e.raw : e.scaled, s.style);
        ImGui::BeginGroup();
        ImGui::PushID(m);
        ImGui::TextUnformatted(titles[m]);
        const MapHit hit = views[m]->show(f, "##map", &map, marks, size);
        color_bar(f, map, size.x, m == Weights ? "weight" : "score");
        if (hit.hovered) {
            f.emit(session::act::HoverKey{hit.token});
            if (hit.clicked && hit.token >= 0) f.emit(session::act::PinKey{hit.token});
        }
        ImGui::PopID();
        ImGui::EndGroup();
    }
}

// The stages of the softmax step as maps over the photo: all three, or in
// classroom mode the two of this step, larger.
void MathPanel::softmax_maps(const Frame& f, const vit::Trace& t, const vit::StepExplanation& e, bool one_step) {
    ImGui::Spacing();
    if (one_step) maps(f, e, {Scaled, Weights}, 5 * ImGui::GetTextLineHeightWithSpacing());
    else maps(f, e, {Raw, Scaled, Weights}, 0);
    char general[320];
    std::snprintf(general, sizeof general,
                  "Raw and scaled maps share a pattern; only the numbers on the bar shrink by "
                  "√dₖ. %s",
                  vit::kSoftmaxGeneral);
    text_wrapped_at_spaces(colors::muted, general);
    equation(f, "Σⱼ aᵢⱼ = %.6f   largest %.4f on %s   spread ≈ %.1f keys", e.row.sum, e.row.max,
             vit::token_name(t, e.row.argmax).c_str(), e.row.effective_keys);
    // "A few keys dominate" only when this row shows it (vit::few_keys).
    text_wrapped_at_spaces(colors::muted, vit::weights_sentence(e).c_str());
}

void MathPanel::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace* tp = s.trace();
    if (!tp) {
        ImGui::TextColored(colors::muted, "The math appears once a model has run on a photo.");
        return;
    }
    const vit::Trace& t = *tp;
    const Key key = key_of(s);
    const vit::StepExplanation e = vit::explain_step(t, s.sel.layer, s.sel.head, s.sel.query, key.token);
    const Pair p{t, s.sel.query, key.token, t.head_dim, e};
    header(f, p, key);
    // Classroom mode shows one step at a time, large, with its own way forward and back.
    const bool one_step = s.classroom;
    if (one_step) step_navigator(f);
    ImGui::Separator();
    const auto shown = [&](int step) { return !one_step || s.math_step == step; };
    if (shown(1)) query_step(f, p);
    if (shown(2)) key_step(f, p);
    if (shown(3)) {
        score_step(f, p);
        if (one_step) {  // every key's score at once
            ImGui::Spacing();
            maps(f, e, {Raw}, 0);
        }
    }
    if (shown(4)) {
        scale_step(f, p);
        if (one_step) {  // the same pattern before and after: only the bar's numbers shrink
            ImGui::Spacing();
            maps(f, e, {Raw, Scaled}, 0);
        }
    }
    if (shown(5)) {
        softmax_equations(f, p);
        softmax_maps(f, t, e, one_step);
    }
    if (shown(6)) value_step(f, p);
    if (shown(7)) output_step(f, p);
    frame_for_tour(f);
}

void MathPanel::frame_for_tour(const Frame& f) {
    const auto& tour = f.s.tour;
    const bool asked = tour.tour && tour.tour->steps[tour.step].frame == "contributions";
    if (!asked) {
        framed_tour_ = nullptr;
        return;
    }
    if (framed_tour_ == tour.tour.get() && framed_step_ == tour.step) return;
    ImGui::SetScrollHereY(1.0f);  // the table's last row at the bottom of the view, its heading above it
    framed_tour_ = tour.tour.get();
    framed_step_ = tour.step;
}

}  // namespace ui
