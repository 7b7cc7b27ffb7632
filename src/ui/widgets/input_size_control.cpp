#include "ui/widgets/input_size_control.h"

#include <algorithm>
#include <cstdio>

#include "ui/widgets/imgui_helpers.h"
#include "vit/analysis/quadratic.h"
#include "vit/base/error.h"
#include "vit/base/memory_budget.h"

namespace ui {
namespace {

constexpr float kComboWidth = 86;

int current_size(const session::AppState& s) { return s.loaded.input ? s.loaded.input->size : 0; }

}  // namespace

std::vector<InputSizeChoice> input_size_choices(const session::AppState& s) {
    std::vector<InputSizeChoice> out;
    const vit::Model* m = s.loaded.model.get();
    if (!m) return out;
    std::vector<int> sizes = vit::default_timing_sizes(*m);
    sizes.push_back(m->config.pre.input_size);
    if (current_size(s)) sizes.push_back(current_size(s));
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    std::string budget_error;
    size_t budget = 0;
    try {
        budget = vit::default_memory_budget();
    } catch (const vit::Error& e) {
        budget_error = e.what();
    }
    for (int px : sizes) {
        InputSizeChoice c{px, budget_error};
        if (px <= 0 || px % m->patch) {
            c.refusal = "not a multiple of the patch size " + std::to_string(m->patch);
        } else if (c.refusal.empty()) {
            const size_t need = vit::trace_bytes(*m, px, {});
            if (need > budget)
                c.refusal = "its trace would take " + vit::byte_size(need) + ", over the memory budget of " +
                            vit::byte_size(budget) + " (VITSCOPE_MEMORY_BUDGET raises it)";
        }
        out.push_back(std::move(c));
    }
    return out;
}

void input_size_control(const Frame& f) {
    const session::AppState& s = f.s;
    const int now = current_size(s);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Input");
    ImGui::SameLine();
    char preview[32];
    std::snprintf(preview, sizeof preview, now ? "%d px" : "—", now);
    if (f.figure) {  // print: the size, not a menu
        ImGui::TextUnformatted(preview);
        return;
    }
    ImGui::SetNextItemWidth(f.px(kComboWidth));
    ImGui::BeginDisabled(!s.loaded.model || s.work.busy);
    if (ImGui::BeginCombo("##input_size", preview)) {
        for (const InputSizeChoice& c : input_size_choices(s)) {
            const int grid = c.px / s.loaded.model->patch;
            char label[96];
            std::snprintf(label, sizeof label, "%d px · %d × %d patches%s%s", c.px, grid, grid,
                          c.px == s.loaded.model->config.pre.input_size ? " (the model's own)" : "",
                          c.refusal.empty() ? "" : " · too large");
            ImGui::BeginDisabled(!c.refusal.empty());
            if (ImGui::Selectable(label, c.px == now) && c.px != now) f.emit(session::cmd::SetInputSize{c.px});
            ImGui::EndDisabled();
            if (!c.refusal.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                ImGui::SetTooltip("%s", c.refusal.c_str());
        }
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    tooltip(
        "The side of the square the photo is resized to before the model sees it. A larger input makes more, "
        "smaller patches (position embeddings interpolated); every panel follows the new grid.");
}

}  // namespace ui
