// The steps every command shares: model folder -> model, IMAGE -> input -> trace.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/cli_args.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/model/model.h"

namespace app {

struct Pipeline {
    vit::Model model;
    vit::Image image;
    vit::Input input;
    vit::Trace trace;
};

// Loads --model (see resolve_model_dir) and the IMAGE, preprocesses at the
// model's size (or --size), and runs the forward pass.
Pipeline run_pipeline(const CliArgs& args, const vit::TraceOptions& options = {});
// The same with another photo (e.g. --compare IMAGE2).
Pipeline run_pipeline_on(const CliArgs& args, const std::string& image_path, const vit::TraceOptions& options = {});

// Runs `each` on every photo the command is given (photo_list.h), loading the
// model once. One photo: its error propagates (one line, exit 2). Several: a
// progress line per photo on stderr; a photo that fails is reported there and
// skipped, and the result is 1 (some failed) instead of 0; when every photo
// fails it throws (exit 2) and the command writes nothing. `each` must leave
// the Pipeline's model in place. `check`, when given, runs once the model is
// loaded and before any photo: what it refuses (an option the model cannot
// take, e.g. an unknown --class) fails the whole run once, not every photo.
// The usual `check`: --layer and --head, where given, name a layer and a head of the model.
std::function<void(const vit::Model& model)> layer_and_head_check(const CliArgs& args);

int for_each_photo(const CliArgs& args, const vit::TraceOptions& options,
                   const std::function<void(Pipeline& photo, const std::string& path)>& each,
                   const std::function<void(const vit::Model& model)>& check = {});

}  // namespace app
