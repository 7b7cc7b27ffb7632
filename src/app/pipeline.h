// The steps every command shares: model folder -> model, IMAGE -> input -> trace.
#pragma once
#include <string>

#include "cli_args.h"
#include "vit/forward.h"
#include "vit/image.h"
#include "vit/model.h"
#include "vit/preprocess.h"

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

// Softmax probabilities of the logits, and the label of class i ("class i" when unnamed).
vit::Vec probabilities(const vit::Vec& logits);
std::string label_of(const vit::Model& model, int cls);

}  // namespace app
