#include "pipeline.h"

#include <algorithm>

#include "vit/analysis.h"
#include "vit/error.h"

namespace app {

Pipeline run_pipeline(const CliArgs& args, const vit::TraceOptions& options) {
    return run_pipeline_on(args, args.image(), options);
}

Pipeline run_pipeline_on(const CliArgs& args, const std::string& image_path, const vit::TraceOptions& options) {
    Pipeline p;
    // The image is checked first: it is the cheaper of the two to refuse.
    p.image = vit::load_image(image_path);
    p.model = vit::load_model(resolve_model_dir(args));
    const int size = args.get_int_opt("--size", p.model.patch, 4096).value_or(0);
    if (size % p.model.patch != 0)
        throw vit::Error("--size " + std::to_string(size) + " is not a multiple of the patch size " +
                         std::to_string(p.model.patch));
    p.input = vit::preprocess(p.image, p.model.config.pre, size);
    p.trace = vit::run(p.model, p.input, options);
    return p;
}

std::vector<ClassScore> top_classes(const vit::Model& model, const vit::Trace& trace, int k) {
    std::vector<ClassScore> all;
    if (trace.logits.size() == 0) return all;
    const vit::Vec p = vit::softmax(trace.logits);
    for (int i = 0; i < p.size(); ++i) all.push_back({i, p[i], label_of(model, i)});
    k = std::min<int>(k, static_cast<int>(all.size()));
    std::partial_sort(all.begin(), all.begin() + k, all.end(),
                      [](const ClassScore& a, const ClassScore& b) { return a.probability > b.probability; });
    all.resize(k);
    return all;
}

std::string label_of(const vit::Model& model, int cls) {
    const auto& labels = model.config.labels;
    return cls < static_cast<int>(labels.size()) ? labels[cls] : "class " + std::to_string(cls);
}

}  // namespace app
