// timm's layout: every timm ViT names its weights this way (cls_token,
// patch_embed.proj, blocks.N.attn.qkv fused, a distilled DeiT's dist_token
// and head_dist, a DINOv2's reg_token and ls1/ls2). What an architecture adds
// beyond its name's sizes is its own family's (dinov2.cpp).
#include "vit/model/model_family.h"

namespace vit {
namespace {

std::optional<TensorNames> timm_layout(const HasTensor& has) {
    if (!has("cls_token") || !has("patch_embed.proj.weight")) return std::nullopt;
    TensorNames n;
    n.scheme = "timm";
    n.cls = "cls_token";
    n.dist = "dist_token";
    n.registers = "reg_token";
    n.pos = "pos_embed";
    n.patch_embed = "patch_embed.proj";
    n.norm = "norm";
    n.head = "head";
    n.head_dist = "head_dist";
    n.blocks = "blocks.";
    n.ln1 = "norm1";
    n.qkv = "attn.qkv";
    n.proj = "attn.proj";
    n.ls1 = "ls1.gamma";
    n.ln2 = "norm2";
    n.fc1 = "mlp.fc1";
    n.fc2 = "mlp.fc2";
    n.ls2 = "ls2.gamma";
    n.ignored = {"mask_token"};  // DINOv2 pretraining only
    return n;
}

}  // namespace

const ModelFamily& timm_family() {
    static const ModelFamily family{.name = "timm ViT", .timm_layout = timm_layout};
    return family;
}

}  // namespace vit
