// The tiny ViT's forward pass with its activations kept, and the backward
// pass through every tensor: the gradient of the batch's mean softmax
// cross-entropy. Pre-norm blocks as timm's VisionTransformer: x += proj(attn(
// LN1(x))); x += fc2(GELU(fc1(LN2(x)))); logits = head(LN(x)[CLS]), exact GELU.
// The batch is cut into chunks of kChunk samples whose gradients are added
// in chunk order, so the result does not depend on the number of threads.
#pragma once
#include <vector>

#include "vit/train/tiny_vit.h"

namespace vit::train {

constexpr int kChunk = 8;

struct Batch {
    int size = 0;
    std::vector<float> inputs;  // size x 3 x image x image, normalised (tasks.h append_input)
    std::vector<int> labels;    // size class indices
};

struct BatchResult {
    double loss = 0;            // mean cross-entropy over the batch
    int correct = 0;            // argmax == label
    std::vector<float> logits;  // size x classes
};

// One float vector per model tensor, the same order and sizes.
using Gradients = std::vector<Floats>;
Gradients zero_gradients(const TinyVit& model);

// Loss, accuracy and logits of the batch; with `grads`, also the gradient of
// the mean loss for every tensor (written over, not added to). `threads` >= 1.
BatchResult run_batch(const TinyVit& model, const Batch& batch, Gradients* grads, int threads);

}  // namespace vit::train
