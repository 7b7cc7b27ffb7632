// The core room's logic, as every room's NAME_room.h declares it: actions and
// commands with apply_core (core_actions.h), its state-file part (core_json.h)
// and its script verbs (core_verbs.h).
#pragma once
#include "session/core/core_actions.h"
#include "session/core/core_json.h"
#include "session/core/core_verbs.h"
