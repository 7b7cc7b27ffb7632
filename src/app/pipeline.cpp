#include "pipeline.h"

#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"

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
    // A trace over the memory budget is refused before the photo is resized for it.
    if (size) vit::check_input_size(p.model, size, options);
    p.input = vit::preprocess(p.image, p.model.config.pre, size);
    p.trace = vit::forward(p.model, p.input, options);
    return p;
}

}  // namespace app
