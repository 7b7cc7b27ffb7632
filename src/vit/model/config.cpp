// config.json in its two flavours, reduced to ModelConfig. What a model
// family does its own way (its architecture names, model_types, keys,
// defaults) is in its file in families/, reached through model_family.h.
//
// timm (has "architecture" or "pretrained_cfg"): sizes from "model_args", else
// from the architecture name (vit_tiny_patch16_224: tiny -> 192 wide, 3 heads;
// patch16; 224 px; regN: N register tokens); preprocessing from
// "pretrained_cfg"; labels from "label_names"; LayerNorm eps 1e-6; exact GELU.
//
// Hugging Face (has "model_type", "architectures" or "hidden_size"): sizes from
// hidden_size, num_hidden_layers, num_attention_heads, intermediate_size (or
// mlp_ratio), layer_norm_eps (default: the family's, else 1e-12 as HF's
// ViTConfig), hidden_act; labels from id2label; then the family's own keys.
//
// Registers and layer scale are what the config implies; checkpoint.cpp checks
// the weights against them. Position embeddings are resized as the config's
// library does it (PosResize). Preprocessing: the transformers
// image processor that preprocessor_config.json names (image_processor_type or
// feature_extractor_type), else the one config.json's model_type's family
// names (ViTImageProcessor when none), with that processor's defaults under
// the file's settings. Without the file: the family's settings, else the
// processor's defaults.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <tuple>

#include "vit/base/error.h"
#include "vit/base/read_file.h"
#include "vit/base/untrusted_json.h"
#include "vit/model/config.h"
#include "vit/model/config_doc.h"
#include "vit/model/model_family.h"

namespace vit {
namespace {

using json = nlohmann::json;

// The heads split one matrix, so no weight shape can confirm their number.
constexpr const char* kHeadsUnchecked = "config.json alone (the weights cannot show it): ";

using Doc = ConfigDoc;

Doc parse_doc(const std::string& file, const std::string& text) {
    Doc d{file, parse_untrusted_json(text, file)};
    if (!d.j.is_object()) d.fail("top level is not a JSON object");
    return d;
}

void check_preprocess(const Doc& d, const PreprocessConfig& p) {
    const bool normalises = !p.hf || p.hf->do_normalize;
    // Dividing by a std below 0.001 turns a pixel's 0..1 into thousands: no model was trained on that.
    for (float s : p.std)
        if (normalises && !(s >= 1e-3f))
            d.fail("std must be at least 0.001 in every channel, not " + quote_for_error(json(s)));
    if (!(p.crop_pct > 0 && p.crop_pct <= 1)) d.fail("crop_pct must be in (0, 1], not " + std::to_string(p.crop_pct));
    // The resize before the crop is input_size / crop_pct: a tiny crop_pct asks for a photo of millions of pixels a
    // side.
    constexpr double kMaxResizeSide = 16384;
    if (!p.hf && p.input_size > 0 && p.input_size / static_cast<double>(p.crop_pct) > kMaxResizeSide)
        d.fail("input_size " + std::to_string(p.input_size) + " with crop_pct " + std::to_string(p.crop_pct) +
               " would resize the photo's shorter side to " +
               std::to_string(static_cast<long long>(p.input_size / static_cast<double>(p.crop_pct))) +
               " px (input_size / crop_pct; at most 16384)");
}

// --- timm ------------------------------------------------------------------

// Sizes encoded in a timm architecture name, e.g. vit_small_patch14_dinov2 or
// deit_base_patch16_384; `family` (the name's, or null) may size its width words its own way.
TimmName sizes_from_name(const std::string& name, const ModelFamily* family) {
    TimmName s;
    std::vector<std::string> parts;
    std::stringstream ss(name);
    for (std::string part; std::getline(ss, part, '_');) parts.push_back(part);
    std::map<std::string, std::pair<int, int>> widths = {{"tiny", {192, 3}},   {"small", {384, 6}},
                                                         {"base", {768, 12}},  {"large", {1024, 16}},
                                                         {"huge", {1280, 16}}, {"giant", {1408, 16}}};
    if (family)
        for (const auto& [word, sizes] : family->timm_widths) widths[word] = sizes;
    bool after_patch = false;
    for (const std::string& p : parts) {
        if (auto it = widths.find(p); it != widths.end() && s.dim == 0) std::tie(s.dim, s.heads) = it->second;
        const bool digits = !p.empty() && p.find_first_not_of("0123456789") == std::string::npos;
        if (p.rfind("patch", 0) == 0 && p.size() > 5 && p.find_first_not_of("0123456789", 5) == std::string::npos) {
            // More than 4 digits is no patch size (and would overflow stoi).
            if (p.size() > 9)
                throw Error("the architecture name '" + quote_for_error(name) + "' has an impossible patch size");
            s.patch = std::stoi(p.substr(5));
            after_patch = true;
        } else if (p.size() > 3 && p.size() <= 6 && p.rfind("reg", 0) == 0 &&
                   p.find_first_not_of("0123456789", 3) == std::string::npos) {
            s.registers = std::stoi(p.substr(3));
            after_patch = false;
        } else if (after_patch && digits && p.size() <= 4) {
            s.image = std::stoi(p);  // the number right after patchNN is the input size
            after_patch = false;
        } else {
            after_patch = false;
        }
    }
    return s;
}

void read_timm(const Doc& d, ModelConfig& c) {
    c.source = "timm";
    c.pos_resize = PosResize::BicubicAntialias;  // resample_abs_pos_embed: antialias=True
    c.ln_eps = 1e-6f;
    const json* cfg = d.find(d.j, "pretrained_cfg");
    if (cfg && !cfg->is_object()) d.fail("'pretrained_cfg' must be an object");
    if (const json* a = d.find(d.j, "architecture")) c.name = d.get_string(*a, "architecture");
    else if (const json* a2 = cfg ? d.find(*cfg, "architecture") : nullptr) c.name = d.get_string(*a2, "architecture");

    const ModelFamily* family = family_of_timm_architecture(c.name);
    const TimmName named = sizes_from_name(c.name, family);
    c.dim = named.dim;
    c.heads = named.heads;
    if (named.heads > 0) c.heads_from = "the architecture name " + quote_for_error(c.name);
    c.heads_checked = named.heads > 0;
    if (named.patch) c.patch_size = named.patch;
    if (named.image) c.image_size = named.image;
    if (named.registers >= 0) {
        // timm builds regN with N register tokens.
        c.num_registers = named.registers;
        c.registers_from = "the architecture name " + c.name;
    }
    if (family && family->read_timm_name) family->read_timm_name(d, named, c);

    if (const json* gp = d.find(d.j, "global_pool")) {
        const std::string pool = d.get_string(*gp, "global_pool");
        if (!pool.empty() && pool != "token")
            d.fail("global_pool '" + quote_for_error(pool) + "' is not supported (only the CLS token, 'token')");
    }

    if (const json* args = d.find(d.j, "model_args")) {
        if (!args->is_object()) d.fail("'model_args' must be an object");
        if (const json* v = d.find(*args, "embed_dim")) c.dim = d.positive(d.get_int(*v, "embed_dim"), "embed_dim");
        if (const json* v = d.find(*args, "depth")) c.depth = d.positive(d.get_int(*v, "depth"), "depth");
        if (const json* v = d.find(*args, "num_heads")) {
            c.heads = d.positive(d.get_int(*v, "num_heads"), "num_heads");
            if (named.heads == 0) c.heads_from = kHeadsUnchecked + std::string("model_args.num_heads");
            // Shapes cannot show a wrong head count (the heads split one matrix): the name can.
            if (named.heads > 0 && c.heads != named.heads)
                d.fail("'num_heads' " + std::to_string(c.heads) + " contradicts the architecture " + c.name + " (" +
                       std::to_string(named.heads) + " heads)");
        }
        if (const json* v = d.find(*args, "class_token"); v && !d.get_bool(*v, "class_token"))
            d.fail("'class_token' is false, but vitscope reads ViTs whose weights hold a class token (cls_token)");
        if (const json* v = d.find(*args, "patch_size")) c.patch_size = d.square_size(*v, "patch_size");
        if (const json* v = d.find(*args, "img_size")) c.image_size = d.square_size(*v, "img_size");
        if (const json* v = d.find(*args, "mlp_ratio")) {
            const double r = d.get_ratio(*v, "mlp_ratio");
            if (c.dim > 0) c.mlp_dim = static_cast<int>(c.dim * r);  // timm: int(dim * mlp_ratio)
        }
        if (const json* v = d.find(*args, "reg_tokens")) {
            c.num_registers = d.get_int(*v, "reg_tokens");
            if (c.num_registers < 0) d.fail("'reg_tokens' must not be negative");
            c.registers_from = "model_args reg_tokens";
        }
        if (const json* v = d.find(*args, "init_values")) c.layer_scale = d.get_float(*v, "init_values") != 0;
    }

    if (cfg) {
        PreprocessConfig& p = c.pre;
        if (const json* v = d.find(*cfg, "input_size")) {
            // timm writes [channels, height, width]: three channels of RGB.
            if (v->is_array() && (v->size() != 3 || !(*v)[0].is_number_integer() || (*v)[0].get<int64_t>() != 3))
                d.fail("'input_size' must be [3, height, width], not " + quote_for_error(*v));
            p.input_size = d.square_size(*v, "input_size");
            c.image_size = p.input_size;
        } else {
            p.input_size = c.image_size;
        }
        if (const json* v = d.find(*cfg, "crop_pct")) p.crop_pct = d.get_float(*v, "crop_pct");
        if (const json* v = d.find(*cfg, "interpolation")) {
            p.interpolation = d.get_string(*v, "interpolation");
            if (p.interpolation != "bicubic" && p.interpolation != "bilinear")
                d.fail("interpolation '" + quote_for_error(p.interpolation) +
                       "' is not supported (bicubic or bilinear)");
        }
        if (const json* v = d.find(*cfg, "mean")) p.mean = d.rgb(*v, "pretrained_cfg.mean");
        if (const json* v = d.find(*cfg, "std")) p.std = d.rgb(*v, "pretrained_cfg.std");
        if (const json* v = d.find(*cfg, "crop_mode")) {
            const std::string mode = d.get_string(*v, "crop_mode");
            if (mode != "center") d.fail("crop_mode '" + quote_for_error(mode) + "' is not supported (only 'center')");
        }
    } else {
        c.pre.input_size = c.image_size;
    }

    if (const json* v = d.find(d.j, "num_classes")) {
        c.num_classes = d.get_int(*v, "num_classes");
        if (c.num_classes < 0) d.fail("'num_classes' must not be negative");
    }
    if (const json* v = d.find(d.j, "label_names")) {
        if (!v->is_array()) d.fail("'label_names' must be a list of strings");
        for (const json& l : *v) c.labels.push_back(d.label(d.get_string(l, "label_names")));
        c.labels_source = "label_names in config.json";
    }
}

// --- Hugging Face ------------------------------------------------------------

// PIL resampling codes as HF stores them (PIL.Image.Resampling).
std::string interpolation_from_pil(const Doc& d, int code) {
    if (code == 0) return "nearest";
    if (code == 2) return "bilinear";
    if (code == 3) return "bicubic";
    static const char* const names[] = {"NEAREST", "LANCZOS", "BILINEAR", "BICUBIC", "BOX", "HAMMING"};
    const std::string name = code >= 0 && code <= 5 ? std::string(" (PIL ") + names[code] + ")" : "";
    d.fail("resample " + std::to_string(code) + name + " is not supported (0 nearest, 2 bilinear or 3 bicubic)");
}

// The transformers image processors vitscope reproduces; which one a folder
// uses is named by preprocessor_config.json or, failing that, follows from
// config.json's model_type, as AutoImageProcessor decides.
enum class Processor { ViT, DeiT, Bit };

const char* processor_name(Processor p) {
    return p == Processor::DeiT  ? "DeiTImageProcessor"
           : p == Processor::Bit ? "BitImageProcessor"
                                 : "ViTImageProcessor";
}

// The processor a model_type's family names (ViTImageProcessor for one no family knows).
Processor processor_for_model_type(const std::string& model_type) {
    const ModelFamily* family = family_of_model_type(model_type);
    const std::string name = family ? family->hf_processor : processor_name(Processor::ViT);
    for (Processor p : {Processor::ViT, Processor::DeiT, Processor::Bit})
        if (name == processor_name(p)) return p;
    throw Error(std::string("model family ") + family->name + " names an unknown image processor " + name);
}

// image_processor_type or the older feature_extractor_type; the Fast
// (torchvision) variants are run as their PIL originals.
std::optional<Processor> processor_named(const Doc& d) {
    for (const char* key : {"image_processor_type", "feature_extractor_type"}) {
        const json* v = d.find(d.j, key);
        if (!v) continue;
        const std::string name = d.get_string(*v, key);
        for (Processor p : {Processor::ViT, Processor::DeiT, Processor::Bit}) {
            const std::string base = processor_name(p);
            const std::string family = base.substr(0, base.size() - std::string("ImageProcessor").size());
            if (name == base || name == base + "Fast" || name == family + "FeatureExtractor") return p;
        }
        d.fail(std::string(key) + " '" + quote_for_error(name) +
               "' is not supported (ViTImageProcessor, DeiTImageProcessor or BitImageProcessor)");
    }
    return std::nullopt;
}

// Each processor's own defaults (transformers' __init__ arguments).
HfImageProcessor processor_defaults(Processor p, PreprocessConfig& pre) {
    HfImageProcessor hf;
    hf.name = processor_name(p);
    if (p == Processor::ViT) {
        pre.interpolation = "bilinear";
        pre.mean = pre.std = {0.5f, 0.5f, 0.5f};  // IMAGENET_STANDARD_MEAN / _STD
    } else if (p == Processor::DeiT) {
        pre.interpolation = "bicubic";
        hf.resize_height = hf.resize_width = 256;
        hf.do_center_crop = true;
        pre.mean = pre.std = {0.5f, 0.5f, 0.5f};
    } else {
        pre.interpolation = "bicubic";
        hf.shortest_edge = 224;
        hf.do_center_crop = true;
        pre.mean = {0.48145466f, 0.4578275f, 0.40821073f};  // OPENAI_CLIP_MEAN / _STD
        pre.std = {0.26862954f, 0.26130258f, 0.27577711f};
    }
    return hf;
}

// A size as transformers' get_size_dict reads it: an int is a square
// {height, width} (or, for BitImageProcessor's size, the shortest edge), a
// list is [height, width], an object names height and width or shortest_edge.
void read_size(const Doc& d, const json& v, const std::string& key, bool int_is_edge, int& edge, int& h, int& w) {
    const auto one = [&](const json& x) { return d.positive(d.get_int(x, key), key); };
    edge = 0;
    if (v.is_number()) {
        if (int_is_edge) edge = one(v);
        else h = w = one(v);
    } else if (v.is_array() && v.size() == 2) {
        h = one(v[0]);
        w = one(v[1]);
    } else if (v.is_object() && v.size() == 1 && d.find(v, "shortest_edge")) {
        edge = one(v["shortest_edge"]);
    } else if (v.is_object() && v.size() == 2 && d.find(v, "height") && d.find(v, "width")) {
        h = one(v["height"]);
        w = one(v["width"]);
    } else {
        d.fail("'" + key +
               "' must be an integer, [height, width], {\"height\", \"width\"} or {\"shortest_edge\"}, not " +
               quote_for_error(v));
    }
}

std::string dims(int h, int w) { return std::to_string(h) + " x " + std::to_string(w); }

// The processor's settings from preprocessor_config.json over its defaults,
// then the square model input they lead to (vitscope runs square inputs only).
void read_hf_preprocessor(const Doc& d, Processor p, PreprocessConfig& pre) {
    HfImageProcessor& hf = *pre.hf;
    if (const json* v = d.find(d.j, "do_resize")) hf.do_resize = d.get_bool(*v, "do_resize");
    if (const json* v = d.find(d.j, "size"))
        read_size(d, *v, "size", p == Processor::Bit, hf.shortest_edge, hf.resize_height, hf.resize_width);
    if (hf.shortest_edge > 0 && p != Processor::Bit)
        d.fail(hf.name + " resizes to a height and width; 'size' {\"shortest_edge\"} is only BitImageProcessor's");
    if (p != Processor::ViT) {  // ViTImageProcessor has no crop step: its crop keys are ignored, as transformers does
        if (const json* v = d.find(d.j, "do_center_crop")) hf.do_center_crop = d.get_bool(*v, "do_center_crop");
        if (const json* v = d.find(d.j, "crop_size")) {
            int edge = 0;
            read_size(d, *v, "crop_size", false, edge, hf.crop_height, hf.crop_width);
            if (edge > 0) d.fail("'crop_size' must give a height and width, not a shortest edge");
        }
    }
    if (const json* v = d.find(d.j, "resample"))
        pre.interpolation = interpolation_from_pil(d, d.get_int(*v, "resample"));
    if (const json* v = d.find(d.j, "do_rescale")) hf.do_rescale = d.get_bool(*v, "do_rescale");
    if (const json* v = d.find(d.j, "rescale_factor")) {
        if (!v->is_number()) d.fail("'rescale_factor' must be a number, not " + quote_for_error(*v));
        hf.rescale_factor = v->get<double>();
        // Pixels are 0..255 before it: a factor over 10 gives inputs no model was trained on (1e300 gives infinities).
        if (!(hf.rescale_factor > 0 && hf.rescale_factor <= 10))
            d.fail("'rescale_factor' must be in (0, 10] (usually 1/255), not " + quote_for_error(*v));
    }
    if (const json* v = d.find(d.j, "do_normalize")) hf.do_normalize = d.get_bool(*v, "do_normalize");
    if (const json* v = d.find(d.j, "image_mean")) pre.mean = d.rgb(*v, "image_mean");
    if (const json* v = d.find(d.j, "image_std")) pre.std = d.rgb(*v, "image_std");
}

// The side of the square the model sees; other shapes are refused here,
// except a photo that is not resized, whose own size counts (checked then).
void set_hf_input_size(const Doc& d, ModelConfig& c) {
    PreprocessConfig& pre = c.pre;
    const HfImageProcessor& hf = *pre.hf;
    pre.crop_pct = 1.0f;  // timm's; unused
    if (hf.do_center_crop) {
        if (hf.crop_height != hf.crop_width)
            d.fail("crop_size " + dims(hf.crop_height, hf.crop_width) +
                   " is not square; vitscope runs square inputs only");
        pre.input_size = hf.crop_height;
    } else if (!hf.do_resize) {
        pre.input_size = c.image_size;  // nominal: the photo goes in at its own size
    } else if (hf.shortest_edge > 0) {
        d.fail("size {\"shortest_edge\": " + std::to_string(hf.shortest_edge) +
               "} without a centre crop keeps the photo's aspect ratio; vitscope runs square inputs only");
    } else if (hf.resize_height != hf.resize_width) {
        d.fail("size " + dims(hf.resize_height, hf.resize_width) +
               " is not square and nothing crops it; vitscope runs square inputs only");
    } else {
        pre.input_size = hf.resize_height;
    }
}

// Preprocessing of a Hugging Face model folder: its processor, with
// preprocessor_config.json's settings when the file is there.
void read_hf_preprocessing(const Doc& config, const Doc* preprocessor, ModelConfig& c) {
    std::optional<Processor> named;
    if (preprocessor) named = processor_named(*preprocessor);
    const Processor p = named.value_or(processor_for_model_type(c.model_type));
    PreprocessConfig& pre = c.pre;
    pre.hf = processor_defaults(p, pre);
    if (preprocessor) {
        read_hf_preprocessor(*preprocessor, p, pre);
        set_hf_input_size(*preprocessor, c);
        return;
    }
    if (const ModelFamily* family = family_of_model_type(c.model_type); family && family->hf_default_preprocessing) {
        family->hf_default_preprocessing(pre);
    } else {
        pre.hf->defaults_note = std::string("no preprocessor_config.json: ") + pre.hf->name + "'s defaults";
    }
    set_hf_input_size(config, c);
}

// model_type; without it, the architecture may still say (transformers'
// Dinov2Model and Dinov2WithRegistersModel are two classes).
std::string hf_model_type(const Doc& d, const std::string& architecture) {
    if (const json* v = d.find(d.j, "model_type")) return d.get_string(*v, "model_type");
    return model_type_of_architecture(architecture);
}

void read_hf(const Doc& d, ModelConfig& c) {
    c.source = "hf";
    std::string architecture;  // only needed without model_type
    if (const json* a = d.find(d.j, "architectures"); a && a->is_array() && !a->empty() && !d.find(d.j, "model_type"))
        architecture = d.get_string((*a)[0], "architectures");
    c.model_type = hf_model_type(d, architecture);
    c.name = d.find(d.j, "model_type") ? c.model_type : architecture;
    const ModelFamily* family = family_of_model_type(c.model_type);
    c.pos_resize = PosResize::Bicubic;  // ViTEmbeddings, DeiT's, Dinov2Embeddings: no antialias

    if (const json* v = d.find(d.j, "hidden_size")) c.dim = d.positive(d.get_int(*v, "hidden_size"), "hidden_size");
    if (const json* v = d.find(d.j, "num_hidden_layers"))
        c.depth = d.positive(d.get_int(*v, "num_hidden_layers"), "num_hidden_layers");
    if (const json* v = d.find(d.j, "num_attention_heads")) {
        c.heads = d.positive(d.get_int(*v, "num_attention_heads"), "num_attention_heads");
        c.heads_from = kHeadsUnchecked + std::string("num_attention_heads");
    }
    if (const json* v = d.find(d.j, "intermediate_size"))
        c.mlp_dim = d.positive(d.get_int(*v, "intermediate_size"), "intermediate_size");
    else if (const json* r = d.find(d.j, "mlp_ratio"); r && c.dim > 0)
        c.mlp_dim = static_cast<int>(c.dim * d.get_ratio(*r, "mlp_ratio"));  // Dinov2MLP: int(hidden_size * mlp_ratio)
    if (const json* v = d.find(d.j, "image_size")) c.image_size = d.square_size(*v, "image_size");
    if (const json* v = d.find(d.j, "patch_size")) c.patch_size = d.square_size(*v, "patch_size");
    if (const json* v = d.find(d.j, "num_channels"); v && d.get_int(*v, "num_channels") != 3)
        d.fail("num_channels must be 3 (RGB)");
    c.ln_eps = family ? family->hf_ln_eps : kHfLayerNormEps;
    if (const json* v = d.find(d.j, "layer_norm_eps")) c.ln_eps = d.get_float(*v, "layer_norm_eps");
    if (const json* v = d.find(d.j, "hidden_act")) {
        const std::string act = d.get_string(*v, "hidden_act");
        if (act == "gelu_pytorch_tanh" || act == "gelu_new" || act == "gelu_fast") c.gelu_tanh = true;
        else if (act != "gelu")
            d.fail("hidden_act '" + quote_for_error(act) + "' is not supported (gelu, gelu_new, gelu_pytorch_tanh)");
    }
    if (family && family->read_hf_config) family->read_hf_config(d, c);
    else if (const json* v = d.find(d.j, "use_swiglu_ffn"); v && d.get_bool(*v, "use_swiglu_ffn"))
        d.fail("use_swiglu_ffn is true: the SwiGLU MLP is not supported");

    if (const json* v = d.find(d.j, "id2label")) {
        if (!v->is_object()) d.fail("'id2label' must be an object");
        std::map<int, std::string> by_index;
        for (const auto& [key, name] : v->items()) {
            size_t used = 0;
            int index = -1;
            try {
                index = std::stoi(key, &used);
            } catch (const std::exception&) {
            }
            if (index < 0 || used != key.size()) d.fail("id2label key '" + key + "' is not a class index");
            by_index[index] = d.get_string(name, "id2label");
        }
        int next = 0;
        for (const auto& [index, name] : by_index) {
            if (index != next) d.fail("id2label has no entry for class " + std::to_string(next));
            c.labels.push_back(d.label(name));
            ++next;
        }
        if (!c.labels.empty()) c.labels_source = "id2label in config.json";
    }
}

// The file's text; nullopt when it is absent and not required. A config of
// 21843 class names is about 1 MB; anything near the limit is not a config.
std::optional<std::string> read_file(const std::string& path, bool required) {
    std::error_code ec;
    if (!required && !std::filesystem::exists(path, ec)) return std::nullopt;
    return read_whole_file(path, 64ULL << 20, "a JSON file");
}

ModelConfig parse_files(const std::string& config_file, const std::string& config_json, const std::string& pre_file,
                        const std::optional<std::string>& pre_json) {
    const Doc d = parse_doc(config_file, config_json);
    ModelConfig c;
    const bool timm = d.find(d.j, "architecture") || d.find(d.j, "pretrained_cfg");
    const bool hf = d.find(d.j, "model_type") || d.find(d.j, "architectures") || d.find(d.j, "hidden_size");
    if (timm) read_timm(d, c);
    else if (hf) read_hf(d, c);
    else
        d.fail("neither a timm config (architecture, pretrained_cfg) nor a Hugging Face one (model_type, hidden_size)");
    if (hf && !timm) {
        std::optional<Doc> pd;
        if (pre_json) pd = parse_doc(pre_file, *pre_json);
        read_hf_preprocessing(d, pd ? &*pd : nullptr, c);
        check_preprocess(pd ? *pd : d, c.pre);
    }
    check_preprocess(d, c.pre);
    if (!(c.ln_eps > 0)) d.fail("layer norm eps must be positive");
    if (c.dim > 0 && c.heads > 0 && c.dim % c.heads != 0)
        d.fail("width " + std::to_string(c.dim) + " is not divisible by " + std::to_string(c.heads) + " heads");
    return c;
}

}  // namespace

ModelConfig parse_model_config(const std::string& config_json, const std::string& preprocessor_json) {
    std::optional<std::string> pre;
    if (!preprocessor_json.empty()) pre = preprocessor_json;
    return parse_files(kConfigFileName, config_json, kPreprocessorFileName, pre);
}

ModelConfig read_model_config(const std::string& dir) {
    const std::filesystem::path base(dir);
    const std::string config_file = (base / kConfigFileName).string();
    const std::string pre_file = (base / kPreprocessorFileName).string();
    const std::string config_json = *read_file(config_file, true);
    return parse_files(config_file, config_json, pre_file, read_file(pre_file, false));
}

}  // namespace vit
