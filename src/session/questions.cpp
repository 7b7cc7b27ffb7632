#include "questions.h"

namespace session {

const std::vector<QuestionPage>& question_pages() {
    static const std::vector<QuestionPage> pages = {
        {"scaling", "Why divide by √dₖ?",
         "A score q·k adds up dₖ products, so for q and k of unit-variance entries its spread grows like √dₖ. "
         "Without the division, wider heads would start with wider scores: the largest would often take almost all "
         "the weight, and a softmax that is nearly one-hot barely changes when its scores change, so learning stalls. Dividing "
         "by √dₖ takes that growth out (unit-variance q and k give unit spread at any dₖ); how wide a trained "
         "head's scores are is then up to its learned W_Q and W_K, as measured below."},
        {"heads", "What do several heads buy?",
         "Each head has its own W_Q, W_K and W_V, so each asks a different question of the same tokens. Some look "
         "close to the query, some far, some everywhere; removing one head shows what the rest of the network "
         "made of its answer."},
        {"quadratic", "Why is attention quadratic?",
         "Every token compares its query with every token's key: N tokens make N × N weights per head. Doubling "
         "the photo's side quadruples the patches and multiplies the weights by about sixteen, while the linear "
         "layers grow only with N."},
        {"cls", "How does the class token gather the image?",
         "CLS starts as the same learned vector for every photo. Layer by layer it attends to the patches and "
         "collects what it finds; the classifier reads only CLS at the end. Rollout follows that flow through "
         "all layers; the logit lens reads CLS as if the network stopped early."},
        {"global", "Is attention local like a convolution?",
         "Not necessarily: from the first layer, a patch can take weight from any other patch, however far. A "
         "3 × 3 convolution sees only its neighbours; attention's reach is the whole photo. How far each head "
         "actually looks is learned: some stay near their query, others spread over the photo."},
        {"dynamic", "Are the weights fixed, like a kernel?",
         "No: which patches talk to which is computed from the photo itself. A convolution applies one fixed "
         "kernel everywhere: the same weight for each offset, at every patch of every photo. Attention gives the "
         "same query position other weights on another photo, and one offset other weights at other patches.",
         true},
        {"permutation", "Why does a ViT need position embeddings?",
         "Attention itself ignores order: shuffle the patches and, without position embeddings, every output is "
         "only shuffled the same way. Position embeddings are how the model knows where a patch was."},
        {"position", "What did the position embeddings learn?",
         "Each patch position has a learned vector. Positions close on the photo ended up with similar vectors: "
         "the model learned the grid's geometry from data alone."},
        {"cross", "Self-attention or cross-attention?",
         "The same arithmetic works between two sequences: queries from one, keys and values from the other. "
         "That is how a decoder attends to an encoder, or a text prompt to image features.",
         true},
        {"mlp", "What does the rest of the block do?",
         "Attention is the only step that mixes tokens. The MLP after it works on each token alone: change every "
         "other token and this token's MLP output stays the same."},
    };
    return pages;
}

const QuestionPage* find_question_page(std::string_view name) {
    for (const QuestionPage& p : question_pages())
        if (name == p.name) return &p;
    return nullptr;
}

}  // namespace session
