#include "session/homework/live_exercise_report.h"

#include "session/homework/live_exercise.h"
#include "session/tour/tour_text.h"

namespace session {

nlohmann::json live_exercise_json(const AppState& s) {
    using nlohmann::json;
    const LiveExercise& x = s.live_exercise;
    const vit::Trace* t = s.trace();
    json j;
    j["phase"] = live_phase_name(s);
    const Exercise* e = live_exercise_shown(s);
    if (!e || !t) return j;
    auto patch = [&](int token) { return json{t->row_of(token), t->col_of(token)}; };
    j["path"] = x.path;
    j["exercise"] = x.index + 1;  // 1-based, as in the answer key
    j["count"] = x.set->exercises.size();
    j["kind"] = exercise_kind_name(e->kind);
    j["title"] = x.set->tour->steps[static_cast<size_t>(x.index)].title;
    j["text"] = shown_tour_text(s);
    j["options"] = e->options;
    j["maps_hidden"] = live_exercise_hides_maps(s);
    j["waiting"] = live_reveal_waits(s);
    j["given"] = {{"key", x.picked}, {"typed", x.typed}, {"options", x.options}, {"marked", json::array()}};
    for (int token : x.marked) j["given"]["marked"].push_back(patch(token));
    j["note"] = x.note;
    j["verdict"] = nullptr;
    if (const LiveVerdict* v = live_verdict(s)) {
        const ExerciseAnswer& a = v->answer;
        json d{{"correct", v->check.correct},
               {"given", v->check.given},
               {"answer",
                {{"layer", a.layer},
                 {"head", a.head},
                 {"query", a.query},
                 {"key", a.key},
                 {"mean", a.mean},
                 {"value", a.value},
                 {"options", a.options}}},
               {"accepted", v->check.accepted},
               {"sentence", v->sentence}};
        if (const auto& k = v->arithmetic)
            d["arithmetic"] = {{"query", k->query},   {"key", k->key},        {"head_dim", k->head_dim},
                               {"tokens", k->tokens}, {"score", k->score},    {"sqrt_dk", k->sqrt_dk},
                               {"scaled", k->scaled}, {"exp", k->exp_scaled}, {"z", k->z},
                               {"weight", k->weight}};
        d["lines"] = json::array();
        for (const ArithmeticLine& l : v->lines) d["lines"].push_back({l.name, l.value, l.why});
        if (const auto& r = v->check.region)
            d["region"] = {{"marked", r->marked},
                           {"weight_on_marked", r->weight_on_marked},
                           {"even_spread", r->even_spread},
                           {"ratio", r->ratio}};
        j["verdict"] = std::move(d);
    }
    return j;
}

}  // namespace session
