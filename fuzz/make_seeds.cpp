// Writes the seed corpora of fuzz_safetensors and fuzz_config from the
// synthetic models of tests/support (random weights, never a real model):
//   fuzz_make_seeds OUT  ->  OUT/safetensors/*.safetensors, OUT/config/*.json
// Every model has 16 wide, 2 heads, 4 px patches, 8 px images, so each one
// loads beside fuzz_safetensors' fixed config.json. The image seeds come from
// make_image_seeds.py. The committed config and image corpora were made with
// these two; scripts/fuzz.sh runs this at every run for the safetensors seeds,
// as weight files are never committed.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "support/synthetic_model.h"
#include "vit/formats/safetensors.h"

namespace fs = std::filesystem;
using namespace vit;
using namespace vit::testing;

namespace {

void write_text(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: fuzz_make_seeds OUT\n";
        return 2;
    }
    const fs::path out = argv[1];
    fs::create_directories(out / "safetensors");
    fs::create_directories(out / "config");

    SyntheticSpec base;
    base.dim = 16;
    base.heads = 2;
    base.depth = 1;
    base.patch = 4;
    base.image = 8;
    base.mlp_dim = 32;
    base.classes = 3;

    struct Seed {
        std::string name, scheme;
        SyntheticSpec spec;
        DType dtype;
        TimmPos pos = TimmPos::ClsAndGrid;
    };
    SyntheticSpec deit = base;
    deit.dist_token = true;
    SyntheticSpec dino = base;
    dino.classes = 0;
    SyntheticSpec dinov2 = dino;
    dinov2.layer_scale = true;
    dinov2.registers = 2;
    SyntheticSpec deep = base;
    deep.depth = 3;
    const Seed seeds[] = {
        {"timm_f32", "timm", base, DType::F32},
        {"timm_f16", "timm", base, DType::F16},
        {"timm_bf16_3_blocks", "timm", deep, DType::BF16},
        {"timm_grid_only_pos", "timm", dino, DType::F16, TimmPos::GridOnly},
        {"timm_registers_pos", "timm", dinov2, DType::F16, TimmPos::WithRegisters},
        {"hf_vit_f16", "hf-vit", base, DType::F16},
        {"hf_deit_f16", "hf-deit", deit, DType::F16},
        {"hf_dino_bf16", "hf-dino", dino, DType::BF16},
        {"dinov2_registers_f16", "dinov2", dinov2, DType::F16},
    };
    for (const Seed& s : seeds) {
        Model m = make_synthetic_model(s.spec);
        if (s.pos == TimmPos::GridOnly) m.pos.topRows(m.pos.rows() - m.pos_grid * m.pos_grid).setZero();
        write_safetensors((out / "safetensors" / (s.name + ".safetensors")).string(),
                          scheme_tensors(m, s.scheme, s.dtype, s.pos));
    }

    // Config seeds: config.json alone, or config.json NUL preprocessor_config.json.
    const Model m = make_synthetic_model(base);
    write_text(out / "config" / "timm.json", config_json(m, "timm"));
    write_text(out / "config" / "hf_vit.json", config_json(m, "hf-vit"));
    write_text(out / "config" / "hf_vit_with_preprocessor.json",
               config_json(m, "hf-vit") + std::string(1, '\0') + preprocessor_json(m));
    write_text(out / "config" / "hf_deit_with_preprocessor.json",
               config_json(make_synthetic_model(deit), "hf-deit") + std::string(1, '\0') + preprocessor_json(m));
    write_text(out / "config" / "dinov2.json", config_json(make_synthetic_model(dinov2), "dinov2"));
    return 0;
}
