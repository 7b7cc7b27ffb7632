// A Questions page's Export figure button in the window: the page's figure
// (ui/figures/page_figure.h), once the experiments it shows have run on the window's
// ExperimentRunner, one after the other, so the window stays responsive
// meanwhile. Default names describe the content (dog_L8_H1_r5c7_scaling.png)
// and never replace a file.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "session/dispatch/requests.h"
#include "session/base/experiments.h"
#include "session/state/app_state.h"
#include "vit/base/output_file.h"

namespace app {

class QuestionFigureExport {
public:
    // Starts exporting the page to path (empty: a name in s.export_dir),
    // unless an export is still under way.
    // Refused at once (vit::OutputExists, vit::Error) by the output rule.
    void start(session::AppState& s, const std::string& page, const std::string& path, const vit::OutputRules& rules);
    // Once per frame, with the window's GL context current: starts the next
    // experiment the figure needs, or saves the figure when none is missing.
    // Reports in s.status and s.last_error.
    void step(session::AppState& s, session::ExperimentRunner& runner);
    // The path being exported; empty when none.
    std::string exporting() const { return pending_ ? pending_->path : std::string(); }
    // When the write found a file of the chosen name that appeared since the
    // name was chosen: the export to ask about (its path the file's), once.
    std::optional<session::cmd::ExportQuestionFigure> take_question() { return std::exchange(question_, std::nullopt); }
    // Why the last export failed once it was under way (as s.last_error says), once.
    std::optional<std::string> take_failure() { return std::exchange(failure_, std::nullopt); }

private:
    struct Pending {
        std::string path, question;
        vit::OutputRules rules;
        std::set<std::string> started;  // experiments run for it: each once
    };
    std::optional<Pending> pending_;
    std::optional<session::cmd::ExportQuestionFigure> question_;
    std::optional<std::string> failure_;
};

}  // namespace app
