#include "app/pipeline.h"

#include <cstdio>

#include "app/photo_list.h"
#include "vit/base/error.h"
#include "vit/base/printable.h"
#include "vit/formats/checkpoint.h"

namespace app {

Pipeline run_pipeline(const CliArgs& args, const vit::TraceOptions& options) {
    return run_pipeline_on(args, args.image(), options);
}

namespace {

// The photo through `model` (moved in, and back out to `model` when the run fails).
Pipeline run_with(const CliArgs& args, vit::Image image, std::optional<vit::Model>& model,
                  const vit::TraceOptions& options) {
    Pipeline p;
    p.image = std::move(image);
    p.model = std::move(*model);
    model.reset();
    try {
        const int size = args.get_int_opt("--size", p.model.patch, 4096).value_or(0);
        if (size % p.model.patch != 0)
            throw vit::Error("--size " + std::to_string(size) + " is not a multiple of the patch size " +
                             std::to_string(p.model.patch));
        // A trace over the memory budget is refused before the photo is resized for it.
        if (size) vit::check_input_size(p.model, size, options);
        p.input = vit::preprocess(p.image, p.model.config.pre, size);
        p.trace = vit::forward(p.model, p.input, options);
    } catch (...) {
        model = std::move(p.model);
        throw;
    }
    return p;
}

}  // namespace

std::function<void(const vit::Model& model)> layer_and_head_check(const CliArgs& args) {
    return [&args](const vit::Model& model) {
        if (args.has("--layer")) args.get_int("--layer", 0, model.depth - 1);
        if (args.has("--head")) args.get_int("--head", 0, model.heads - 1);
    };
}

int for_each_photo(const CliArgs& args, const vit::TraceOptions& options,
                   const std::function<void(Pipeline& photo, const std::string& path)>& each,
                   const std::function<void(const vit::Model& model)>& check) {
    const std::vector<std::string> paths = photo_paths(args);
    std::optional<vit::Model> model;
    if (paths.size() == 1) {
        vit::Image image = vit::load_image(paths[0]);  // the cheaper of the two to refuse
        model = vit::load_model(resolve_model_dir(args));
        if (check) check(*model);
        Pipeline p = run_with(args, std::move(image), model, options);
        each(p, paths[0]);
        return 0;
    }
    model = vit::load_model(resolve_model_dir(args));  // a model that fails fails the whole run
    if (check) check(*model);
    size_t failed = 0;
    for (size_t i = 0; i < paths.size(); ++i) {
        std::fprintf(stderr, "vitscope: [%zu/%zu] %s\n", i + 1, paths.size(), vit::printable(paths[i]).c_str());
        try {
            std::optional<Pipeline> p;
            try {
                p = run_with(args, vit::load_image(paths[i]), model, options);
                each(*p, paths[i]);
            } catch (...) {
                if (p) model = std::move(p->model);
                throw;
            }
            model = std::move(p->model);
        } catch (const vit::Error& e) {
            ++failed;
            std::fprintf(stderr, "vitscope: error: %s: %s (skipped)\n", vit::printable(paths[i]).c_str(), e.what());
        }
    }
    if (failed == 0) return 0;
    // Exit 2 when nothing was done: the command writes no output (a header-only table would pass for a result).
    if (failed == paths.size())
        throw vit::Error("all " + std::to_string(failed) + " photos failed (see above); nothing written");
    std::fprintf(stderr, "vitscope: error: %zu of %zu photos failed (see above); the others are done\n", failed,
                 paths.size());
    return 1;
}

Pipeline run_pipeline_on(const CliArgs& args, const std::string& image_path, const vit::TraceOptions& options) {
    vit::Image image = vit::load_image(image_path);  // checked first: the cheaper of the two to refuse
    std::optional<vit::Model> model = vit::load_model(resolve_model_dir(args));
    return run_with(args, std::move(image), model, options);
}

}  // namespace app
