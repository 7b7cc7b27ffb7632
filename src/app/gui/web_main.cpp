// The browser build's entry: the page (web/app/vitscope_page.js) calls main
// once the model's files are in the module's file system, with the arguments
// it chose (a photo, the canvas's size). Only the window runs here; a refusal
// before it opens is one line on standard error, which the page shows.
#include <cstdio>
#include <exception>
#include <new>

#include "app/cli_args.h"
#include "app/subcommands.h"
#include "vit/base/printable.h"

int main(int argc, char** argv) {
    try {
        return app::run_window(app::parse_cli(argc, argv));
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "vitscope: error: out of memory\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vitscope: error: %s\n", vit::printable_excerpt(e.what(), 1000).c_str());
    }
    return 2;
}
