#include "session/classroom/classroom_room.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "session/base/overloaded.h"
#include "session/classroom/prediction.h"
#include "session/classroom/side_by_side.h"
#include "session/core/core_json.h"
#include "vit/base/error.h"

namespace session {

using Phase = ClassroomRoom::Prediction::Phase;

void apply_classroom(AppState& s, const ClassroomActions& a) {
    std::visit(Overloaded{
                   [&](const act::StartPredict&) {
                       s.prediction = {Phase::Predicting, {}};
                   },
                   [&](const act::ToggleMark& x) {
                       auto& p = s.prediction;
                       if (p.phase != Phase::Predicting || !s.trace() || !s.trace()->is_patch(x.token)) return;
                       const auto at = std::find(p.marked.begin(), p.marked.end(), x.token);
                       if (at == p.marked.end()) p.marked.push_back(x.token);
                       else p.marked.erase(at);
                   },
                   [&](const act::Reveal&) {
                       if (s.prediction.phase == Phase::Predicting) s.prediction.phase = Phase::Revealed;
                   },
                   [&](const act::EndPredict&) { s.prediction = {}; },
                   [&](const act::ShowSideBySide& x) {
                       auto& sb = s.side_by_side;
                       if (x.open && !sb.open) {
                           sb.left = {s.sel.layer, s.sel.head, false};
                           sb.right = {s.sel.layer, s.heads() ? (s.sel.head + 1) % s.heads() : 0, false};
                       }
                       sb.open = x.open && s.trace() != nullptr;
                   },
                   [&](const act::SetSidePane& x) {
                       ClassroomRoom::SidePane p = x.pane;
                       p.layer = std::clamp(p.layer, 0, std::max(0, s.layers() - 1));
                       p.head = std::clamp(p.head, 0, std::max(0, s.heads() - 1));
                       p.second_photo = p.second_photo && s.compared.ready();
                       (x.right ? s.side_by_side.right : s.side_by_side.left) = p;
                   },
               },
               a);
}

const char* prediction_phase_name(Phase phase) {
    switch (phase) {
        case Phase::Off: return "off";
        case Phase::Predicting: return "predicting";
        case Phase::Revealed: return "revealed";
    }
    return "";
}

namespace {

// The prediction as the state file reports it: phase, marked patches
// [row, col], and once revealed the numbers the reveal shows.
nlohmann::json prediction_json(const AppState& s) {
    const vit::Trace* t = s.trace();
    nlohmann::json p;
    p["phase"] = prediction_phase_name(s.prediction.phase);
    p["marked"] = nlohmann::json::array();
    for (int token : s.prediction.marked) p["marked"].push_back({t ? t->row_of(token) : -1, t ? t->col_of(token) : -1});
    if (const auto score = revealed_prediction(s)) {
        p["weight_on_marked"] = score->weight_on_marked;
        p["weight_on_patches"] = score->weight_on_patches;
        p["area_share"] = score->area_share;
        p["even_spread"] = score->even_spread;
        p["ratio"] = score->ratio;
        p["sentence"] = vit::prediction_sentence(*score);
    }
    return p;
}

// Side by side as the state file reports it: the panes and their shared scale's top.
nlohmann::json side_by_side_json(const AppState& s) {
    const auto& sb = s.side_by_side;
    auto pane = [](const ClassroomRoom::SidePane& p) {
        return nlohmann::json{{"layer", p.layer}, {"head", p.head}, {"photo", p.second_photo ? "second" : "open"}};
    };
    nlohmann::json j{{"open", sb.open}, {"left", pane(sb.left)}, {"right", pane(sb.right)}};
    if (const auto top = side_by_side_scale(s)) j["value_max"] = *top;
    return j;
}

}  // namespace

void classroom_json(const AppState& s, const DrawnReport& drawn, nlohmann::json& j) {
    j["predict_buttons"] = points_by_name(drawn.predict_buttons);
    j["prediction"] = prediction_json(s);
    j["side_by_side"] = side_by_side_json(s);
}

namespace {

using ClassroomOut = std::vector<ClassroomRequest>;

// "8,1/8,2" or "8,1/8,1,second": the left and the right pane.
ClassroomRoom::SidePane side_pane(const ScriptCommand& c, const std::string& text) {
    ClassroomRoom::SidePane p;
    char second[8] = "";
    const int n = std::sscanf(text.c_str(), "%d,%d,%7s", &p.layer, &p.head, second);
    if (n < 2 || (n == 3 && std::string(second) != "second"))
        throw vit::Error(c.where + ": side-by-side L,H/L,H (a pane may end in ,second) or off");
    p.second_photo = n == 3;
    return p;
}

const Verb<ClassroomRequest> kClassroomVerbs[] = {
    {"side-by-side", VerbArg::Required,
     [](const ScriptCommand& c, const AppState&, ClassroomOut& out) {
         if (c.arg == "off") {
             out.push_back(act::ShowSideBySide{false});
             return VerbWait{2};
         }
         const size_t slash = c.arg.find('/');
         if (slash == std::string::npos) throw vit::Error(c.where + ": side-by-side L,H/L,H or off");
         const ClassroomRoom::SidePane left = side_pane(c, c.arg.substr(0, slash)),
                                       right = side_pane(c, c.arg.substr(slash + 1));
         out.push_back(act::ShowSideBySide{true});
         out.push_back(act::SetSidePane{false, left});
         out.push_back(act::SetSidePane{true, right});
         return VerbWait{2};
     }},
};

}  // namespace

std::span<const Verb<ClassroomRequest>> classroom_verbs() { return kClassroomVerbs; }

}  // namespace session
