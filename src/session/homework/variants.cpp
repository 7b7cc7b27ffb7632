#include "session/homework/variants.h"

#include <algorithm>
#include <memory>
#include <set>

#include "session/homework/handin.h"
#include "vit/base/error.h"

namespace session {
namespace {

std::string patch_state(const vit::Trace& t, int token) {
    if (!t.is_patch(token)) return token == 0 ? "cls" : std::to_string(token);
    return std::to_string(t.row_of(token)) + "," + std::to_string(t.col_of(token));
}

std::string trimmed(const std::string& s) {
    const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

ExerciseSet exercise_variant(const ExerciseSet& set, const std::vector<ExerciseAnswer>& base, const vit::Trace& t,
                             int variant, const vit::RelevantQueryChoice* relevant) {
    if (variant <= 1) return set;
    auto tour = std::make_shared<Tour>(*set.tour);
    tour->other_query_relevant = false, tour->other_pin_top = false;  // every query and key fixed below
    const int shift = variant - 1, layers = static_cast<int>(t.layers.size());
    for (size_t i = 0; i < set.exercises.size(); ++i) {
        const Exercise& e = set.exercises[i];
        const ExerciseAnswer& a = base.at(i);
        TourStep& step = tour->steps[i];
        if (a.layer < 0) continue;  // a choice
        const int heads = static_cast<int>(t.layers[static_cast<size_t>(a.layer)].heads.size());
        step.layer = e.vary_layer ? (a.layer + shift) % layers : a.layer;
        if (!a.mean) step.head = e.vary_head ? (a.head + shift) % heads : a.head;
        int query = a.query;
        const std::vector<int>* ranked = relevant ? &relevant->query.relevant : nullptr;
        const auto at = ranked ? std::find(ranked->begin(), ranked->end(), query) : std::vector<int>::const_iterator{};
        if (e.vary_query && ranked && query == relevant->query.token && at != ranked->end()) {
            // Chosen by relevance: the next most relevant patches, in the ranking's order.
            query = (*ranked)[static_cast<size_t>(at - ranked->begin() + shift) % ranked->size()];
        } else if (e.vary_query && t.is_patch(query)) {
            const int patches = t.grid * t.grid;
            query = t.prefix + (query - t.prefix + shift) % patches;
        }
        step.query = patch_state(t, query);
        if (pinned_key_kind(e.kind)) step.pin = patch_state(t, a.key);
        step.choose[0].reset(), step.choose[1].reset();  // the head a criterion chose is fixed above
    }
    ExerciseSet out = set;
    out.tour = std::move(tour);
    return out;
}

std::vector<std::string> read_roster(const std::string& text, const std::string& path) {
    const auto rows = parse_csv(text, path);
    if (rows.empty()) throw vit::Error(path + ": an empty roster (a CSV with a column 'name')");
    size_t column = rows[0].size();
    for (size_t i = 0; i < rows[0].size(); ++i) {
        const std::string h = trimmed(rows[0][i]);
        if (h == "name" || h == "student" || h == "Name" || h == "Student") column = i;
    }
    if (column == rows[0].size()) throw vit::Error(path + ": a roster needs a column 'name' (or 'student')");
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (size_t r = 1; r < rows.size(); ++r) {
        if (column >= rows[r].size() || trimmed(rows[r][column]).empty()) continue;
        const std::string name = trimmed(rows[r][column]);
        if (!seen.insert(name).second)
            throw vit::Error(path + ":" + std::to_string(r + 1) + ": '" + name + "' is in the roster twice");
        names.push_back(name);
    }
    if (names.empty()) throw vit::Error(path + ": a roster with no student in it");
    return names;
}

}  // namespace session
