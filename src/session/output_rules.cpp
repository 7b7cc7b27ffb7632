#include "session/output_rules.h"

#include "session/tour.h"

namespace session {

vit::OutputRules output_rules(const AppState& s, bool replace) {
    vit::OutputRules rules;
    rules.force = replace;
    for (const std::string& photo : {s.loaded.image_path, s.compared.image_path})
        if (!photo.empty()) rules.protected_files.push_back(photo);
    if (s.tour.tour && !s.tour.tour->path.empty()) rules.protected_files.push_back(s.tour.tour->path);
    for (const std::string& model : {s.loaded.model_dir, s.compared.model_dir})
        if (!model.empty()) rules.protected_folders.push_back(model);
    return rules;
}

}  // namespace session
