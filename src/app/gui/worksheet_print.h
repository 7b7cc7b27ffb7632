// The paper worksheet drawn with cairo (Debian's libcairo2): a PDF whose
// pages are A4 or US Letter, or the same pages as one PNG, stacked (150 dpi),
// for a school without a browser that prints. The content is
// worksheet_content.h's; an exercise is never split across pages.
#pragma once
#include <string>

#include "app/gui/worksheet_content.h"

namespace app {

enum class Paper { A4, Letter };

// "a4" or "letter"; throws vit::Error naming the choices otherwise.
Paper parse_paper(const std::string& name);

std::string worksheet_pdf(const WorksheetContent& c, Paper paper);
std::string worksheet_png(const WorksheetContent& c, Paper paper);

// The photo alone with its patch grid, rows and columns numbered, the query
// outlined (query_row < 0: none), as a PNG `side` pixels wide (the quiz's image).
std::string photo_grid_png(const vit::Image& photo, int grid, int query_row, int query_col, int side);

}  // namespace app
