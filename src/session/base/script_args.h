// A script verb's arguments read as numbers, patches and switches, each
// refusal one line naming the script's line (ScriptCommand::where).
#pragma once
#include <string>

#include "session/base/script_verb.h"
#include "vit/forward/forward.h"

namespace session {

int whole_number(const ScriptCommand& c, const std::string& text);
inline int whole_number(const ScriptCommand& c) { return whole_number(c, c.arg); }
// A finite number ("0.8", "2e-1"); `what` names it in the error.
float finite_number(const ScriptCommand& c, const std::string& text, const std::string& what);
// A patch "ROW,COL", "cls" (token 0) or "none" (-1) as a token of the trace.
int script_token(const ScriptCommand& c, const vit::Trace& t);
// "on" or "off".
bool on_or_off(const ScriptCommand& c);

}  // namespace session
