#include "session/dispatch/state_file.h"

#include <nlohmann/json.hpp>

#include "session/dispatch/rooms_all.h"

namespace session {

std::string state_json(const AppState& s, const DrawnReport& drawn) {
    nlohmann::json j = nlohmann::json::object();
#define VITSCOPE_ROOM_JSON(name, Name) name##_json(s, drawn, j);
    VITSCOPE_ROOMS(VITSCOPE_ROOM_JSON)
#undef VITSCOPE_ROOM_JSON
    return j.dump(2, ' ', false,
                  nlohmann::json::error_handler_t::replace);  // a path that is not UTF-8 must not stop it
}

}  // namespace session
