#include "session/core/output_rules.h"

#include "session/tour/tour.h"

namespace session {

vit::OutputRules output_rules(const AppState& s, bool replace) {
    vit::OutputRules rules;
    rules.force = replace;
    if (!s.loaded.image_path.empty()) rules.protected_files.push_back({s.loaded.image_path, "the open photo"});
    if (!s.compared.image_path.empty())
        rules.protected_files.push_back({s.compared.image_path, "the comparison photo"});
    if (s.tour.tour && !s.tour.tour->path.empty())
        rules.protected_files.push_back({s.tour.tour->path, "the open tour"});
    if (!s.live_exercise.path.empty()) rules.protected_files.push_back({s.live_exercise.path, "the open exercises"});
    for (const std::string& model : {s.loaded.model_dir, s.compared.model_dir})
        if (!model.empty()) rules.protected_folders.push_back(model);
    return rules;
}

}  // namespace session
