// The files vitscope ships beside its code (sample photos, the guided tour,
// the list of known models): from share/vitscope once installed
// (vit::installed_share_dir), else from the source tree the build came from.
#pragma once
#include <string>

namespace app {

// The sample photos: share/vitscope/photos, or assets/ in the source tree.
std::string sample_photos_dir();
// The guided tour that ships (Help > Guided tour): tours/first-look.tour there.
std::string default_tour_file();
// The homework that ships: exercises/first-look.exercises there.
std::string default_exercises_file();
// The list of known models (File > Get a model…): models.json there.
std::string known_models_file();

}  // namespace app
