// A guided tour: steps that each set the window's state (tab, page, layer,
// head, query, pinned key, map source) and say two or three plain sentences
// about it, with numbers computed from the trace on show ({share:dog}).
// Tours are text files (assets/tours/*.tour) a teacher can write:
//
//   # a comment
//   title: How one patch looks at the photo
//   photo: dog.jpg                  the photo the examples (and regions) refer to
//   region dog: 7,1-4 8,0-5         patches by row: ROW,COL or ROW,FIRST-LAST
//   step: The photo, cut into patches
//   state: tab=math layer=0 head=0 query=cls pin=none map=head
//   panel: photo                    highlighted: photo, heads (and layers), inside (one head: the tabs)
//   text: It becomes a {grid} × {grid} grid of {patch}-pixel patches.
//
// State keys: tab (math, whatifs, questions), question (a page name), layer,
// head, query (cls or ROW,COL), pin (none or ROW,COL), map (head or mean).
// Unset keys keep what the user has. The placeholders are listed by
// tour_placeholders(); the values come from fill_tour_text (tour_text.h).
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace session {

struct TourStep {
    int line = 0;                     // where "step:" is in the file
    std::string title;
    std::string panel;                // the panel highlighted; empty: none
    std::vector<std::string> text;    // paragraphs, placeholders unfilled
    // The state the step sets (unset: left as the user has it).
    std::optional<std::string> tab, question, query, pin, map;
    std::optional<int> layer, head;
};

struct Tour {
    std::string path;                 // the file it was read from
    std::string title;
    std::string photo;                // file name of the photo the examples refer to ("dog.jpg")
    std::map<std::string, std::vector<std::pair<int, int>>> regions;  // name -> (row, col) on the model's grid
    std::vector<TourStep> steps;
};

// The panels a step can highlight.
const std::vector<std::string>& tour_panels();

// Parses a tour; `name` prefixes the errors. Throws vit::Error "NAME:LINE: what".
Tour parse_tour(const std::string& text, const std::string& name);
// Reads and parses the file (bounds in tour_limits.h; a UTF-8 byte order mark
// is skipped). Throws vit::Error.
Tour read_tour(const std::string& path);

}  // namespace session
