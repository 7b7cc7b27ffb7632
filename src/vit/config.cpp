// config.json in its two flavours, reduced to ModelConfig.
//
// timm (has "architecture" or "pretrained_cfg"): sizes from "model_args", else
// from the architecture name (vit_tiny_patch16_224: tiny -> 192 wide, 3 heads;
// patch16; 224 px); preprocessing from "pretrained_cfg"; labels from
// "label_names"; LayerNorm eps 1e-6; exact GELU.
//
// Hugging Face (has "model_type", "architectures" or "hidden_size"): sizes from
// hidden_size, num_hidden_layers, num_attention_heads, intermediate_size (or
// mlp_ratio), layer_norm_eps (default 1e-12, as HF's ViTConfig; 1e-6 for
// dinov2), hidden_act; labels from id2label. Preprocessing from
// preprocessor_config.json, mapped onto timm's resize-shorter-side + centre crop:
//   resize side R = size (an int, {"shortest_edge"}, or {"height","width"} with
//   height == width); with do_center_crop and crop_size C: input C, crop_pct C/R;
//   otherwise input R, crop_pct 1 (for HF's resize-to-square this matches exactly
//   on square photos; on others we keep the aspect ratio and crop instead of squashing).
// Without preprocessor_config.json: HF ViTImageProcessor's defaults (image_size,
// bilinear, mean = std = 0.5, crop_pct 1), or for dinov2 BitImageProcessor's
// (bicubic, ImageNet mean/std, shorter side 256 then crop 224).
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <tuple>

#include "config.h"
#include "error.h"

namespace vit {
namespace {

using json = nlohmann::json;

// Reads fields of one JSON document, prefixing every error with the file name.
struct Doc {
    std::string file;
    json j;

    [[noreturn]] void fail(const std::string& what) const { throw Error(file + ": " + what); }

    const json* find(const json& obj, const std::string& key) const {
        if (!obj.is_object()) return nullptr;
        auto it = obj.find(key);
        return it == obj.end() || it->is_null() ? nullptr : &*it;
    }

    int get_int(const json& v, const std::string& key) const {
        // Checked as a double first: a float like 1e300 does not fit an int.
        if (v.is_number()) {
            const double d = v.get<double>();
            if (d == std::floor(d) && std::abs(d) <= 1e9) return static_cast<int>(d);
        }
        fail("'" + key + "' must be an integer (at most 1e9 in size), not " + v.dump());
    }
    float get_float(const json& v, const std::string& key) const {
        if (!v.is_number()) fail("'" + key + "' must be a number, not " + v.dump());
        return v.get<float>();
    }
    std::string get_string(const json& v, const std::string& key) const {
        if (!v.is_string()) fail("'" + key + "' must be a string, not " + v.dump());
        return v.get<std::string>();
    }
    bool get_bool(const json& v, const std::string& key) const {
        if (!v.is_boolean()) fail("'" + key + "' must be true or false, not " + v.dump());
        return v.get<bool>();
    }
    int positive(int value, const std::string& key) const {
        if (value <= 0) fail("'" + key + "' must be positive, not " + std::to_string(value));
        return value;
    }
    // An int, or a [h, w] / [c, h, w] list whose last two entries agree (square inputs only).
    int square_size(const json& v, const std::string& key) const {
        if (!v.is_array()) return positive(get_int(v, key), key);
        if (v.size() < 2) fail("'" + key + "' must list at least height and width");
        const int h = get_int(v[v.size() - 2], key), w = get_int(v[v.size() - 1], key);
        if (h != w) fail("'" + key + "' is " + std::to_string(h) + "x" + std::to_string(w) + "; only square inputs are supported");
        return positive(h, key);
    }
    // Three channel values, or one value for all three.
    std::array<float, 3> rgb(const json& v, const std::string& key) const {
        if (v.is_number()) { const float x = get_float(v, key); return {x, x, x}; }
        if (!v.is_array() || (v.size() != 3 && v.size() != 1)) fail("'" + key + "' must list 3 channel values");
        if (v.size() == 1) { const float x = get_float(v[0], key); return {x, x, x}; }
        return {get_float(v[0], key), get_float(v[1], key), get_float(v[2], key)};
    }
};

Doc parse_doc(const std::string& file, const std::string& text) {
    Doc d{file, {}};
    try {
        d.j = json::parse(text);
    } catch (const json::exception& e) {
        std::string why = e.what();
        for (char& c : why) if (c == '\n' || c == '\r') c = ' ';
        d.fail("invalid JSON (" + why + ")");
    }
    if (!d.j.is_object()) d.fail("top level is not a JSON object");
    return d;
}

void check_preprocess(const Doc& d, const PreprocessConfig& p) {
    for (float s : p.std) if (!(s > 0)) d.fail("std must be positive in every channel");
    if (!(p.crop_pct > 0 && p.crop_pct <= 1)) d.fail("crop_pct must be in (0, 1], not " + std::to_string(p.crop_pct));
}

// --- timm ------------------------------------------------------------------

struct NameSizes {
    int dim = 0, heads = 0, patch = 0, image = 0;
};

// Sizes encoded in a timm architecture name, e.g. vit_small_patch14_dinov2 or deit_base_patch16_384.
NameSizes sizes_from_name(const std::string& name) {
    NameSizes s;
    std::vector<std::string> parts;
    std::stringstream ss(name);
    for (std::string part; std::getline(ss, part, '_');) parts.push_back(part);
    const bool dinov2 = name.find("dinov2") != std::string::npos;
    const std::map<std::string, std::pair<int, int>> widths = {
        {"tiny", {192, 3}}, {"small", {384, 6}}, {"base", {768, 12}},
        {"large", {1024, 16}}, {"huge", {1280, 16}},
        {"giant", dinov2 ? std::pair{1536, 24} : std::pair{1408, 16}}};
    bool after_patch = false;
    for (const std::string& p : parts) {
        if (auto it = widths.find(p); it != widths.end() && s.dim == 0) std::tie(s.dim, s.heads) = it->second;
        const bool digits = !p.empty() && p.find_first_not_of("0123456789") == std::string::npos;
        if (p.rfind("patch", 0) == 0 && p.size() > 5 && p.find_first_not_of("0123456789", 5) == std::string::npos) {
            // More than 4 digits is no patch size (and would overflow stoi).
            if (p.size() > 9) throw Error("the architecture name '" + name + "' has an impossible patch size");
            s.patch = std::stoi(p.substr(5));
            after_patch = true;
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
    c.ln_eps = 1e-6f;
    const json* cfg = d.find(d.j, "pretrained_cfg");
    if (cfg && !cfg->is_object()) d.fail("'pretrained_cfg' must be an object");
    if (const json* a = d.find(d.j, "architecture")) c.name = d.get_string(*a, "architecture");
    else if (const json* a2 = cfg ? d.find(*cfg, "architecture") : nullptr) c.name = d.get_string(*a2, "architecture");

    const NameSizes named = sizes_from_name(c.name);
    c.dim = named.dim;
    c.heads = named.heads;
    if (named.patch) c.patch_size = named.patch;
    if (named.image) c.image_size = named.image;

    if (const json* gp = d.find(d.j, "global_pool")) {
        const std::string pool = d.get_string(*gp, "global_pool");
        if (!pool.empty() && pool != "token")
            d.fail("global_pool '" + pool + "' is not supported (only the CLS token, 'token')");
    }

    if (const json* args = d.find(d.j, "model_args")) {
        if (!args->is_object()) d.fail("'model_args' must be an object");
        if (const json* v = d.find(*args, "embed_dim")) c.dim = d.positive(d.get_int(*v, "embed_dim"), "embed_dim");
        if (const json* v = d.find(*args, "depth")) c.depth = d.positive(d.get_int(*v, "depth"), "depth");
        if (const json* v = d.find(*args, "num_heads")) c.heads = d.positive(d.get_int(*v, "num_heads"), "num_heads");
        if (const json* v = d.find(*args, "patch_size")) c.patch_size = d.square_size(*v, "patch_size");
        if (const json* v = d.find(*args, "img_size")) c.image_size = d.square_size(*v, "img_size");
        if (const json* v = d.find(*args, "mlp_ratio")) {
            const float r = d.get_float(*v, "mlp_ratio");
            if (!(r > 0)) d.fail("'mlp_ratio' must be positive");
            if (c.dim > 0) c.mlp_dim = static_cast<int>(std::lround(c.dim * r));
        }
    }

    if (cfg) {
        PreprocessConfig& p = c.pre;
        if (const json* v = d.find(*cfg, "input_size")) {
            p.input_size = d.square_size(*v, "input_size");
            c.image_size = p.input_size;
        } else {
            p.input_size = c.image_size;
        }
        if (const json* v = d.find(*cfg, "crop_pct")) p.crop_pct = d.get_float(*v, "crop_pct");
        if (const json* v = d.find(*cfg, "interpolation")) {
            p.interpolation = d.get_string(*v, "interpolation");
            if (p.interpolation != "bicubic" && p.interpolation != "bilinear")
                d.fail("interpolation '" + p.interpolation + "' is not supported (bicubic or bilinear)");
        }
        if (const json* v = d.find(*cfg, "mean")) p.mean = d.rgb(*v, "mean");
        if (const json* v = d.find(*cfg, "std")) p.std = d.rgb(*v, "std");
        if (const json* v = d.find(*cfg, "crop_mode")) {
            const std::string mode = d.get_string(*v, "crop_mode");
            if (mode != "center") d.fail("crop_mode '" + mode + "' is not supported (only 'center')");
        }
    } else {
        c.pre.input_size = c.image_size;
    }

    if (const json* v = d.find(d.j, "label_names")) {
        if (!v->is_array()) d.fail("'label_names' must be a list of strings");
        for (const json& l : *v) c.labels.push_back(d.get_string(l, "label_names"));
    }
}

// --- Hugging Face ------------------------------------------------------------

// PIL resampling codes as HF stores them.
std::string interpolation_from_pil(const Doc& d, int code) {
    if (code == 2) return "bilinear";
    if (code == 3) return "bicubic";
    d.fail("resample " + std::to_string(code) + " is not supported (2 bilinear or 3 bicubic)");
}

// HF "size": an int, {"shortest_edge": s}, or {"height": h, "width": w}.
int hf_size(const Doc& d, const json& v, const std::string& key) {
    if (!v.is_object()) return d.square_size(v, key);
    if (const json* s = d.find(v, "shortest_edge")) return d.positive(d.get_int(*s, key), key);
    const json* h = d.find(v, "height");
    const json* w = d.find(v, "width");
    if (!h || !w) d.fail("'" + key + "' needs shortest_edge or height and width");
    return d.square_size(json::array({*h, *w}), key);
}

// A float read back as the shortest decimal that names it (0.8f -> 0.8), which
// is how preprocessing undoes float storage to match timm's Python arithmetic.
double as_decimal(float value) {
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    double out = value;
    std::from_chars(text, end, out);
    return out;
}

// A crop_pct for which floor(input / crop_pct) gives back `resize` despite rounding.
float crop_pct_for(int input, int resize) {
    float pct = static_cast<float>(input) / static_cast<float>(resize);
    while (std::floor(input / as_decimal(pct)) < resize) pct = std::nextafter(pct, 0.0f);
    return pct;
}

void read_hf_preprocessor(const Doc& d, ModelConfig& c) {
    PreprocessConfig& p = c.pre;
    if (const json* v = d.find(d.j, "image_mean")) p.mean = d.rgb(*v, "image_mean");
    if (const json* v = d.find(d.j, "image_std")) p.std = d.rgb(*v, "image_std");
    if (const json* v = d.find(d.j, "resample")) p.interpolation = interpolation_from_pil(d, d.get_int(*v, "resample"));
    if (const json* v = d.find(d.j, "do_normalize"); v && !d.get_bool(*v, "do_normalize")) {
        p.mean = {0, 0, 0};
        p.std = {1, 1, 1};
    }
    if (const json* v = d.find(d.j, "do_resize"); v && !d.get_bool(*v, "do_resize"))
        d.fail("do_resize false is not supported (inputs are always resized)");
    int resize = c.image_size;
    if (const json* v = d.find(d.j, "size")) resize = hf_size(d, *v, "size");
    bool crop = d.find(d.j, "crop_size") != nullptr;
    if (const json* v = d.find(d.j, "do_center_crop")) crop = crop && d.get_bool(*v, "do_center_crop");
    if (crop) {
        const int crop_size = hf_size(d, d.j["crop_size"], "crop_size");
        if (crop_size > resize)
            d.fail("crop_size " + std::to_string(crop_size) + " is larger than the resize " + std::to_string(resize));
        p.input_size = crop_size;
        p.crop_pct = crop_pct_for(crop_size, resize);
    } else {
        p.input_size = resize;
        p.crop_pct = 1.0f;
    }
}

void read_hf(const Doc& d, ModelConfig& c) {
    c.source = "hf";
    if (const json* v = d.find(d.j, "model_type")) c.name = d.get_string(*v, "model_type");
    else if (const json* a = d.find(d.j, "architectures"); a && a->is_array() && !a->empty())
        c.name = d.get_string((*a)[0], "architectures");
    const bool dinov2 = c.name.rfind("dinov2", 0) == 0;

    if (const json* v = d.find(d.j, "hidden_size")) c.dim = d.positive(d.get_int(*v, "hidden_size"), "hidden_size");
    if (const json* v = d.find(d.j, "num_hidden_layers")) c.depth = d.positive(d.get_int(*v, "num_hidden_layers"), "num_hidden_layers");
    if (const json* v = d.find(d.j, "num_attention_heads")) c.heads = d.positive(d.get_int(*v, "num_attention_heads"), "num_attention_heads");
    if (const json* v = d.find(d.j, "intermediate_size")) c.mlp_dim = d.positive(d.get_int(*v, "intermediate_size"), "intermediate_size");
    else if (const json* r = d.find(d.j, "mlp_ratio"); r && c.dim > 0) c.mlp_dim = static_cast<int>(std::lround(c.dim * d.get_float(*r, "mlp_ratio")));
    if (const json* v = d.find(d.j, "image_size")) c.image_size = d.square_size(*v, "image_size");
    if (const json* v = d.find(d.j, "patch_size")) c.patch_size = d.square_size(*v, "patch_size");
    if (const json* v = d.find(d.j, "num_channels"); v && d.get_int(*v, "num_channels") != 3)
        d.fail("num_channels must be 3 (RGB)");
    c.ln_eps = dinov2 ? 1e-6f : 1e-12f;
    if (const json* v = d.find(d.j, "layer_norm_eps")) c.ln_eps = d.get_float(*v, "layer_norm_eps");
    if (const json* v = d.find(d.j, "hidden_act")) {
        const std::string act = d.get_string(*v, "hidden_act");
        if (act == "gelu_pytorch_tanh" || act == "gelu_new" || act == "gelu_fast") c.gelu_tanh = true;
        else if (act != "gelu") d.fail("hidden_act '" + act + "' is not supported (gelu, gelu_new, gelu_pytorch_tanh)");
    }
    if (const json* v = d.find(d.j, "use_swiglu_ffn"); v && d.get_bool(*v, "use_swiglu_ffn"))
        d.fail("use_swiglu_ffn is not supported");

    if (const json* v = d.find(d.j, "id2label")) {
        if (!v->is_object()) d.fail("'id2label' must be an object");
        std::map<int, std::string> by_index;
        for (const auto& [key, name] : v->items()) {
            size_t used = 0;
            int index = -1;
            try { index = std::stoi(key, &used); } catch (const std::exception&) {}
            if (index < 0 || used != key.size()) d.fail("id2label key '" + key + "' is not a class index");
            by_index[index] = d.get_string(name, "id2label");
        }
        int next = 0;
        for (const auto& [index, name] : by_index) {
            if (index != next) d.fail("id2label has no entry for class " + std::to_string(next));
            c.labels.push_back(name);
            ++next;
        }
    }

    // Defaults of the HF image processor when preprocessor_config.json is absent.
    PreprocessConfig& p = c.pre;
    if (dinov2) {
        p.interpolation = "bicubic";
        p.input_size = 224;
        p.crop_pct = crop_pct_for(224, 256);
    } else {
        p.interpolation = "bilinear";
        p.input_size = c.image_size;
        p.crop_pct = 1.0f;
        p.mean = {0.5f, 0.5f, 0.5f};
        p.std = {0.5f, 0.5f, 0.5f};
    }
}

// The file's text; nullopt when it is absent and not required.
std::optional<std::string> read_file(const std::string& path, bool required) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        if (required) throw Error(path + ": not found");
        return std::nullopt;
    }
    if (std::filesystem::is_directory(path, ec)) throw Error(path + ": is a directory, not a file");
    if (!std::filesystem::is_regular_file(path, ec)) throw Error(path + ": is not a regular file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot be read");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

ModelConfig parse_files(const std::string& config_file, const std::string& config_json,
                        const std::string& pre_file, const std::optional<std::string>& pre_json) {
    const Doc d = parse_doc(config_file, config_json);
    ModelConfig c;
    const bool timm = d.find(d.j, "architecture") || d.find(d.j, "pretrained_cfg");
    const bool hf = d.find(d.j, "model_type") || d.find(d.j, "architectures") || d.find(d.j, "hidden_size");
    if (timm) read_timm(d, c);
    else if (hf) read_hf(d, c);
    else d.fail("neither a timm config (architecture, pretrained_cfg) nor a Hugging Face one (model_type, hidden_size)");
    if (hf && !timm && pre_json) {
        const Doc pd = parse_doc(pre_file, *pre_json);
        read_hf_preprocessor(pd, c);
        check_preprocess(pd, c.pre);
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
    return parse_files("config.json", config_json, "preprocessor_config.json", pre);
}

ModelConfig read_model_config(const std::string& dir) {
    const std::filesystem::path base(dir);
    const std::string config_file = (base / "config.json").string();
    const std::string pre_file = (base / "preprocessor_config.json").string();
    const std::string config_json = *read_file(config_file, true);
    return parse_files(config_file, config_json, pre_file, read_file(pre_file, false));
}

}  // namespace vit
