// The models room: File > Get a model…'s dialog, the known models, where
// downloads go and the download running.
#pragma once
#include <string>
#include <vector>

#include "session/models/known_models.h"
#include "session/models/model_download.h"

namespace session {

struct ModelsRoom {
    struct GetModelState {
        bool open = false;              // the dialog
        std::vector<KnownModel> known;  // assets/models.json
        std::string list_error;         // why the list could not be read
        std::string dir;                // where models go: vit::user_models_dir()
        std::string mirror;             // $VITSCOPE_MODEL_MIRROR: used instead of the hub when set
        DownloadView download;
    } get_model;
};
using GetModelState = ModelsRoom::GetModelState;

}  // namespace session
