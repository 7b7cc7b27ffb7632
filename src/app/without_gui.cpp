// Built instead of the window and export when CMake has VITSCOPE_GUI=OFF.
#include "app/subcommands.h"
#include "app/explain_figure.h"
#include "vit/base/error.h"

namespace app {

int cmd_export(const CliArgs&) { throw vit::Error("this build has no graphics (configured with VITSCOPE_GUI=OFF)"); }
int cmd_sweep(const CliArgs&) { throw vit::Error("this build has no graphics (configured with VITSCOPE_GUI=OFF)"); }
int cmd_tour(const CliArgs&) { throw vit::Error("this build has no graphics (configured with VITSCOPE_GUI=OFF)"); }
int cmd_lesson(const CliArgs&) {
    throw vit::Error("vitscope lesson is part of the GUI build (configured with VITSCOPE_GUI=OFF)");
}
int cmd_exercises(const CliArgs&) {
    throw vit::Error("vitscope exercises is part of the GUI build (configured with VITSCOPE_GUI=OFF)");
}
int lab_slides(const CliArgs&, const std::string&) {
    throw vit::Error("vitscope lab -o (slides) is part of the GUI build (configured with VITSCOPE_GUI=OFF); use --csv");
}
int run_window(const CliArgs&) { throw vit::Error("this build has no window (configured with VITSCOPE_GUI=OFF)"); }

std::string check_explain_figure(const CliArgs&, const std::string&) {
    throw vit::Error("-o: this build has no graphics for figures (configured with VITSCOPE_GUI=OFF); use --csv");
}
ExplainFigure explain_figure(const CliArgs&, Pipeline, std::optional<Pipeline>, const std::string&) {
    throw vit::Error("this build has no graphics (configured with VITSCOPE_GUI=OFF)");
}

}  // namespace app
