#include "vit/train/tiny_vit.h"

#include <algorithm>
#include <cmath>

#include "vit/base/error.h"
#include "vit/train/random.h"

namespace vit::train {

long long TinyVit::parameter_count() const {
    long long n = 0;
    for (const ParamTensor& t : tensors) n += static_cast<long long>(t.data.size());
    return n;
}

TinyVit make_tiny_vit(const TinyVitConfig& c) {
    if (c.image <= 0 || c.patch <= 0 || c.image % c.patch != 0)
        throw Error("the image side must be a multiple of the patch side");
    if (c.heads <= 0 || c.dim % c.heads != 0) throw Error("the width must be a multiple of the number of heads");
    TinyVit m;
    m.config = c;
    auto add = [&](std::string name, std::vector<int64_t> shape) {
        int64_t n = 1;
        for (int64_t s : shape) n *= s;
        m.tensors.push_back({std::move(name), std::move(shape), Floats(static_cast<size_t>(n), 0.f)});
    };
    const int64_t D = c.dim, M = c.mlp;
    add("patch_embed.proj.weight", {D, 3, c.patch, c.patch});
    add("patch_embed.proj.bias", {D});
    add("cls_token", {1, 1, D});
    add("pos_embed", {1, c.tokens(), D});
    for (int l = 0; l < c.depth; ++l) {
        const std::string b = "blocks." + std::to_string(l) + ".";
        add(b + "norm1.weight", {D});
        add(b + "norm1.bias", {D});
        add(b + "attn.qkv.weight", {3 * D, D});
        add(b + "attn.qkv.bias", {3 * D});
        add(b + "attn.proj.weight", {D, D});
        add(b + "attn.proj.bias", {D});
        add(b + "norm2.weight", {D});
        add(b + "norm2.bias", {D});
        add(b + "mlp.fc1.weight", {M, D});
        add(b + "mlp.fc1.bias", {M});
        add(b + "mlp.fc2.weight", {D, M});
        add(b + "mlp.fc2.bias", {D});
    }
    add("norm.weight", {D});
    add("norm.bias", {D});
    add("head.weight", {c.classes, D});
    add("head.bias", {c.classes});
    return m;
}

void initialise(TinyVit& m, std::mt19937_64& rng) {
    auto uniform = [&](Floats& v, double bound) {
        for (float& x : v) x = static_cast<float>(bound * (2.0 * uniform01(rng) - 1.0));
    };
    // A layer's fan-in: the weight's elements per output row.
    auto fan_in = [](const ParamTensor& t) {
        int64_t n = 1;
        for (size_t i = 1; i < t.shape.size(); ++i) n *= t.shape[i];
        return static_cast<double>(n);
    };
    for (size_t i = 0; i < m.tensors.size(); ++i) {
        ParamTensor& t = m.tensors[i];
        const std::string& n = t.name;
        const bool is_norm = n.find("norm") != std::string::npos;
        const bool is_bias = n.size() > 5 && n.compare(n.size() - 5, 5, ".bias") == 0;
        if (is_norm) std::fill(t.data.begin(), t.data.end(), is_bias ? 0.f : 1.f);
        else if (n == "cls_token")
            for (float& x : t.data) x = static_cast<float>(0.02 * truncated_normal(rng));
        else if (n == "pos_embed") {
            if (m.config.position)
                for (float& x : t.data) x = static_cast<float>(0.02 * truncated_normal(rng));
        } else if (is_bias) {
            uniform(t.data, 1.0 / std::sqrt(fan_in(m.tensors[i - 1])));  // the weight right before it
        } else {
            uniform(t.data, 1.0 / std::sqrt(fan_in(t)));
        }
    }
}

}  // namespace vit::train
