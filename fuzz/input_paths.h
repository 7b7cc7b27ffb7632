// The four ways vitscope takes input from outside, each as one function that
// returns when the input is accepted and throws vit::Error when it is refused.
// The fuzz targets run these on every generated input, and
// tests/vit/regression_test.cpp runs them on every input a fuzzer ever crashed
// on (tests/data/regressions/<target>/), so both exercise the same code.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "../tests/support/default_preprocess.h"
#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"
#include "vit/formats/safetensors.h"
#include "vit/formats/torch_checkpoint.h"
#include "vit/formats/torch_pickle.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/model/config.h"
#include "vit/model/model.h"

namespace vitscope_fuzz {

inline volatile float g_sink;  // keeps results observable so nothing is optimised away

inline void write_file(const std::filesystem::path& path, const uint8_t* data, size_t size) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) std::abort();
    if (size && std::fwrite(data, 1, size, f) != size) std::abort();
    std::fclose(f);
}

// config.json beside the fuzzed model.safetensors; it fits the seed models
// fuzz/make_seeds.cpp writes (2 heads, 4 px patches, 8 px images).
inline constexpr const char* kModelConfig = R"({"architecture": "vit_fuzz_patch4_8",
  "model_args": {"num_heads": 2, "patch_size": 4, "img_size": 8},
  "pretrained_cfg": {"input_size": [3, 8, 8], "crop_pct": 1.0, "interpolation": "bicubic",
                     "mean": [0.5, 0.5, 0.5], "std": [0.5, 0.5, 0.5]}})";

inline void write_model_config(const std::filesystem::path& dir) {
    const std::filesystem::path config = dir / "config.json";
    if (!std::filesystem::exists(config))
        write_file(config, reinterpret_cast<const uint8_t*>(kModelConfig), std::strlen(kModelConfig));
}

// load_model(DIR), then a model that loads runs on a flat input.
inline void load_and_run(const std::filesystem::path& dir) {
    const vit::Model model = vit::load_model(dir.string());
    vit::Input input;
    input.size = model.config.pre.input_size;
    if (input.size <= 0 || input.size > 64) return;  // larger models are the memory tests' business
    input.chw.assign(static_cast<size_t>(3) * input.size * input.size, 0.25f);
    vit::TraceOptions options;
    options.memory_budget = 64 << 20;
    const vit::Trace t = vit::forward(model, input, options);
    g_sink = t.final_tokens.size() ? t.final_tokens(0, 0) : 0.f;
}

// model.safetensors: the bytes are written to DIR/model.safetensors (vitscope
// maps files, so the file path is the one to test) and opened; every tensor is
// converted to f32; then DIR is loaded as a model beside kModelConfig (naming
// scheme detection, shape checks) and a model that loads runs on a flat input.
inline void feed_safetensors(const uint8_t* data, size_t size, const std::filesystem::path& dir) {
    write_model_config(dir);
    const std::filesystem::path file = dir / "model.safetensors";
    write_file(file, data, size);
    {
        const vit::SafeTensors st(file.string());
        float sum = 0;
        for (const auto& entry : st.tensors()) {
            const std::vector<float> v = st.to_f32(entry.first);
            if (static_cast<int64_t>(v.size()) != entry.second.numel()) std::abort();
            for (float x : v) sum += x;
        }
        g_sink = sum;
    }
    load_and_run(dir);
}

// pytorch_model.bin: the bytes are written to DIR/pytorch_model.bin and opened
// as a torch.save archive (libzip, then data.pkl through the restricted pickle
// interpreter, every storage checked); every tensor is converted to f32; then
// DIR is loaded as a model beside kModelConfig and run, as feed_safetensors
// does. An input starting with a pickle's PROTO opcode (0x80) is instead a bare
// data.pkl, interpreted directly: mutations inside a zip rarely keep its
// directory intact, so the interpreter gets fuzzed on its own too.
inline void feed_torch_bin(const uint8_t* data, size_t size, const std::filesystem::path& dir) {
    if (size > 0 && data[0] == 0x80) {
        const vit::TorchStateDict sd = vit::parse_torch_pickle(data, size, "data.pkl");
        g_sink = static_cast<float>(sd.tensors.size() + sd.storages.size());
        return;
    }
    write_model_config(dir);
    const std::filesystem::path file = dir / "pytorch_model.bin";
    write_file(file, data, size);
    {
        const vit::TorchCheckpoint bin(file.string());
        // Stride-0 tensors make any size from a few bytes: larger weights are
        // refused by load_model's memory budget, which the memory tests cover.
        constexpr uint64_t kMaxElements = uint64_t{16} << 20;
        uint64_t elements = 0;
        for (const auto& entry : bin.state_dict().tensors) {
            const uint64_t n = entry.second.numel();
            if (n > kMaxElements || (elements += n) > kMaxElements) return;
        }
        float sum = 0;
        for (const auto& entry : bin.state_dict().tensors) {
            if (!vit::torch_dtype_is_float(bin.state_dict().storages[entry.second.storage].dtype)) continue;
            const std::vector<float> v = bin.to_f32(entry.first);
            if (v.size() != entry.second.numel()) std::abort();
            for (float x : v) sum += x;
        }
        g_sink = sum;
    }
    load_and_run(dir);
}

// config.json, optionally followed by a NUL byte and preprocessor_config.json
// (JSON text holds no raw NUL). A config that parses then preprocesses a small
// photo, as vitscope does next, so the preprocessing a config states is fed too.
inline void feed_config(const uint8_t* data, size_t size) {
    const char* text = reinterpret_cast<const char*>(data);
    const void* nul = size ? std::memchr(text, 0, size) : nullptr;
    const size_t config_size = nul ? static_cast<size_t>(static_cast<const char*>(nul) - text) : size;
    const std::string config(text, config_size);
    const std::string preprocessor = nul ? std::string(text + config_size + 1, size - config_size - 1) : std::string();
    static const vit::Image photo = [] {
        vit::Image im;
        im.width = 7;
        im.height = 5;
        for (int i = 0; i < im.width * im.height * 3; ++i) im.rgb.push_back(static_cast<uint8_t>(i * 37));
        return im;
    }();
    const vit::ModelConfig cfg = vit::parse_model_config(config, preprocessor);
    const vit::Input input = vit::preprocess(photo, cfg.pre);
    g_sink = input.chw.empty() ? 0.f : input.chw[0];
}

// A photo file: decode_image (format sniffing, the header's size against the
// megapixel limit, the container check, libjpeg-turbo, libwebp or
// stb_image's decoders, the EXIF orientation through libexif), then
// preprocessing with the default model's settings (shorter side to 248 px
// bicubic, centre crop 224, mean = std = 0.5), as vitscope does.
inline void feed_image(const uint8_t* data, size_t size) {
    const vit::PreprocessConfig cfg = vit::testing::default_model_preprocess();
    const vit::Image image = vit::decode_image(data, size);
    if (image.width <= 0 || image.height <= 0 ||
        image.rgb.size() != static_cast<size_t>(image.width) * image.height * 3)
        std::abort();
    const vit::Input input = vit::preprocess(image, cfg);
    g_sink = input.chw[0];
}

}  // namespace vitscope_fuzz
