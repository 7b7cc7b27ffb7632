#include "session/tour/tour_query.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "session/tour/tour_show.h"
#include "session/tour/tour_text.h"
#include "vit/analysis/attention_rows.h"
#include "vit/analysis/relevant_region.h"
#include "vit/analysis/token_norms.h"
#include "vit/base/error.h"

namespace session {

namespace {

// What the job brings back: the choice, or null where it could not be made
// (a null result would read as "not finished" in s.analyses).
struct RelevantChoiceResult {
    std::shared_ptr<const vit::RelevantQueryChoice> choice;
};

// One backward pass; null where the choice cannot be made (no states, over
// the budget, out of memory): a step waiting for it must hear back either way.
std::shared_ptr<const vit::RelevantQueryChoice> choose(const vit::Model& model, const vit::Trace& trace) {
    try {
        return std::make_shared<const vit::RelevantQueryChoice>(vit::relevant_query(model, trace));
    } catch (const std::exception&) {
        return nullptr;
    }
}

bool needs_choice(const AppState& s, const Tour& tour, const std::string& query) {
    return query == "relevant" || (query != "cls" && tour.other_query_relevant && !own_photo(s, tour));
}

std::string job_key(int generation) { return "relevant-query#" + std::to_string(generation); }

bool made(const AppState& s) { return s.tour.relevant_generation == s.loaded.generation; }

void keep(AppState& s, std::shared_ptr<const vit::RelevantQueryChoice> choice) {
    s.tour.relevant_generation = s.loaded.generation;
    s.tour.relevant = choice && choice->query.token >= 0 ? std::move(choice) : nullptr;
}

}  // namespace

const vit::RelevantQueryChoice* relevant_choice(const AppState& s) {
    return made(s) && s.trace() ? s.tour.relevant.get() : nullptr;
}

bool awaiting_relevant_choice(const AppState& s) {
    return s.tour.tour && s.trace() && s.tour.relevant_wanted == s.loaded.generation && !made(s);
}

std::optional<cmd::RunAnalysis> follow_relevant_choice(AppState& s) {
    if (!awaiting_relevant_choice(s)) return std::nullopt;
    const std::string key = job_key(s.loaded.generation);
    if (auto done = s.analyses.result<RelevantChoiceResult>(key)) {
        keep(s, done->choice);
        if (s.tour.pending_step >= 0) {
            s.tour.step = s.tour.pending_step;
            s.tour.pending_step = -1;
            show_tour_step(s);
        } else {
            reapply_tour_step(s);
        }
        return std::nullopt;
    }
    if (s.analyses.is_running(key)) return std::nullopt;
    std::shared_ptr<const vit::Model> model = s.loaded.model;
    std::shared_ptr<const vit::Trace> trace = s.loaded.trace;
    return cmd::RunAnalysis{key, [model, trace](const vit::TaskControl&) -> ExperimentResult {
                                return std::make_shared<RelevantChoiceResult>(
                                    RelevantChoiceResult{choose(*model, *trace)});
                            }};
}

std::optional<vit::GridRegion> tour_region(const AppState& s, const std::string& name) {
    if (name.empty()) return vit::GridRegion{};
    if (s.tour.tour)
        if (const auto it = s.tour.tour->regions.find(name); it != s.tour.tour->regions.end()) return it->second;
    const vit::RelevantQueryChoice* c = relevant_choice(s);
    if (name != kAutomaticRegion || !c) return std::nullopt;
    std::vector<int> left_out;
    try {
        left_out = vit::high_norm_anywhere(*s.trace());
    } catch (const vit::Error&) {
        // no token states: nothing is known to be long
    }
    vit::GridRegion region = vit::relevant_region(*s.trace(), c->query, s.sel.query, left_out);
    if (region.empty()) return std::nullopt;
    return region;
}

int first_step_needing_query(const AppState& s) {
    if (!s.tour.tour) return -1;
    const Tour& tour = *s.tour.tour;
    for (int i = 0; i < static_cast<int>(tour.steps.size()); ++i) {
        const std::optional<std::string>& q = tour.steps[i].query;
        // Before the photo's trace, any patch query waits for it; then those the choice gives.
        if (q && (s.trace() ? needs_choice(s, tour, *q) : *q != "cls")) return i;
    }
    return -1;
}

bool tour_waits_for_query(AppState& s, int n) {
    const int first = first_step_needing_query(s);
    if (first < 0 || first > n) return false;
    if (!s.trace()) return true;  // the choice is asked for once the photo's trace arrives
    if (made(s)) return false;
    if (!s.loaded.model || s.loaded.top5.empty()) {
        keep(s, nullptr);  // no classifier: no answer to find the patches for, nothing to wait for
        return false;
    }
    s.tour.relevant_wanted = s.loaded.generation;
    return true;
}

bool tour_query_fell_back(const AppState& s) {
    if (!s.tour.tour || !s.trace() || !made(s) || s.tour.relevant) return false;
    for (const TourStep& step : s.tour.tour->steps)
        if (step.query && needs_choice(s, *s.tour.tour, *step.query)) return true;
    return false;
}

void make_relevant_choice_now(AppState& s, const Tour& tour) {
    if (made(s) || !s.trace()) return;
    for (const TourStep& step : tour.steps)
        if (step.query && needs_choice(s, tour, *step.query)) {
            keep(s, s.loaded.model && !s.loaded.top5.empty() ? choose(*s.loaded.model, *s.loaded.trace) : nullptr);
            return;
        }
}

int grid_token(const vit::Trace& t, const std::string& value) {
    if (value == "cls") return 0;
    const size_t comma = value.find(',');
    const int r = std::stoi(value.substr(0, comma)), c = std::stoi(value.substr(comma + 1));
    return r < t.grid && c < t.grid ? t.token_of(r, c) : -1;
}

namespace {

int top_patch_key(const AppState& s) {
    const vit::Trace& t = *s.trace();
    if (!t.is_patch(s.sel.query)) return -1;
    std::vector<int> left_out;
    try {
        left_out = vit::high_norm_entering(t, s.sel.layer);
    } catch (const vit::Error&) {
        // a trace without token states: no token is known to be long
    }
    const vit::Vec row = vit::attention_row(t, s.sel.layer, s.sel.head, s.sel.query);
    int best = -1;
    for (int j = t.prefix; j < t.tokens; ++j)
        if (j != s.sel.query && std::find(left_out.begin(), left_out.end(), j) == left_out.end() &&
            (best < 0 || row[j] > row[best]))
            best = j;
    return best;
}

// The key the row on show weighs most, CLS and the query included.
int argmax_key(const AppState& s) {
    const vit::Trace& t = *s.trace();
    if (s.sel.query < 0 || s.sel.query >= t.tokens) return -1;
    vit::Vec::Index best = 0;
    vit::attention_row(t, s.sel.layer, s.sel.head, s.sel.query).maxCoeff(&best);
    return static_cast<int>(best);
}

}  // namespace

int tour_pin_token(const AppState& s, const std::string& value) {
    const vit::Trace* t = s.trace();
    if (!t) return -1;
    const Tour* tour = s.tour.tour.get();
    if (value == "argmax") return argmax_key(s);
    if (value == "top" || (value != "cls" && tour && tour->other_pin_top && !own_photo(s, *tour)))
        return top_patch_key(s);
    return grid_token(*t, value);
}

int tour_query_token(AppState& s, const std::string& value) {
    const vit::Trace* t = s.trace();
    if (!t) return -1;
    if (value == "cls") return 0;
    const bool relevant = s.tour.tour ? needs_choice(s, *s.tour.tour, value) : value == "relevant";
    if (relevant && !made(s)) {
        if (!s.loaded.model || s.loaded.top5.empty())
            keep(s, nullptr);  // no classifier: no answer to find the patches for
        else s.tour.relevant_wanted = s.loaded.generation;
    }
    if (relevant)
        if (const vit::RelevantQueryChoice* c = relevant_choice(s)) return c->query.token;
    if (value == "relevant") return -1;
    return grid_token(*t, value);
}

}  // namespace session
