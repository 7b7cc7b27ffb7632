// The Questions room's command in the window: a page as a PNG figure,
// drawn once its experiments are done (QuestionFigureExport).
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "app/gui/window.h"
#include "app/resource_paths.h"
#include "session/base/overloaded.h"
#include "session/core/output_rules.h"
#include "vit/base/error.h"

namespace app {

namespace fs = std::filesystem;

void Window::carry_questions(const session::QuestionsCommands& c) {
    const auto& x = std::get<session::cmd::ExportQuestionFigure>(c);
    question_figure_.start(s_, x.page.empty() ? s_.question : x.page, x.path, session::output_rules(s_, x.replace));
    s_.exporting = question_figure_.exporting();  // at once, so a script waiting for it sees it
}

}  // namespace app
