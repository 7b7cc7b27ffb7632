#include "vit/analysis/questions.h"

namespace vit {

const std::vector<QuestionPage>& all_questions() {
    static const std::vector<QuestionPage> questions = {
        {"scaling", "Why divide by √dₖ?",
         "A score q·k adds up dₖ products, so for q and k of unit-variance entries its spread grows like √dₖ. "
         "Without the division, wider heads would start with wider scores, and the wider a row's scores, the more "
         "of its weight the largest takes; a softmax that is nearly one-hot barely changes when its scores change, "
         "so learning through it stalls. Dividing "
         "by √dₖ takes that growth out (unit-variance q and k give unit spread at any dₖ); how wide a trained "
         "head's scores are is then up to its learned W_Q and W_K; below, what leaving it out does on this photo.",
         "vit/analysis/scaling.h",
         "layer,head,raw_std,scaled_std,saturated_share_raw,saturated_share_scaled,jacobian_norm_raw,jacobian_norm_scaled"},
        {"heads", "What do several heads buy?",
         "Each head has its own W_Q, W_K and W_V, so each asks a different question of the same tokens. A head may "
         "look close to the query, far from it, or everywhere, as measured below; removing one head shows what the "
         "rest of the network made of its answer.",
         "vit/analysis/heads.h",
         "layer,head,mean_distance_px,spread_keys"},
        {"quadratic", "Why is attention quadratic?",
         "Every token compares its query with every token's key: N tokens make N × N weights per head. Doubling "
         "the photo's side quadruples the patches and multiplies the weights by about sixteen, while the linear "
         "layers grow only with N.",
         "vit/analysis/quadratic.h",
         "size,tokens,attention_weights,attention_bytes,linear_ms,attention_ms"},
        {"cls", "How does the class token gather the image?",
         "CLS starts as the same learned vector for every photo. Layer by layer it attends to the patches and "
         "collects what it finds; the classifier reads only CLS at the end. Rollout follows that flow through "
         "all layers; the logit lens reads CLS as if the network stopped early.",
         "vit/analysis/cls.h",
         "layer,cls_self_weight,lens_top1,lens_top1_prob,final_top1_prob,median_patch_norm,top_over_median,"
         "high_norm_tokens,cls_weight_on_high,patch_weight_on_high"},
        {"global", "Is attention local like a convolution?",
         "Not necessarily: from the first layer, a patch can take weight from any other patch, however far. A "
         "3 × 3 convolution sees only its neighbours; attention has no such limit. How far each head "
         "actually looks is learned, and measured below for the photo on show.",
         "vit/analysis/global.h",
         "layer,head,mass_same,mass_1,mass_2_3,mass_4_7,mass_8_plus,mass_far_quarter"},
        {"dynamic", "Are the weights fixed, like a kernel?",
         "No: which patches talk to which is computed from the photo itself. A convolution applies one fixed "
         "kernel everywhere: the same weight for each offset, at every patch of every photo. Attention gives the "
         "same query position other weights on another photo, and one offset other weights at other patches.",
         "vit/analysis/dynamic.h",
         "layer,head,jsd", true},
        {"permutation", "Why does a ViT need position embeddings?",
         "Attention itself ignores order: shuffle the patches and, without position embeddings, every output is "
         "only shuffled the same way. Position embeddings are how the model knows where a patch was.",
         "vit/analysis/permutation.h",
         "with_pos_max_abs_diff,without_pos_max_abs_diff,top1_with_pos,top1_without_pos"},
        {"position", "What did the position embeddings learn?",
         "Each patch position has a learned vector. Positions close on the photo ended up with similar vectors: "
         "the model learned the grid's geometry from data alone.",
         "vit/analysis/position.h",
         "row,col,cosine"},
        {"cross", "Self-attention or cross-attention?",
         "The same arithmetic works between two sequences: queries from one, keys and values from the other. "
         "That is how a decoder attends to an encoder, or a text prompt to image features.",
         "vit/analysis/cross.h",
         "key,row,col,score,scaled,weight", true},
        {"matrix", "What does one head's whole attention look like?",
         "Every token's query meets every token's key: one head of one layer holds an N × N matrix of weights, a "
         "row per query and a column per key, each row a softmax that sums to one. The photo shows one row of it "
         "at a time; here is all of it.",
         "vit/analysis/attention_matrix.h",
         "query,key,weight"},
        {"mlp", "What does the rest of the block do?",
         "Attention is the only step that mixes tokens. The MLP after it works on each token alone: change every "
         "other token and this token's MLP output stays the same.",
         "vit/analysis/mlp.h",
         "part,norm"},
        {"relevance", "Does the attention map explain the prediction?",
         "Not by itself. An attention map shows where one layer moved information for one query; it is computed "
         "before the classifier, so it is the same whatever class you ask about. To explain a prediction, a map must "
         "depend on the class (gradients, occlusion) and pass a test: remove the patches it ranks first and the "
         "class's probability should fall.",
         "vit/analysis/relevance.h",
         "token,row,col,attention_last,rollout,grad_rollout,occlusion", false, nullptr, true},
        // Answered on the command line, drawn on another page's figure.
        {"rollout", "Attention rollout: where the class token gathers from", "", "vit/analysis/rollout.h",
         "token,row,col,rollout", false, "cls"},
        {"ablation", "What if one head is removed?", "", "vit/analysis/head_ablation.h",
         "rank,prob_before,label_before,prob_after,label_after", false, "heads"},
        {"perturbation", "Perturbation tests: which map ranks the patches the class needs?", "",
         "vit/analysis/perturbation.h", "method,order,fraction,probability", false, "relevance", true},
    };
    return questions;
}

const std::vector<QuestionPage>& question_pages() {
    static const std::vector<QuestionPage> pages = [] {
        std::vector<QuestionPage> out;
        for (const QuestionPage& q : all_questions())
            if (q.has_page()) out.push_back(q);
        return out;
    }();
    return pages;
}

const QuestionPage* find_question(std::string_view name) {
    for (const QuestionPage& q : all_questions())
        if (name == q.name) return &q;
    return nullptr;
}

const QuestionPage* find_question_page(std::string_view name) {
    const QuestionPage* q = find_question(name);
    return q && q->has_page() ? q : nullptr;
}

}  // namespace vit
