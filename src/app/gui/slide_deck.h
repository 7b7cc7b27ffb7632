// The tour's slides as one offline HTML page: a slide deck. One slide fills
// the screen at a time (the picture as large as the screen allows, its title
// and caption as text below it); Left / Right, Page Up / Page Down, space,
// Home / End and a click on the left or right half move between them, the
// address's #N names the slide on show; printed, each slide takes a page of
// its own. Nothing is fetched: the style and script are in the page and the
// pictures are the PNGs beside it.
#pragma once
#include <string>
#include <vector>

namespace app {

struct DeckSlide {
    std::string image;  // the PNG's file name, beside index.html
    std::string title;
    std::string key;                // the sentence the slide leads with (may be empty)
    std::vector<std::string> rest;  // the caption's other paragraphs
    int width = 0, height = 0;      // the picture's size in pixels
};

std::string slide_deck_html(const std::string& title, const std::vector<DeckSlide>& slides);

}  // namespace app
