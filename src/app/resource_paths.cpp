#include "app/resource_paths.h"

#include <filesystem>

#include "vit/base/install_dir.h"

namespace app {

namespace fs = std::filesystem;

namespace {
// The source tree's assets/, known only to a build (never read once installed).
std::string source_assets() {
#ifdef VITSCOPE_SOURCE_DIR
    return (fs::path(VITSCOPE_SOURCE_DIR) / "assets").string();
#else
    return "assets";
#endif
}
}  // namespace

std::string sample_photos_dir() { return vit::resource_dir("photos", source_assets()); }

std::string default_tour_file() {
    return (fs::path(vit::resource_dir("tours", (fs::path(source_assets()) / "tours").string())) / "first-look.tour")
        .string();
}

std::string default_exercises_file() {
    return (fs::path(vit::resource_dir("exercises", (fs::path(source_assets()) / "exercises").string())) /
            "first-look.exercises")
        .string();
}

std::string known_models_file() { return (fs::path(vit::resource_dir("", source_assets())) / "models.json").string(); }

}  // namespace app
