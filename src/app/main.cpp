// vitscope: dispatches to the subcommands; every refusal becomes one line
// "vitscope: error: ..." on stderr and exit code 2.
#include <cstdio>
#include <exception>
#include <string>

#include "app/cli_spec.h"
#include "app/subcommands.h"
#include "app/environment.h"
#include "app/version.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/base/printable.h"
#include "vit/kernels/kernels.h"

namespace {

// `vitscope help [COMMAND]`, `vitscope COMMAND --help`: the usage on standard output.
int print_help(const app::CliArgs& args) {
    const std::string text =
        args.positional.empty() ? app::overall_usage() : app::find_command_spec(args.positional.front())->usage;
    std::fputs(text.c_str(), stdout);
    return 0;
}

int print_version() {
    std::printf("vitscope %s\nkernels: %s\n", app::version(), vit::kernel_isa());
    return 0;
}

int dispatch(const app::CliArgs& args) {
    const std::string& c = args.command;
    if (c == "help") return print_help(args);
    if (c == "version") return print_version();
    if (c == "classify") return app::cmd_classify(args);
    if (c == "attention") return app::cmd_attention(args);
    if (c == "info") return app::cmd_info(args);
    if (c == "dump") return app::cmd_dump(args);
    if (c == "export") return app::cmd_export(args);
    if (c == "explain") return app::cmd_explain(args);
    if (c == "tour") return app::cmd_tour(args);
    if (c == "sweep") return app::cmd_sweep(args);
    if (c == "lesson") return app::cmd_lesson(args);
    if (c == "train") return app::cmd_train(args);
    if (c == "lab") return app::cmd_lab(args);
    if (c == "exercises") return app::cmd_exercises(args);
    return app::run_window(args);
}

// The error as one line of reasonable length, whatever value it quotes: its
// start and its end (the end usually says what to do) around a marked cut,
// with every control byte escaped (a library's message may quote a path).
void print_error(const std::string& what) {
    std::fprintf(stderr, "vitscope: error: %s\n", vit::printable_excerpt(what, 1000).c_str());
}

}  // namespace

int main(int argc, char** argv) {
    try {
        vit::remove_temporaries_on_signals();  // an interrupted run leaves none of its temporary files
        app::CliArgs args = app::parse_cli(argc, argv);
        if (args.command != "help" && args.command != "version") app::check_environment();
        return dispatch(args);
    } catch (const std::bad_alloc&) {
        print_error("out of memory");
    } catch (const std::exception& e) {  // vit::Error, and whatever a library throws
        print_error(e.what());
    }
    return 2;
}
