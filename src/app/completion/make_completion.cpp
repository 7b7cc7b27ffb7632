// make_completion TEMPLATE OUT: writes the bash completion script made from
// TEMPLATE (scripts/vitscope-completion.bash.in) and the command line's
// lists; the build runs it, and fails when a list and the template disagree.
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "app/completion/completion_script.h"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: make_completion TEMPLATE OUT\n");
        return 2;
    }
    try {
        std::ifstream in(argv[1]);
        if (!in) throw std::runtime_error(std::string(argv[1]) + ": cannot be read");
        std::ostringstream text;
        text << in.rdbuf();
        const std::string script = app::completion_script(text.str());
        std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
        out << script;
        if (!out.flush()) throw std::runtime_error(std::string(argv[2]) + ": cannot be written");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_completion: %s\n", e.what());
        return 1;
    }
    return 0;
}
