#include "app/gui/worksheet.h"

#include <filesystem>

#include "app/gui/html_escaped.h"
#include "app/gui/lesson_page.h"
#include "app/gui/worksheet_content.h"
#include "vit/base/error.h"

namespace app {
namespace {

// The photo with the patch grid over it (an SVG in grid units) and the query
// outlined; printed as drawn, so a student marks patches with a pen.
std::string photo_with_grid(const std::string& photo, int grid, int prefix, int query) {
    std::string svg = "<svg viewBox=\"0 0 " + std::to_string(grid) + " " + std::to_string(grid) +
                      "\" preserveAspectRatio=\"none\" aria-hidden=\"true\">";
    for (int i = 1; i < grid; ++i) {
        const std::string at = std::to_string(i);
        svg += "<line x1=\"" + at + "\" y1=\"0\" x2=\"" + at + "\" y2=\"" + std::to_string(grid) + "\"/>";
        svg += "<line x1=\"0\" y1=\"" + at + "\" x2=\"" + std::to_string(grid) + "\" y2=\"" + at + "\"/>";
    }
    if (query >= prefix) {
        const int p = query - prefix;
        svg += "<rect class=\"query\" x=\"" + std::to_string(p % grid) + "\" y=\"" + std::to_string(p / grid) +
               "\" width=\"1\" height=\"1\"/>";
    }
    svg += "</svg>";
    return "<div class=\"photo\"><img src=\"" + photo + "\" alt=\"the photo\">" + svg + "</div>";
}

constexpr const char* kStyle = R"(
body { font: 12pt/1.4 system-ui, sans-serif; max-width: 48em; margin: 1em auto; padding: 0 1em; color: #000; background: #fff; }
h1 { font-size: 1.4em; margin: 0 0 0.2em; }
.sub { color: #444; margin: 0 0 1em; }
.exercise { break-inside: avoid; border-top: 1px solid #999; padding: 0.6em 0; }
.exercise h2 { font-size: 1.05em; margin: 0 0 0.3em; }
.photo { position: relative; width: min(100%, 12cm); aspect-ratio: 1; margin: 0.4em 0; }
.photo img, .photo svg { position: absolute; inset: 0; width: 100%; height: 100%; }
.photo svg line { stroke: #fff; stroke-width: 0.04; stroke-opacity: 0.8; }
.photo svg rect.query { fill: none; stroke: #00a0e0; stroke-width: 0.12; }
.answer { margin: 0.6em 0; }
.line { display: inline-block; border-bottom: 1px solid #000; width: 10em; height: 1.2em; }
.options { list-style: none; padding: 0; }
.options li::before { content: "\2610\00a0"; }
.legend { color: #444; font-size: 0.9em; }
.given { border-collapse: collapse; margin: 0.4em 0; font-size: 0.95em; }
.given caption { text-align: left; font-weight: 600; }
.given td { padding: 1px 10px 1px 0; }
.given td.num { text-align: right; font-variant-numeric: tabular-nums; }
@media print { body { margin: 0; } }
)";

}  // namespace

std::string worksheet_html(const session::AppState& s, const session::ExerciseSet& set,
                           const std::vector<session::ExerciseAnswer>& answers) {
    const WorksheetContent c = worksheet_content(s, set, answers);
    const vit::Trace& t = *s.loaded.trace;
    const int input_size = s.loaded.input ? s.loaded.input->size : s.loaded.model->config.pre.input_size;
    const std::string photo = photo_jpeg_data_uri(*s.loaded.image, s.loaded.crop, input_size);

    std::string body;
    for (const WorksheetItem& item : c.items) {
        body += "<section class=\"exercise\" data-exercise=\"" + std::to_string(item.exercise) + "\"><h2>" +
                std::to_string(item.exercise) + ". " + html_escaped(item.title) + "</h2>";
        for (const std::string& p : item.text) body += "<p>" + html_escaped(p) + "</p>";
        if (!item.given.empty()) {
            body += "<table class=\"given\"><caption>The numbers you need</caption>";
            for (const session::GivenNumber& g : item.given)
                body += "<tr><td>" + html_escaped(g.label) + "</td><td class=\"num\" data-given=\"" +
                        html_escaped(g.name) + "\" data-value=\"" + g.shown + "\">" + g.shown + "</td></tr>";
            body += "</table>";
        }
        if (item.photo) {
            const int query = item.query_row < 0 ? -1 : t.prefix + item.query_row * t.grid + item.query_col;
            body += photo_with_grid(photo, t.grid, t.prefix, query) +
                    "<p class=\"legend\">The query is outlined in blue. " + html_escaped(item.how) + "</p>";
        } else if (!item.options.empty()) {
            body += "<p class=\"legend\">" + html_escaped(item.how) + "</p><ul class=\"options\">";
            for (size_t i = 0; i < item.options.size(); ++i)
                body += "<li>" + std::to_string(i + 1) + ". " + html_escaped(item.options[i]) + "</li>";
            body += "</ul>";
        } else {
            body += "<p class=\"answer\">" + html_escaped(item.how) + " <span class=\"line\"></span></p>";
        }
        body += "</section>\n";
    }
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<meta name=\"generator\" content=\"vitscope exercises\">\n<title>" +
           html_escaped(c.title + ": " + c.photo_name) + "</title>\n<style>" + kStyle +
           "</style>\n</head>\n<body>\n<h1>" + html_escaped(c.title) + "</h1>\n<p class=\"sub\">On " +
           html_escaped(c.photo_name) + ", " + std::to_string(t.grid) + " &times; " + std::to_string(t.grid) +
           " patches; a patch is named (row, column), from (0, 0) at the top left. Name: <span "
           "class=\"line\"></span></p>\n" +
           body + "</body>\n</html>\n";
}

}  // namespace app
