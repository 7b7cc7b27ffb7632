#include "ui/panels/status_bar.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "ui/widgets/bounded_text.h"
#include "ui/widgets/theme.h"
#include "vit/base/printable.h"

namespace ui {

float status_bar_height() { return ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y; }

namespace {

struct Piece {
    std::string text;
    ImVec4 colour;
    int priority;  // the lower, the sooner it gives way when the bar is narrow (classroom type)
};

// The end of `text` in at most `width` pixels, "…" before it: of a saved
// file's path, its name matters most.
std::string tail_within(const std::string& text, float width) {
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
    for (size_t from = 1; from < text.size(); ++from) {
        if ((static_cast<unsigned char>(text[from]) & 0xC0) == 0x80) continue;  // inside a UTF-8 character
        const std::string t = "…" + text.substr(from);
        if (ImGui::CalcTextSize(t.c_str()).x <= width) return t;
    }
    return "…";
}

std::string format(const char* fmt, auto... args) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    return buf;
}

}  // namespace

void status_bar(const Frame& f, float height) {
    const session::AppState& s = f.s;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(0, display.y - height));
    ImGui::SetNextWindowSize(ImVec2(display.x, height));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(f.px(10), f.px(3)));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, colors::bar_bg);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (ImGui::Begin("##status", nullptr, flags)) {
        ImGui::AlignTextToFramePadding();
        // One line: what does not fit gives way, the least needed first.
        std::vector<Piece> pieces;
        if (const vit::Trace* t = s.trace()) {
            const std::string name = s.loaded.model ? s.loaded.model->config.name : "";
            const std::string model =
                name.empty() ? std::filesystem::path(s.loaded.model_dir).filename().string() : name;
            pieces.push_back({bounded(model), ImGui::GetStyleColorVec4(ImGuiCol_Text), 2});
            // No weight shape shows how many heads split a layer: say when only config.json does.
            const bool heads_checked = s.loaded.model && s.loaded.model->config.heads_checked;
            pieces.push_back(
                {format("%d layers × %d heads%s · %d tokens (%d×%d patches + %d)", s.layers(), s.heads(),
                        heads_checked ? "" : " (as config.json says)", t->tokens, t->grid, t->grid, t->prefix),
                 ImGui::GetStyleColorVec4(ImGuiCol_Text), 3});
            pieces.push_back({format("forward pass %.0f ms", 1000.0 * s.last_forward_seconds),
                              ImGui::GetStyleColorVec4(ImGuiCol_Text), 1});
        } else {
            pieces.push_back({"no model run yet", colors::muted, 3});
        }
        pieces.push_back({format("frame %.1f ms", s.frame_ms), colors::muted, 0});
        if (s.work.busy)
            pieces.push_back({format("%s… %.1f s", s.work.stage.c_str(), s.work.seconds), colors::accent, 4});
        // Bounded before it is measured, too: tail_within measures it once a character.
        if (!s.last_error.empty()) pieces.push_back({bounded(vit::printable(s.last_error)), colors::error, 5});
        else if (!s.status.empty()) pieces.push_back({bounded(s.status), colors::ok, 5});

        const char* sep = " · ";
        const float room = ImGui::GetContentRegionAvail().x, sep_w = ImGui::CalcTextSize(sep).x;
        // Drop the least needed until the rest fits; the most needed is shortened from its start if alone it does not.
        std::vector<bool> shown(pieces.size(), true);
        auto width = [&] {
            float w = 0;
            for (size_t i = 0; i < pieces.size(); ++i)
                if (shown[i]) w += (w > 0 ? sep_w : 0) + ImGui::CalcTextSize(pieces[i].text.c_str()).x;
            return w;
        };
        for (int p = 0; p < 5 && width() > room; ++p)
            for (size_t i = 0; i < pieces.size(); ++i)
                if (pieces[i].priority == p) shown[i] = false;
        const float used = width();
        bool first = true;
        for (size_t i = 0; i < pieces.size(); ++i) {
            if (!shown[i]) continue;
            if (!first) {
                ImGui::SameLine(0, 0);
                ImGui::TextColored(colors::muted, "%s", sep);
                ImGui::SameLine(0, 0);
            }
            first = false;
            // The message (priority 5) takes what the others leave, shortened from its start.
            const std::string text =
                pieces[i].priority == 5
                    ? tail_within(pieces[i].text, room - (used - ImGui::CalcTextSize(pieces[i].text.c_str()).x))
                    : pieces[i].text;
            ImGui::TextColored(pieces[i].colour, "%s", text.c_str());
        }
    }
    ImGui::End();
    ImGui::PopStyleColor();
    ImGui::PopStyleVar();
}

}  // namespace ui
