// Model bookkeeping that is not loading or running.
#include "vit/model/model.h"

namespace vit {

namespace {
long long linear_size(const Linear& l) { return static_cast<long long>(l.w.size() + l.b.size()); }
}  // namespace

// Every stored weight. For checkpoints in the usual layouts this equals the sum
// of tensor sizes in the file (timm's count); layouts the loader reshapes (e.g.
// position embeddings without CLS rows, which gain zero rows) differ slightly.
long long Model::parameter_count() const {
    long long n =
        patch_embed.w.size() + patch_embed.b.size() + cls.size() + dist.size() + registers.size() + pos.size();
    for (const Block& b : blocks) {
        n += b.ln1_w.size() + b.ln1_b.size() + b.ln2_w.size() + b.ln2_b.size() + b.ls1.size() + b.ls2.size();
        n += linear_size(b.q) + linear_size(b.k) + linear_size(b.v) + linear_size(b.proj);
        n += linear_size(b.fc1) + linear_size(b.fc2);
    }
    n += norm_w.size() + norm_b.size() + linear_size(head) + linear_size(head_dist);
    return n;
}

}  // namespace vit
