// The selection as files keep it: layer, head, the visible heads, the map,
// the query and the pinned key. One writer for the state file and lessons,
// one reader (a lesson's), so both name and check the fields alike:
//   {"layer": 8, "head": 1, "visible_heads": [0, 1, 2], "map": "head" | "mean",
//    "query": 82, "pinned_key": -1}
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "session/base/json_fields.h"
#include "session/base/selection.h"

namespace session {

// A selection without the model's head count (a lesson is read before its
// model loads) and without the hover, which is not kept.
struct SavedSelection {
    int layer = 0, head = 0;
    std::vector<int> visible_heads;
    MapSource map = MapSource::Head;
    int query = 0, pinned_key = -1;
    bool operator==(const SavedSelection&) const = default;
};

SavedSelection saved_selection(const Selection& sel);

// The fields above, to be merged into the file's object.
nlohmann::json selection_json(const SavedSelection& sel);

// Reads and checks them: each wrong field is one error through `r`. The
// ranges are what any model could have; apply clamps them to the open one.
SavedSelection read_selection(const FieldReader& r);

}  // namespace session
