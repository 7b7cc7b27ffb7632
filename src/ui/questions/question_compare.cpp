#include "ui/questions/question_compare.h"

#include <filesystem>

#include "ui/questions/question_widgets.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/theme.h"

namespace ui {

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

const vit::Trace* second_photo(const Frame& f) {
    const session::AppState& s = f.s;
    const vit::Trace* a = s.trace();
    const vit::Trace* b = s.compared.trace.get();
    if (b && a && b->grid == a->grid && b->tokens == a->tokens) return b;
    if (b) note("The second photo's patch grid differs from this one's: open it again with this model.");
    else if (s.work.busy) note("Waiting for the model…");
    else note("This needs a second photo beside the open one, run through the same model.");
    if (ImGui::Button("Choose a second photo…"))
        f.emit(session::act::OpenBrowser{session::BrowserState::Mode::OpenCompare, ""});
    same_line_if_fits(ImGui::CalcTextSize("(File > Compare with…)").x);
    ImGui::TextColored(colors::muted, "(File > Compare with…)");
    return nullptr;
}

}  // namespace ui
