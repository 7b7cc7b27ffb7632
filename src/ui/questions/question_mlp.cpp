// "What does the rest of the block do?": the selected token's way through the
// selected layer's block, part by part with the norm of each (the heads'
// outputs, W_O, the residual additions, the MLP), and the checks that the MLP
// reads this token alone while attention reads them all.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/map_data.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/vector_strip.h"
#include "ui/widgets/bounded_text.h"
#include "vit/analysis/mlp.h"
#include "vit/forward/token_name.h"

namespace ui {
namespace {

class MlpView : public QuestionView {
public:
    void draw(const Frame& f) override;

private:
    void path_parts(const Frame& f, const vit::TokenPath& p, const std::vector<vit::PartNorm>& norms, float w);
    void checks(const Frame& f, const vit::TokenPath& p);
};

// token_path recomputes the block's MLP for every token (~10 ms for ViT-Ti at
// 224 px, far more for larger models and inputs): off the window's thread.
struct PathNumbers {
    vit::TokenPath path;
    std::vector<vit::PartNorm> norms;
};

// One part: its name, a strip of its numbers (when given), and a bar of its
// norm against the largest norm on the path.
void part_row(const Frame& f, const char* name, const vit::Vec* v, float extent, double norm, double max_norm, float w,
              const ImVec4& colour = colors::muted) {
    // The name left of the numbers when it fits, else above them.
    const float label_w = std::min(f.px(250), w * 0.42f);
    const bool beside = ImGui::CalcTextSize(name).x + f.px(8) <= label_w;
    const float bar_w = beside ? w - label_w - f.px(8) : w - f.px(8);
    ImGui::PushID(name);
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(colour, "%s", name);
    if (beside) ImGui::SameLine(label_w);
    ImGui::BeginGroup();
    if (v) vector_strip(f, "##strip", v->data(), static_cast<int>(v->size()), extent, bar_w);
    // The norm's bar, its number after it (readable on any bar colour).
    char text[48];
    std::snprintf(text, sizeof text, "‖·‖ = %.2f", norm);
    const float text_w = ImGui::CalcTextSize("‖·‖ = 0000.00").x + f.px(8);
    const float h = ImGui::GetFrameHeight(), room = std::max(f.px(20), bar_w - text_w);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float len = max_norm > 0 ? static_cast<float>(norm / max_norm) * room : 0.f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(p.x, p.y + h * 0.2f), ImVec2(p.x + room, p.y + h * 0.8f),
                      ImGui::GetColorU32(ImGuiCol_FrameBg));
    dl->AddRectFilled(ImVec2(p.x, p.y + h * 0.2f), ImVec2(p.x + len, p.y + h * 0.8f), ImGui::GetColorU32(colour));
    ImGui::Dummy(ImVec2(room, h));
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::PushFont(f.fonts.mono);
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
    ImGui::EndGroup();
    ImGui::PopID();
}

void step(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colors::muted);
    ImGui::TextWrapped("↓  %s", text);
    ImGui::PopStyleColor();
}

void MlpView::path_parts(const Frame& f, const vit::TokenPath& p, const std::vector<vit::PartNorm>& norms, float w) {
    const int heads = static_cast<int>(p.head_outputs.size());
    // token_path_norms' order: head_0 .. head_{H-1}, attention_output, residual_before,
    // residual_after_attention, mlp_output, residual_after.
    double max_norm = 0;
    for (const vit::PartNorm& n : norms) max_norm = std::max(max_norm, n.norm);
    auto norm_of = [&](int i) { return norms.at(static_cast<size_t>(i)).norm; };
    float head_extent = 0;
    for (const vit::Vec& o : p.head_outputs) head_extent = std::max(head_extent, o.cwiseAbs().maxCoeff());
    const float add_extent = std::max(p.attention_output.cwiseAbs().maxCoeff(), p.mlp_output.cwiseAbs().maxCoeff());

    part_row(f, "xᵢ entering the block", nullptr, 0, norm_of(heads + 1), max_norm, w);
    step("LayerNorm, then every head attends over all tokens: oₕ = Σⱼ aₕⱼ vⱼ");
    for (int h = 0; h < heads; ++h) {
        char name[48];
        std::snprintf(name, sizeof name, "head %d's output (%d numbers)", h,
                      static_cast<int>(p.head_outputs[h].size()));
        part_row(f, name, &p.head_outputs[h], head_extent, norm_of(h), max_norm, w, colors::accent);
    }
    char text[160];
    std::snprintf(text, sizeof text, "the heads' outputs side by side (%d numbers), times W_O, plus its bias%s",
                  heads * static_cast<int>(p.head_outputs.empty() ? 0 : p.head_outputs[0].size()),
                  p.layer_scale ? ", times the layer scale" : "");
    step(text);
    part_row(f, "what attention adds", &p.attention_output, add_extent, norm_of(heads), max_norm, w, colors::accent);
    step("added to the token: the residual stream");
    part_row(f, "xᵢ + attention", nullptr, 0, norm_of(heads + 2), max_norm, w);
    step(p.layer_scale ? "LayerNorm, then the MLP (fc1, GELU, fc2) on this token alone, times the layer scale"
                       : "LayerNorm, then the MLP (fc1, GELU, fc2) on this token alone");
    part_row(f, "what the MLP adds", &p.mlp_output, add_extent, norm_of(heads + 3), max_norm, w, colors::ok);
    step("added again");
    part_row(f, "the token leaving the block", nullptr, 0, norm_of(heads + 4), max_norm, w);
    note(
        "The bars compare the norms (lengths) along the path; the strips share one colour scale per kind (heads; "
        "the two additions), blue negative, red positive.");
}

void MlpView::checks(const Frame& f, const vit::TokenPath& p) {
    evidence_heading(f, "Checked on this token: the MLP works on each token alone");
    auto check = [&](bool whatif, const char* what, double v, const char* meaning) {
        if (whatif) whatif_badge(f, "WHAT-IF");
        else ImGui::TextColored(colors::ok, "THE MODEL");
        ImGui::SameLine();
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(whatif ? colors::whatif : colors::strong, "%s", what);
        ImGui::PopTextWrapPos();
        ImGui::Indent(f.px(16));
        ImGui::PushFont(f.fonts.mono);
        ImGui::Text("max |difference| = %.3g", v);
        ImGui::PopFont();
        ImGui::SameLine();
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(colors::muted, "%s", meaning);
        ImGui::PopTextWrapPos();
        ImGui::Unindent(f.px(16));
    };
    check(false,
          "The MLP output of this token computed from its row alone, against the forward pass's (all tokens at once)",
          p.mlp_alone_max_abs_diff, "the same up to float rounding");
    check(true, "Every other token replaced by zeros before the MLP: the change in this token's MLP output",
          p.mlp_others_zeroed_max_abs_diff, "nothing: the MLP never reads the other tokens");
    check(true, "Every other token replaced by zeros before attention: the change in this token's attention output",
          p.attention_others_zeroed_max_abs_diff, "large: attention is where tokens mix");
}

void MlpView::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const int l = s.sel.layer, q = s.sel.query;
    const auto numbers =
        analysis<PathNumbers>(f, experiment_key(f, "mlp-path-L" + std::to_string(l) + "-q" + std::to_string(q)),
                              [model = s.loaded.model, trace = s.loaded.trace, l, q] {
                                  PathNumbers n{vit::token_path(*model, *trace, l, q), {}};
                                  n.norms = vit::token_path_norms(n.path);
                                  return n;
                              });
    const float w = ImGui::GetContentRegionAvail().x;
    char title[128];
    std::snprintf(title, sizeof title, "On this photo: %s (token %d) through block %d", vit::token_name(t, q).c_str(),
                  q, l);
    evidence_heading(f, title);
    if (!numbers) return computing_note("the token's path through the block");
    if (!numbers->value) {
        ImGui::TextColored(colors::error, "%s", bounded(numbers->error).c_str());
        return;
    }
    path_parts(f, numbers->value->path, numbers->value->norms, w);
    checks(f, numbers->value->path);
}

}  // namespace

std::unique_ptr<QuestionView> make_mlp_view() { return std::make_unique<MlpView>(); }

}  // namespace ui
