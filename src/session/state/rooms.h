// The rooms: each feature's folder under src/session owns its state
// (NAME/NAME_state.h: struct NameRoom), its actions and commands
// (NameActions, NameCommands), its reducer (apply_NAME), its part of the state
// file (NAME_json) and its script verbs (NAME_verbs), declared in
// NAME/NAME_room.h. A room may build on the rooms listed before it, never on
// one after it (the build enforces it: CMakeLists.txt, vitscope_session_room).
//
// Adding a room: its folder, its state header below, its line in VITSCOPE_ROOMS
// and its name in the CMake list of rooms.
#pragma once
#include "session/classroom/classroom_state.h"
#include "session/core/core_state.h"
#include "session/files/files_state.h"
#include "session/homework/live_exercise_state.h"
#include "session/lab/lab_state.h"
#include "session/models/models_state.h"
#include "session/questions/questions_state.h"
#include "session/tour/tour_state.h"

// X(name, Name): in the order the rooms build on each other.
#define VITSCOPE_ROOMS(X)   \
    X(core, Core)           \
    X(questions, Questions) \
    X(files, Files)         \
    X(tour, Tour)           \
    X(homework, Homework)   \
    X(classroom, Classroom) \
    X(lab, Lab)             \
    X(models, Models)
