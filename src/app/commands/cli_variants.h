// --students ROSTER.csv and --variants N (vitscope lesson, vitscope exercises):
// who gets which variant of the exercises. Student i (0-based, in the
// roster's order) gets variant i mod N + 1, N the --variants given or else
// one variant per student; with --variants alone, one page per variant.
#pragma once
#include <string>
#include <vector>

#include "app/cli_args.h"
#include "app/gui/lesson_page.h"

namespace app {

struct Handouts {
    std::vector<Handout> pages;  // empty: neither option given
    int variants = 1;
    bool empty() const { return pages.empty(); }
};

// Throws vit::Error on a bad roster or N (1 to 1000).
Handouts read_handouts(const CliArgs& args);

// homework-NAME.html (the name's letters and digits, accents dropped), or homework-variant-V.html.
std::string handout_file_name(const Handout& h);

}  // namespace app
