// vitscope: dispatches to the subcommands; every refusal becomes one line
// "vitscope: error: ..." on stderr and exit code 2.
#include <cstdio>
#include <exception>
#include <string>

#include "commands.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"

namespace {

const char* kUsage =
    "usage:\n"
    "  vitscope [IMAGE] [--model DIR]                 open the explorer window\n"
    "  vitscope LESSON.vitscope                       open the window as a saved lesson left it\n"
    "           [--select ROW,COL] [--layer L] [--head H] [--window-size WxH] [--ui-scale S] [--no-settings]\n"
    "           [--screenshot OUT.png] [--state-file F.json] [--frame-stats F.json] [--script FILE] [--quit]\n"
    "           [--tour FILE] [--classroom]               start a guided tour (assets/tours/*.tour); classroom mode\n"
    "  vitscope classify IMAGE [--model DIR] [--top K]\n"
    "  vitscope attention IMAGE --layer L --head H (--patch ROW,COL | --query cls|INDEX) [--model DIR]\n"
    "  vitscope export IMAGE --layer L (--head H | --mean-heads) (--patch ROW,COL | --query cls) -o OUT.png\n"
    "           [--size PX] [--colormap viridis|magma|turbo] [--force]\n"
    "  vitscope info [--model DIR]\n"
    "  vitscope explain IMAGE --question NAME [--layer L] [--head H] [--patch ROW,COL | --query cls]\n"
    "           [--compare IMAGE2] [--seed S] [--model DIR] (--csv OUT.csv | -o OUT.png [--force] | both)\n"
    "  vitscope sweep IMAGE --layer L (--head H | --mean-heads) -o OUT.gif|OUT.webp [--path R,C;R,C...]\n"
    "           [--frame-size PX] [--delay MS] [--frames DIR] [--colormap NAME] [--dither] [--force]\n"
    "           (the query moving over the patches; GIF: 256 colours a frame, WebP: every colour)\n"
    "  vitscope tour IMAGE [--tour FILE] -o DIR [--model DIR]   (the tour's steps as 1920x1080 slides + index.html,\n"
    "                                                            claims.csv: each claim checked on this photo)\n"
    "  vitscope tour IMAGE [--tour FILE] --claims OUT.csv       (the claims alone, nothing drawn)\n"
    "  vitscope lesson IMAGE -o OUT.html [--model DIR] [--size S] [--tour FILE | --no-tour] [--force]\n"
    "           [--layer L] [--head H] [--patch ROW,COL]   (one self-contained HTML page for students' browsers)\n"
    "  vitscope dump IMAGE -o DIR [--model DIR] [--size S]   (trace as .npy, for tests)\n";

int dispatch(const app::CliArgs& args) {
    const std::string& c = args.command;
    if (c == "classify") return app::cmd_classify(args);
    if (c == "attention") return app::cmd_attention(args);
    if (c == "info") return app::cmd_info(args);
    if (c == "dump") return app::cmd_dump(args);
    if (c == "export") return app::cmd_export(args);
    if (c == "explain") return app::cmd_explain(args);
    if (c == "tour") return app::cmd_tour(args);
    if (c == "sweep") return app::cmd_sweep(args);
    if (c == "lesson") return app::cmd_lesson(args);
    if (c == "help" || args.flags.count("--help")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    return app::run_window(args);
}

// The error as one line of reasonable length, whatever value it quotes: its
// start and its end (the end usually says what to do) around a marked cut.
void print_error(const std::string& what) {
    constexpr size_t kHead = 700, kTail = 300;
    auto continuation = [&](size_t i) { return (static_cast<unsigned char>(what[i]) & 0xC0) == 0x80; };
    std::string line = what;
    if (what.size() > kHead + kTail) {
        size_t head = kHead, tail = what.size() - kTail;
        while (continuation(head)) --head;  // never cut inside a UTF-8 character
        while (continuation(tail)) ++tail;
        line = what.substr(0, head) + " […] " + what.substr(tail);
    }
    for (char& c : line) if (c == '\n' || c == '\r') c = ' ';
    std::fprintf(stderr, "vitscope: error: %s\n", line.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    try {
        vit::remove_temporaries_on_signals();  // an interrupted run leaves none of its temporary files
        app::CliArgs args = app::parse_cli(argc, argv, {"--mean-heads", "--quit", "--help", "--no-settings", "--force", "--classroom", "--dither", "--no-tour"});
        return dispatch(args);
    } catch (const std::bad_alloc&) {
        print_error("out of memory");
    } catch (const std::exception& e) {  // vit::Error, and whatever a library throws
        print_error(e.what());
    }
    return 2;
}
