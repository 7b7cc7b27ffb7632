#include "ui/questions/cls_token_norms.h"

#include <cstdio>
#include <string>

#include "ui/questions/question_widgets.h"
#include "ui/widgets/figure_probe.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/theme.h"
#include "vit/analysis/token_norms.h"
#include "vit/base/error.h"

namespace ui {

void cls_token_norms_section(const Frame& f) {
    const vit::Trace& t = *f.s.trace();
    std::vector<vit::LayerNorms> norms;
    try {
        norms = vit::token_norms(t);
    } catch (const vit::Error& e) {
        evidence_heading(f, "On this photo: token norms");
        note(e.what());
        return;
    }
    // What the heading says of this photo is the high_norm_tokens claim, layer by layer.
    const std::vector<int> high = vit::layers_with_high_norm(norms);
    char heading[200];
    if (high.empty())
        std::snprintf(heading, sizeof heading,
                      "On this photo: token norms (no high-norm patch in any of the %d layers)",
                      static_cast<int>(norms.size()));
    else
        std::snprintf(heading, sizeof heading,
                      "On this photo: token norms (high-norm patches in %d of the %d layers, "
                      "from layer %d)",
                      static_cast<int>(high.size()), static_cast<int>(norms.size()), high.front());
    evidence_heading(f, heading);
    char text[1024];
    std::snprintf(
        text, sizeof text,
        "Each token's vector leaving each layer, measured by its length (norm). A patch counts as high-norm "
        "when its norm is at least %.0f times the median patch's. Darcet et al. (2023, \"Vision Transformers "
        "Need Registers\") found such tokens in many trained ViTs, in background patches that carry little "
        "of their own: a model stores global information in them, and CLS and other queries read it "
        "there. Weight on them is weight on that stored information, not on the pixels under them. The two weight "
        "columns are shares of all of a row's weight (CLS included), the mean over the layer's heads; the "
        "last one is also the mean over the patch queries.",
        vit::kHighNormRatio);
    note(text);
    bool narrow = false;
    if (!begin_table_fitting(f, "##norms", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH, 620,
                             static_cast<int>(norms.size()) + 2, &narrow))
        return;
    ImGui::TableSetupColumn("layer", ImGuiTableColumnFlags_WidthFixed);  // as wide as its name
    ImGui::TableSetupColumn("median patch norm");
    ImGui::TableSetupColumn("largest / median");
    ImGui::TableSetupColumn("high-norm patches", ImGuiTableColumnFlags_WidthStretch, 2.f);
    ImGui::TableSetupColumn("CLS's weight on them (mean of heads)");
    ImGui::TableSetupColumn("a patch query's (mean of queries and heads)");
    wrapped_headers_row();
    for (size_t l = 0; l < norms.size(); ++l) {
        const vit::LayerNorms& n = norms[l];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(static_cast<int>(l) == f.s.sel.layer ? colors::accent : colors::muted, "%zu", l);
        ImGui::PushFont(f.fonts.mono);
        ImGui::TableNextColumn();
        ImGui::Text("%.1f", n.median_patch_norm);
        ImGui::TableNextColumn();
        ImGui::Text("%.1f×", n.top_over_median);
        ImGui::TableNextColumn();
        std::string names;
        for (int j : n.high) {
            char at[32];
            std::snprintf(at, sizeof at, "%s(%d, %d)", names.empty() ? "" : ", ", t.row_of(j), t.col_of(j));
            names += at;
        }
        if (narrow) ImGui::TextUnformatted(names.empty() ? "none" : names.c_str());  // the table scrolls: one line
        else text_in_cell(ImGui::GetStyleColorVec4(ImGuiCol_Text), names.empty() ? "none" : names);
        ImGui::TableNextColumn();
        if (n.high.empty()) ImGui::TextColored(colors::muted, "—");
        else ImGui::Text("%.1f %%", 100 * n.cls_weight_on_high);
        ImGui::TableNextColumn();
        if (n.high.empty()) ImGui::TextColored(colors::muted, "—");
        else ImGui::Text("%.1f %%", 100 * n.patch_weight_on_high);
        ImGui::PopFont();
    }
    end_figure_table();
}

}  // namespace ui
