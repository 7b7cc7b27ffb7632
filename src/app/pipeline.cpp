#include "pipeline.h"

#include "vit/analysis.h"
#include "vit/error.h"

namespace app {

Pipeline run_pipeline(const CliArgs& args, const vit::TraceOptions& options) {
    Pipeline p;
    // The image is checked first: it is the cheaper of the two to refuse.
    p.image = vit::load_image(args.image());
    p.model = vit::load_model(resolve_model_dir(args));
    const int size = args.get_int_opt("--size", p.model.patch, 4096).value_or(0);
    if (size % p.model.patch != 0)
        throw vit::Error("--size " + std::to_string(size) + " is not a multiple of the patch size " +
                         std::to_string(p.model.patch));
    p.input = vit::preprocess(p.image, p.model.config.pre, size);
    p.trace = vit::run(p.model, p.input, options);
    return p;
}

vit::Vec probabilities(const vit::Vec& logits) { return vit::softmax(logits); }

std::string label_of(const vit::Model& model, int cls) {
    const auto& labels = model.config.labels;
    return cls < static_cast<int>(labels.size()) ? labels[cls] : "class " + std::to_string(cls);
}

}  // namespace app
