#include "session/base/selection_json.h"

#include "vit/base/untrusted_json.h"

namespace session {

using nlohmann::json;

SavedSelection saved_selection(const Selection& sel) {
    return {sel.layer, sel.head, sel.visible_heads(), sel.source, sel.query, sel.pinned_key};
}

json selection_json(const SavedSelection& sel) {
    return json{{"layer", sel.layer},
                {"head", sel.head},
                {"visible_heads", sel.visible_heads},
                {"map", sel.map == MapSource::MeanOfVisible ? "mean" : "head"},
                {"query", sel.query},
                {"pinned_key", sel.pinned_key}};
}

SavedSelection read_selection(const FieldReader& r) {
    SavedSelection sel;
    sel.layer = r.integer("layer", 0, 1023);
    sel.head = r.integer("head", 0, 1023);
    const json& visible = r.field("visible_heads");
    if (!visible.is_array()) r.fail("\"visible_heads\" is not a list");
    for (const json& h : visible) {
        if (!h.is_number_integer() || !whole_number_within(h, 0, 1023))
            r.fail("\"visible_heads\" holds " + vit::quote_for_error(h) + ", not a head");
        sel.visible_heads.push_back(h.get<int>());
    }
    sel.map = r.one_of("map", {"head", "mean"}) == "mean" ? MapSource::MeanOfVisible : MapSource::Head;
    sel.query = r.integer("query", 0, 1 << 24);
    sel.pinned_key = r.integer("pinned_key", -1, 1 << 24);
    return sel;
}

}  // namespace session
