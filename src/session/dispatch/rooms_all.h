// Every room's logic header: what the dispatchers (actions, requests, the
// state file, the script's verbs) include to reach all rooms.
#pragma once
#include "session/classroom/classroom_room.h"
#include "session/core/core_room.h"
#include "session/files/files_room.h"
#include "session/homework/homework_room.h"
#include "session/lab/lab_room.h"
#include "session/models/models_room.h"
#include "session/questions/questions_room.h"
#include "session/tour/tour_room.h"
