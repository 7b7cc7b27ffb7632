#include "session/dispatch/script_verbs.h"

#include <cstdio>
#include <cstdlib>
#include <algorithm>

namespace session {
namespace {

template <class RoomRequest>
void add_room(std::vector<ScriptVerb>& all, std::span<const Verb<RoomRequest>> verbs) {
    for (const Verb<RoomRequest>& v : verbs) {
        if (std::find_if(all.begin(), all.end(), [&](const ScriptVerb& o) { return o.name == v.name; }) != all.end()) {
            // Two rooms claiming one verb is a programming error the first script would hit.
            std::fprintf(stderr, "vitscope: the script verb '%.*s' is claimed twice\n", static_cast<int>(v.name.size()),
                         v.name.data());
            std::abort();
        }
        all.push_back(
            {v.name, v.arg, [run = v.run](const ScriptCommand& c, const AppState& s, std::vector<Request>& out) {
                 std::vector<RoomRequest> mine;
                 const VerbWait wait = run(c, s, mine);
                 for (const RoomRequest& r : mine) out.push_back(as_request(r));
                 return wait;
             }});
    }
}

}  // namespace

const std::vector<ScriptVerb>& script_verbs() {
    static const std::vector<ScriptVerb> all = [] {
        std::vector<ScriptVerb> v;
#define VITSCOPE_ROOM_VERBS(name, Name) add_room(v, name##_verbs());
        VITSCOPE_ROOMS(VITSCOPE_ROOM_VERBS)
#undef VITSCOPE_ROOM_VERBS
        return v;
    }();
    return all;
}

const ScriptVerb* find_script_verb(std::string_view name) {
    for (const ScriptVerb& v : script_verbs())
        if (v.name == name) return &v;
    return nullptr;
}

}  // namespace session
