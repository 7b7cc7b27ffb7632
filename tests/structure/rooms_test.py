"""The session's rooms (src/session/state/rooms.h, CMakeLists.txt's
SESSION_ROOMS): the two lists agree and keep one order; a room's files
include only base, state, their own room, the rooms the room builds on and
other rooms' state headers (never another room's logic), and the state
headers include no room's logic; every room has its state header and its
room header; and the dispatchers over the rooms stay thin (no function
among them over 60 lines)."""
import os
import re
import sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import SRC, Tally

SESSION = os.path.join(SRC, "src", "session")
INCLUDE = re.compile(r'^\s*#\s*include\s*"session/([a-z_]+)/([^"]+)"')
MAX_DISPATCHER_LINES = 60
# The dispatchers: file, the line that opens the function (or struct).
DISPATCHERS = [
    ("src/session/dispatch/actions.cpp", "void apply(AppState& s, const Action& a) {"),
    ("src/session/dispatch/state_file.cpp", "std::string state_json("),
    ("src/session/dispatch/requests.cpp", "FrameOutcome handle_frame("),
    ("src/session/state/app_state.h", "struct AppState"),
    ("src/app/gui/window_commands.cpp", "void Window::carry_out("),
    ("src/app/gui/window_commands.cpp", "void Window::carry_in_room("),
    ("src/app/gui/window_script.cpp", "void ScriptRunner::step("),
]


def cmake_rooms():
    text = open(os.path.join(SRC, "CMakeLists.txt"), encoding="utf-8").read()
    order = re.search(r"set\(SESSION_ROOMS ([a-z ]+)\)", text).group(1).split()
    rooms = {}
    for name in order:
        spec = re.search(rf"set\(SESSION_ROOM_{name} DEPENDS([a-z ]*) STATE([a-z_. ]+)\)", text)
        rooms[name] = (spec.group(1).split(), spec.group(2).split()) if spec else None
    return order, rooms


def header_rooms():
    text = open(os.path.join(SESSION, "state", "rooms.h"), encoding="utf-8").read()
    return re.findall(r"^\s*X\(([a-z]+), [A-Z][A-Za-z]+\)", text, re.M)


def function_lines(path, opening):
    """Lines from the line holding `opening` to the first line closing at column 0."""
    lines = open(os.path.join(SRC, path), encoding="utf-8").read().splitlines()
    for i, line in enumerate(lines):
        if line.startswith(opening) or (opening.startswith("struct") and line.startswith(opening)):
            for j in range(i, len(lines)):
                if lines[j].startswith("}"):
                    return j - i + 1
            return None
    return None


def main():
    tally = Tally()
    order, rooms = cmake_rooms()
    tally.check("CMake names the rooms", len(order) >= 8, order)
    tally.check("state/rooms.h lists the same rooms in the same order", header_rooms() == order,
                f"rooms.h {header_rooms()}, CMake {order}")
    state_headers = {(room, h) for room, spec in rooms.items() if spec for h in spec[1]}
    for room, spec in rooms.items():
        tally.check(f"{room}: its DEPENDS and STATE in CMakeLists.txt", spec is not None, room)
        if spec is None:
            continue
        deps, own_state = spec
        tally.check(f"{room}: builds only on rooms before it", all(order.index(d) < order.index(room) for d in deps),
                    deps)
        folder = os.path.join(SESSION, room)
        has_room_header = os.path.exists(os.path.join(folder, f"{room}_room.h"))
        tally.check(f"{room}: has {room}/{room}_room.h", has_room_header, room)
        tally.check(f"{room}: its state headers exist", all(os.path.exists(os.path.join(folder, h)) for h in own_state),
                    own_state)
        problems = []
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            is_state = name in own_state
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target_room, header = m.groups()
                where = f"session/{room}/{name}:{number} includes session/{target_room}/{header}"
                if target_room in ("base", room) or (target_room == "state" and not is_state):
                    if is_state and target_room == room and header not in own_state:
                        problems.append(where + " (a state header includes its room's logic)")
                    continue
                if (target_room, header) in state_headers:
                    continue  # every room may read every room's state
                if is_state:
                    problems.append(where + " (a state header includes only base and state headers)")
                elif target_room not in deps:
                    problems.append(where + f" ({room} does not build on {target_room})")
        for p in problems:
            tally.check(f"{room}: one-way include", False, p)
        tally.check(f"{room}: includes only what it builds on", not problems, f"{len(problems)} problems")
    leftovers = [n for n in os.listdir(SESSION) if os.path.isfile(os.path.join(SESSION, n))]
    tally.check("no session file outside a folder", not leftovers, leftovers)
    for path, opening in DISPATCHERS:
        n = function_lines(path, opening)
        tally.check(f"{path}: {opening.split('(')[0]} found", n is not None, opening)
        if n is not None:
            tally.check(f"{path}: {opening.split('(')[0]} is thin ({n} lines)", n <= MAX_DISPATCHER_LINES, n)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
