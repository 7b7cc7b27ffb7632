// Entry points of the vitscope subcommands (their sources in app/commands/;
// the window's own requests are session/dispatch/requests.h); each returns
// the process exit code and throws vit::Error for anything it refuses (main
// prints it as one line).
#pragma once
#include "app/cli_args.h"

namespace app {

int cmd_classify(const CliArgs& args);
int cmd_attention(const CliArgs& args);
int cmd_info(const CliArgs& args);
int cmd_dump(const CliArgs& args);     // developer: trace as .npy files for the reference tests
int cmd_explain(const CliArgs& args);  // a Questions page's numbers (explain_questions.h)
int cmd_export(const CliArgs& args);   // offscreen figure (needs the GUI build)
int cmd_tour(const CliArgs& args);     // a guided tour as slides (needs the GUI build)
int cmd_sweep(const CliArgs& args);
int cmd_train(const CliArgs& args);      // train a tiny ViT from scratch (vit/train)
int cmd_lab(const CliArgs& args);        // the Learning lab's numbers for a training run
int lab_slides(const CliArgs& args, const std::string& run);  // its -o DIR: the timeline as slides (GUI build)
int cmd_lesson(const CliArgs& args);     // the lesson page: one self-contained HTML file (GUI build)
int cmd_exercises(const CliArgs& args);  // a homework file's answer key on a photo (GUI build)
int run_window(const CliArgs& args);     // the explorer window (needs the GUI build)

}  // namespace app
