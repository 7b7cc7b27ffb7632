#include "vit/train/checkpoint_io.h"

#include <nlohmann/json.hpp>

#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/formats/model_files.h"
#include "vit/formats/safetensors.h"
#include "vit/model/config.h"

namespace vit::train {

std::string model_config_json(const TinyVitConfig& c, const std::vector<std::string>& labels) {
    nlohmann::ordered_json j;
    // "patch8_64": the name carries the patch and input size, as timm's do.
    j["architecture"] = "vitscope_trained_patch" + std::to_string(c.patch) + "_" + std::to_string(c.image);
    j["num_classes"] = c.classes;
    j["num_features"] = c.dim;
    j["global_pool"] = "token";
    j["model_args"] = {{"patch_size", c.patch},
                       {"embed_dim", c.dim},
                       {"depth", c.depth},
                       {"num_heads", c.heads},
                       {"mlp_ratio", static_cast<double>(c.mlp) / c.dim},
                       {"img_size", c.image}};
    // crop_pct 1: a photo of the input size is taken as it is, no resize, no crop.
    j["pretrained_cfg"] = {{"input_size", {3, c.image, c.image}},
                           {"interpolation", "bicubic"},
                           {"crop_pct", 1.0},
                           {"crop_mode", "center"},
                           {"mean", {0.5, 0.5, 0.5}},
                           {"std", {0.5, 0.5, 0.5}},
                           {"num_classes", c.classes},
                           {"first_conv", "patch_embed.proj"},
                           {"classifier", "head"}};
    j["label_names"] = labels;
    j["vitscope_position_embeddings"] = c.position;
    return j.dump(2) + "\n";
}

void write_model_folder(const TinyVit& model, const std::vector<std::string>& labels, const std::string& dir) {
    OutputRules rules;
    rules.force = true;
    write_output(dir + "/" + kConfigFileName, model_config_json(model.config, labels), rules);
    std::vector<TensorToWrite> tensors;
    for (const ParamTensor& t : model.tensors)
        tensors.push_back({t.name, DType::F32, t.shape, std::vector<float>(t.data.begin(), t.data.end())});
    write_safetensors(dir + "/" + kSafetensorsFileName, tensors);
}

TinyVit read_model_folder(const std::string& dir) {
    const ModelConfig mc = read_model_config(dir);
    TinyVitConfig c;
    c.image = mc.image_size;
    c.patch = mc.patch_size;
    c.dim = mc.dim;
    c.heads = mc.heads;
    c.depth = mc.depth;
    c.mlp = mc.mlp_dim;
    c.classes = mc.num_classes;
    if (c.dim <= 0 || c.heads <= 0 || c.depth <= 0 || c.mlp <= 0 || c.classes <= 0)
        throw Error(dir + "/" + kConfigFileName + " does not give the tiny ViT's sizes (model_args)");
    TinyVit m = make_tiny_vit(c);
    const SafeTensors st(dir + "/" + kSafetensorsFileName);
    for (ParamTensor& t : m.tensors) {
        const std::vector<float> v = st.to_f32(t.name, t.shape);
        t.data.assign(v.begin(), v.end());
    }
    return m;
}

}  // namespace vit::train
