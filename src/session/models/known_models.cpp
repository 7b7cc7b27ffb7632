#include "session/models/known_models.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "vit/base/error.h"
#include "vit/base/read_file.h"
#include "vit/base/untrusted_json.h"

namespace session {
namespace {

std::vector<std::string> names(const nlohmann::json& entry, const char* key) {
    std::vector<std::string> out = entry.at(key).get<std::vector<std::string>>();
    for (const std::string& f : out)
        // File names only: nothing may write or read outside the model's folder.
        if (f.empty() || f.find('/') != std::string::npos || f == "." || f == "..")
            throw vit::Error(std::string(key) + " holds '" + f + "', not a file name");
    return out;
}

}  // namespace

std::vector<KnownModel> read_known_models(const std::string& path) {
    // A list of a few dozen models: 1 MiB is far beyond it.
    const nlohmann::json doc =
        vit::parse_untrusted_json(vit::read_whole_file(path, 1 << 20, "the known models list"), path);
    std::vector<KnownModel> out;
    try {
        for (const nlohmann::json& e : doc.at("models")) {
            KnownModel m;
            m.name = e.at("name").get<std::string>();
            try {
                m.folder = e.at("folder").get<std::string>();
                if (m.folder.empty() || m.folder.find('/') != std::string::npos || m.folder[0] == '.')
                    throw vit::Error("folder '" + m.folder + "' is not a plain folder name");
                m.repo = e.at("repo").get<std::string>();
                m.weights = names(e, "weights");
                m.files = names(e, "files");
                m.optional = names(e, "optional");
                if (m.weights.empty()) throw vit::Error("no weight file");
                if (!e.at("size_mb").is_null()) m.size_mb = e.at("size_mb").get<double>();
                m.why = e.at("why").get<std::string>();
            } catch (const std::exception& x) {
                throw vit::Error(m.name + ": " + x.what());
            }
            out.push_back(std::move(m));
        }
    } catch (const std::exception& x) {
        throw vit::Error(path + ": " + x.what());
    }
    return out;
}

const KnownModel* find_known_model(const std::vector<KnownModel>& models, const std::string& name) {
    for (const KnownModel& m : models)
        if (m.name == name || m.folder == name) return &m;
    return nullptr;
}

std::string size_text(const KnownModel& m) {
    if (m.size_mb <= 0) return "size unknown";
    char text[32];
    std::snprintf(text, sizeof text, "%g MB", m.size_mb);  // as precise as the hub's figure, no more
    return text;
}

}  // namespace session
