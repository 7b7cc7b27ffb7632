// The models File > Get a model… offers and scripts/fetch_model.sh fetches:
// one list, as data, in assets/models.json.
#pragma once
#include <string>
#include <vector>

namespace session {

struct KnownModel {
    std::string name;                   // what the script and the dialog take: a timm name or a hub repository
    std::string folder;                 // the local folder it goes into
    std::string repo;                   // its Hugging Face repository
    std::vector<std::string> weights;   // in order of preference: the first the server has is fetched
    std::vector<std::string> files;     // needed (config.json)
    std::vector<std::string> optional;  // fetched when the server has them (preprocessor_config.json)
    double size_mb = 0;                 // the weight file's size on the hub; 0 when not known
    std::string why;                    // one line on why one would look at it
};

// Reads the list; throws vit::Error naming the file and the entry at fault.
std::vector<KnownModel> read_known_models(const std::string& path);

// The entry whose name or folder is `name`, or null.
const KnownModel* find_known_model(const std::vector<KnownModel>& models, const std::string& name);

// "22.9 MB", or "size unknown".
std::string size_text(const KnownModel& m);

}  // namespace session
