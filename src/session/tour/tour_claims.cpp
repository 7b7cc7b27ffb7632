#include "session/tour/tour_claims.h"

#include <cstdio>
#include <optional>

#include "session/tour/tour_room.h"
#include "session/tour/tour_text.h"

namespace session {

std::string tour_claims_csv(AppState s) {
    std::string csv = "step,claim,layer,head,query,value,baseline,holds\n";
    if (!s.tour.tour) return csv;
    const int steps = static_cast<int>(s.tour.tour->steps.size());
    for (int i = 0; i < steps; ++i) {
        apply_tour(s, act::TourGo{i});
        const std::optional<TourClaimCheck> c = tour_claim(s);
        if (!c) continue;
        char row[160];
        std::snprintf(row, sizeof row, "%d,%s,%d,%d,%d,%.6f,%.6f,%d\n", i + 1, vit::claim_name(c->kind), c->layer,
                      c->head, c->query, c->value.value, c->value.baseline, c->holds ? 1 : 0);
        csv += row;
    }
    return csv;
}

}  // namespace session
