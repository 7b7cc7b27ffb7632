#include "ui/panels/get_model_dialog.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "ui/widgets/bounded_text.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/theme.h"
#include "vit/formats/model_files.h"

namespace ui {
namespace {

std::string time_left(double seconds) {
    if (seconds < 0) return "";
    char text[48];
    const int s = static_cast<int>(seconds + 0.5);
    if (s < 60) std::snprintf(text, sizeof text, " · %d s left", s);
    else std::snprintf(text, sizeof text, " · %d min %02d s left", s / 60, s % 60);
    return text;
}

void progress(const Frame& f, const session::DownloadView& d) {
    char text[160];
    if (d.stage == "Checking") {
        std::snprintf(text, sizeof text, "%s: checking that %s loads", d.model.c_str(), d.file.c_str());
        ImGui::ProgressBar(1.f, ImVec2(-f.px(170), 0), text);
    } else if (d.stage == "Waiting") {  // another window fetches it now; then it is opened from there
        std::snprintf(text, sizeof text, "%s: already being fetched (another window); waiting for it", d.model.c_str());
        ImGui::ProgressBar(0.f, ImVec2(-f.px(170), 0), text);
    } else {
        if (d.total_mb > 0)
            std::snprintf(text, sizeof text, "%s: %.1f / %.1f MB%s", d.file.c_str(), d.done_mb, d.total_mb,
                          time_left(d.seconds_left).c_str());
        else std::snprintf(text, sizeof text, "%s: %.1f MB", d.file.c_str(), d.done_mb);
        ImGui::ProgressBar(d.total_mb > 0 ? static_cast<float>(d.done_mb / d.total_mb) : 0.f, ImVec2(-f.px(170), 0),
                           text);
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel download", ImVec2(-1, 0))) f.emit(session::cmd::CancelDownload{});
}

}  // namespace

void GetModelDialog::draw(const Frame& f) {
    const session::GetModelState& g = f.s.get_model;
    const char* title = "Get a model##getmodel";
    if (!g.open) return;
    const bool running = g.download.running();
    if (!ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowSize(ImVec2(std::min(display.x * 0.9f, f.px(980)), std::min(display.y * 0.85f, f.px(620))),
                             ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    bool open = true;
    if (!ImGui::BeginPopupModal(title, &open, ImGuiWindowFlags_NoSavedSettings)) return;
    if (ImGui::IsWindowAppearing() || downloaded_.size() != g.known.size() || (was_running_ && !running)) {
        downloaded_.clear();
        for (const session::KnownModel& m : g.known) downloaded_.push_back(session::is_downloaded(m, g.dir));
    }
    was_running_ = running;

    ImGui::PushFont(f.fonts.title);
    ImGui::TextUnformatted("Get a model");
    ImGui::PopFont();
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(colors::muted,
                       "From %s into %s. A download is checked (it must load) before it opens; "
                       "if anything fails, nothing is kept and the current model stays.",
                       g.mirror.empty() ? "huggingface.co" : ("the mirror " + g.mirror).c_str(),
                       g.dir.empty() ? "(no folder: set XDG_DATA_HOME or HOME)" : g.dir.c_str());
    ImGui::PopTextWrapPos();
    if (!g.list_error.empty()) ImGui::TextColored(colors::error, "%s", bounded(g.list_error).c_str());

    const float footer = ImGui::GetFrameHeightWithSpacing() * 2.4f;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerH |
                                  ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("##models", 4, flags, ImVec2(0, -footer))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("model", ImGuiTableColumnFlags_WidthStretch, 3.f);
        ImGui::TableSetupColumn("size", ImGuiTableColumnFlags_WidthFixed, f.px(100));
        ImGui::TableSetupColumn("why look at it", ImGuiTableColumnFlags_WidthStretch, 5.f);
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, f.px(60));
        wrapped_headers_row();
        for (size_t i = 0; i < g.known.size(); ++i) {
            const session::KnownModel& m = g.known[i];
            const bool here = i < downloaded_.size() && downloaded_[i];
            ImGui::PushID(static_cast<int>(i));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0);
            ImGui::PushFont(f.fonts.bold);
            ImGui::TextUnformatted(bounded(m.name).c_str());
            ImGui::PopFont();
            if (here) ImGui::TextColored(colors::ok, "downloaded");
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(session::size_text(m).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(bounded(m.why).c_str());
            ImGui::PopTextWrapPos();
            ImGui::TableNextColumn();
            ImGui::BeginDisabled(running);
            if (ImGui::Button(here ? "Open" : "Get", ImVec2(-1, 0))) f.emit(session::cmd::GetModel{m.name});
            ImGui::EndDisabled();
            ImGui::PopID();
        }
        ImGui::EndTable();
    }

    if (running) progress(f, g.download);
    else if (!g.download.error.empty()) ImGui::TextColored(colors::error, "%s", bounded(g.download.error).c_str());
    else
        ImGui::TextColored(colors::muted, "Weights: %s.",
                           vit::weight_file_names(" where the hub has it, else ").c_str());
    ImGui::SetCursorPosX(ImGui::GetWindowWidth() - f.px(100));
    if (ImGui::Button("Close", ImVec2(f.px(85), 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
        open = false;
    if (running && ImGui::IsItemHovered()) ImGui::SetTooltip("Closing cancels the download");
    if (!open) {
        if (running) f.emit(session::cmd::CancelDownload{});
        ImGui::CloseCurrentPopup();
        f.emit(session::act::ShowGetModel{false});
    }
    ImGui::EndPopup();
}

}  // namespace ui
