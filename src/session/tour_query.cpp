#include "tour_query.h"

#include <memory>
#include <string>

#include "tour_text.h"
#include "vit/base/error.h"

namespace session {

const vit::RelevantQueryChoice* relevant_choice(const AppState& s) {
    return s.tour.relevant_generation == s.loaded.generation && s.trace() ? s.tour.relevant.get() : nullptr;
}

const vit::RelevantQueryChoice* make_relevant_choice(AppState& s) {
    if (s.tour.relevant_generation == s.loaded.generation || !s.trace()) return relevant_choice(s);
    s.tour.relevant_generation = s.loaded.generation;
    s.tour.relevant.reset();
    if (!s.loaded.model) return nullptr;
    try {
        s.tour.relevant = std::make_shared<const vit::RelevantQueryChoice>(vit::relevant_query(*s.loaded.model, *s.trace()));
    } catch (const vit::Error&) {
        return nullptr;  // no classifier, no states, over the budget: the tour keeps its own patch
    }
    return s.tour.relevant->query.token >= 0 ? s.tour.relevant.get() : nullptr;
}

int grid_token(const vit::Trace& t, const std::string& value) {
    if (value == "cls") return 0;
    const size_t comma = value.find(',');
    const int r = std::stoi(value.substr(0, comma)), c = std::stoi(value.substr(comma + 1));
    return r < t.grid && c < t.grid ? t.token_of(r, c) : -1;
}

int tour_query_token(AppState& s, const std::string& value) {
    const vit::Trace* t = s.trace();
    if (!t) return -1;
    if (value == "cls") return 0;
    const bool relevant = value == "relevant" || (s.tour.tour && s.tour.tour->other_query_relevant && !own_photo(s, *s.tour.tour));
    if (relevant)
        if (const vit::RelevantQueryChoice* c = make_relevant_choice(s); c && c->query.token >= 0) return c->query.token;
    if (value == "relevant") return -1;  // no choice could be made: the query stays
    return grid_token(*t, value);
}

}  // namespace session
