#include "ui/panels/help_window.h"

#include <algorithm>

#include "ui/widgets/theme.h"

namespace ui {
namespace {

struct Entry {
    const char* input;
    const char* effect;
};

const Entry kEntries[] = {
    {"Click a patch on the photo", "make it the query i"},
    {"Hover a patch on any map", "name it; the math panel explains it as key j"},
    {"Click a map in the math panel", "pin that key j (click again to release)"},
    {"Right-click a patch on the photo", "pin it as key j"},
    {"Esc", "release the pinned key; close dialogs"},
    {"C", "make CLS the query"},
    {"Q", "the Questions tab: why √dₖ, heads, N², CLS, global, ..."},
    {"Arrow keys", "move the query one patch"},
    {"PageUp / PageDown", "previous / next layer"},
    {"[ / ]", "previous / next head"},
    {"M", "photo shows the mean of the visible heads / the selected head"},
    {"P", "classroom mode: larger type and lines, the photo, one layer's heads, one math step"},
    {", / .", "in classroom mode: the math step before / after"},
    {"Click a head thumbnail", "show or hide that head (for the mean)"},
    {"Click a cell of the layers × heads grid", "jump to that layer and head"},
    {"Ctrl+O / Ctrl+M", "open an image / a model folder"},
    {"Drop a file or folder on the window", "open it (a folder with config.json is a model)"},
    {"Ctrl+E", "export the figure of the current map (PNG)"},
    {"F12", "screenshot of the whole window (PNG)"},
    {"Help > Guided tour",
     "step through one patch's attention; → / ← next / back, H hides or shows the text, Esc leaves"},
    {"File > Exercises in class",
     "classroom mode runs the homework one exercise at a time: the class answers, Enter reveals, "
     "→ / ← next / previous, Esc ends"},
    {"File > Learning lab…",
     "train a tiny ViT from scratch (or open a run) and drag the timeline over its checkpoints: each head's map of a "
     "square's query, step by step"},
    {"F1", "this help"},
    {"Ctrl+Q", "quit"},
};

}  // namespace

// Sized to the screen, not to a fixed width: on a 1280 x 720 projector (or
// 1024 x 768) in classroom mode's large type every row shows whole, the
// effects wrapped, in two pairs of columns where the screen is wide enough.
void help_window(const Frame& f) {
    if (!f.s.show_help) return;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float width = std::min(display.x - f.px(24), f.px(1100));
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(width, display.y - f.px(24)));
    bool open = true;
    if (ImGui::Begin("Mouse and keyboard", &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
        const int pairs = width >= f.px(900) ? 2 : 1;
        const int count = static_cast<int>(sizeof kEntries / sizeof kEntries[0]);
        const int rows = (count + pairs - 1) / pairs;
        if (ImGui::BeginTable("##keys", 2 * pairs, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp,
                              ImVec2(width - 2 * ImGui::GetStyle().WindowPadding.x, 0))) {
            for (int p = 0; p < pairs; ++p) {
                ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 0.8f);
                ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 1.2f);
            }
            for (int r = 0; r < rows; ++r) {
                ImGui::TableNextRow();
                for (int p = 0; p < pairs; ++p) {
                    const int i = p * rows + r;
                    ImGui::TableNextColumn();
                    if (i < count) {
                        ImGui::PushFont(f.fonts.bold);
                        ImGui::TextWrapped("%s", kEntries[i].input);
                        ImGui::PopFont();
                    }
                    ImGui::TableNextColumn();
                    if (i < count) ImGui::TextWrapped("%s", kEntries[i].effect);
                }
            }
            ImGui::EndTable();
        }
        ImGui::Spacing();
        ImGui::PushTextWrapPos(width - ImGui::GetStyle().WindowPadding.x);
        ImGui::TextColored(colors::muted,
                           "Every number comes from the model's forward pass on this photo. What-ifs are labelled "
                           "as such: they change one step of attention to show why it is there.");
        ImGui::PopTextWrapPos();
    }
    ImGui::End();
    if (!open) f.emit(session::act::ShowHelp{false});
}

}  // namespace ui
