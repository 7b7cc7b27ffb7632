// What the model worker builds and the window swaps in whole: a model, a
// photo and the trace of that model on that photo.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "vit/forward/classes.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/model/model.h"

namespace session {

// One consistent set: a model, a photo, and the trace of that model on that
// photo. The worker builds it; the window swaps it in whole.
struct Loaded {
    std::shared_ptr<const vit::Model> model;
    std::string model_dir;
    std::shared_ptr<const vit::Image> image;
    std::string image_path;
    std::shared_ptr<const vit::Input> input;  // the model's input made from the photo (what-ifs re-run it)
    std::shared_ptr<const vit::Trace> trace;  // null until both model and photo are there
    vit::CropRect crop;                       // the model's input square on the photo
    std::vector<vit::ClassScore> top5;
    int generation = 0;  // bumps with every swap; GPU caches key on it
    bool ready() const { return trace != nullptr; }
};

}  // namespace session
