#include "ui/panels/whatif_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/widgets/color_bar.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/theme.h"
#include "vit/analysis/attention_rows.h"
#include "vit/analysis/whatif.h"
#include "vit/forward/token_name.h"

namespace ui {
void WhatIfPanel::draw(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace* tp = s.trace();
    if (!tp) {
        ImGui::TextColored(colors::muted, "What-ifs appear once a model has run on a photo.");
        return;
    }
    const vit::Trace& t = *tp;
    const int l = s.sel.layer, h = s.sel.head, i = s.sel.query;

    // The banner: nothing on this tab is what the model computes.
    ImGui::PushStyleColor(ImGuiCol_ChildBg, colors::whatif_bg);
    char line[160];
    std::snprintf(line, sizeof line, "Layer %d · head %d · query %s, with one step of attention changed.", l, h,
                  vit::token_name(t, i).c_str());
    const float wrap = ImGui::GetContentRegionAvail().x - f.px(16);
    ImGui::PushFont(f.fonts.bold);
    const float title_h = wrapped_lines("WHAT-IFS: not what the model computes", ImGui::GetFont(), wrap).size() *
                          ImGui::GetTextLineHeightWithSpacing();
    ImGui::PopFont();
    const float banner_h = title_h + ImGui::CalcTextSize(line, nullptr, false, wrap).y + f.px(12);
    if (ImGui::BeginChild("##banner", ImVec2(0, banner_h), false, ImGuiWindowFlags_NoScrollbar)) {
        ImGui::SetCursorPos(ImVec2(f.px(8), f.px(5)));
        ImGui::PushFont(f.fonts.bold);
        text_wrapped_at_spaces(colors::whatif, "WHAT-IFS: not what the model computes", wrap);
        ImGui::PopFont();
        ImGui::SetCursorPosX(f.px(8));
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
        ImGui::TextColored(colors::strong, "%s", line);
        ImGui::PopTextWrapPos();
    }
    ImGui::EndChild();
    ImGui::PopStyleColor();

    const vit::Vec real = vit::attention_row(t, l, h, i);
    const gfx::Marks marks = marks_for(t, i, s.sel.hovered_key, s.sel.pinned_key);

    const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
    const float avail = ImGui::GetContentRegionAvail().x;
    const int cols = avail > f.px(700) ? 3 : 2;
    const float card_w = std::floor((avail - gap * (cols - 1)) / cols);
    const ImVec2 size = fit_photo(s, ImVec2(card_w, card_w));
    // Room for the longest title + explanation at this width.
    float header_h = 0;
    for (vit::WhatIf kind : vit::kAllWhatIfs)
        header_h = std::max(header_h, ImGui::CalcTextSize(vit::whatif_explanation(kind), nullptr, false, card_w).y);
    header_h += ImGui::GetTextLineHeightWithSpacing() + f.px(10);

    for (int c = 0; c < 5; ++c) {
        if (c % cols) ImGui::SameLine(0, gap);
        ImGui::BeginGroup();
        ImGui::PushID(c);
        const float top = ImGui::GetCursorPosY();
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + card_w);
        vit::WhatIfOutcome outcome{real, true, vit::summarize_row(real), 0.0};
        if (c == 0) {
            ImGui::PushFont(f.fonts.bold);
            ImGui::TextColored(colors::ok, "The model: softmax(qᵢ·kⱼ/√dₖ)");
            ImGui::PopFont();
            ImGui::TextColored(colors::muted, "The real weights, for comparison.");
        } else {
            const vit::WhatIf kind = vit::kAllWhatIfs[c - 1];
            char badge[96];
            std::snprintf(badge, sizeof badge, "WHAT-IF · %s", vit::whatif_name(kind));
            whatif_badge(f, badge);
            ImGui::TextColored(colors::muted, "%s", vit::whatif_explanation(kind));
            outcome = vit::whatif_outcome(t, l, h, i, kind, s.temperature);
        }
        ImGui::PopTextWrapPos();
        // Headers of different lengths still leave the maps of a row aligned.
        const float header_end = top + header_h;
        if (ImGui::GetCursorPosY() < header_end) ImGui::SetCursorPosY(header_end);
        const vit::Vec& row = outcome.weights;
        const bool distribution = outcome.distribution;
        const MapData map = distribution ? weights_map(t, row, s.style) : signed_map(t, row, s.style);
        const MapHit hit = views_[c].show(f, "##map", &map, marks, size);
        if (hit.hovered) {
            f.emit(session::act::HoverKey{hit.token});
            if (hit.token >= 0) {
                ImGui::SetTooltip("%s: %s %.4f", vit::token_name(t, hit.token).c_str(),
                                  c == 0 ? "weight" : "what-if weight", row[hit.token]);
                if (hit.clicked) f.emit(session::act::PinKey{hit.token});
            }
        }
        color_bar(f, map, size.x, distribution ? "weight" : "raw score used as weight");

        const vit::RowSummary& sum = outcome.summary;
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + card_w);  // a long line must not push the next card aside
        ImGui::PushFont(f.fonts.mono);
        if (distribution) {
            char text[64];
            std::snprintf(text, sizeof text, "Σ = %.4f · max %.3f", sum.sum, sum.max);
            text_wrapped_at_spaces(text, card_w);
            ImGui::Text("spread ≈ %.1f keys", sum.effective_keys);
        } else {
            // Said of this row only when it is so: raw scores can all be positive.
            if (std::abs(sum.sum - 1.0) > 1e-3) ImGui::TextColored(colors::error, "Σ = %.1f, not 1", sum.sum);
            else ImGui::Text("Σ = %.4f", sum.sum);
            if (sum.min < 0) ImGui::TextColored(colors::error, "min %.2f: negative weights", sum.min);
            else ImGui::Text("min %.2f: none negative here", sum.min);
        }
        if (c > 0) {
            const double change = outcome.output_change;
            if (change < 10) ImGui::Text("output changes by %.0f %%", 100.0 * change);
            else ImGui::Text("‖o′ − o‖ = %.3g × ‖o‖", change);
        } else {
            ImGui::TextUnformatted("");
        }
        ImGui::PopFont();
        ImGui::PopTextWrapPos();
        if (c > 0 && vit::kAllWhatIfs[c - 1] == vit::WhatIf::Temperature) {
            float temp = s.temperature;
            ImGui::SetNextItemWidth(card_w - ImGui::CalcTextSize("T").x - f.px(8));
            if (ImGui::SliderFloat("T", &temp, 0.05f, 20.f, "%.2f", ImGuiSliderFlags_Logarithmic))
                f.emit(session::act::SetTemperature{temp});
            tooltip(
                "T < 1 sharpens the weights towards the best-matching key; T > 1 flattens them towards uniform. "
                "T = 1 gives back the model's own weights.");
            if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
                f.emit(session::act::SetTemperature{1.f});
        }
        ImGui::PopID();
        ImGui::EndGroup();
        if (c % cols != cols - 1) continue;
        ImGui::Spacing();
    }
    ImGui::NewLine();
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(
        colors::muted,
        "\"Output changes\" compares oᵢ = Σⱼ wⱼ vⱼ under the what-if with the model's own oᵢ "
        "(‖o' − o‖ / ‖o‖). Spread = 1 / Σ a²: how many keys the weights effectively cover (1 = all on one key).");
    ImGui::PopTextWrapPos();
}

}  // namespace ui
