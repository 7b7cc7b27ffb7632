#include "session/lab/lab_state.h"

#include <algorithm>

#include "session/base/overloaded.h"

namespace session {

void apply_lab(LabState& lab, const LabAction& a) {
    std::visit(Overloaded{
                   [&](const lab::Show& x) { lab.open = x.open; },
                   [&](const lab::SetCheckpoint& x) {
                       if (lab.run) lab.checkpoint = std::clamp(x.index, 0, static_cast<int>(lab.run->log.size()) - 1);
                   },
                   [&](const lab::SetLayer& x) {
                       lab.layer = std::max(-1, x.layer);
                   },  // the top is the model's: LabController clamps it
                   [&](const lab::SetSample& x) {
                       if (lab.run) lab.sample = std::clamp(x.sample, 0, static_cast<int>(lab.run->samples.size()) - 1);
                   },
                   [&](const lab::SetQuerySquare& x) { lab.query_square = std::clamp(x.square, 0, kQueryCls); },
                   [&](const lab::ShowSwap& x) { lab.swap = x.show; },
               },
               a);
}

}  // namespace session
