// A forward pass written into an earlier trace's storage (what the window's
// worker does for every photo) gives the same trace as a fresh one, whatever
// the earlier trace held, and reuses its memory where the shapes match.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "session/trace_recycler.h"
#include "support/real_model_fixture.h"

namespace vit {
namespace {

struct TraceStorage : testing::RealModelFixture {};

void expect_same(const Mat& a, const Mat& b, const std::string& what) {
    ASSERT_EQ(a.rows(), b.rows()) << what;
    ASSERT_EQ(a.cols(), b.cols()) << what;
    EXPECT_TRUE(a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(float) * a.size()) == 0) << what;
}

void expect_same_trace(const Trace& a, const Trace& b) {
    EXPECT_EQ(a.grid, b.grid);
    EXPECT_EQ(a.tokens, b.tokens);
    EXPECT_EQ(a.prefix, b.prefix);
    EXPECT_EQ(a.head_dim, b.head_dim);
    ASSERT_EQ(a.layers.size(), b.layers.size());
    for (size_t l = 0; l < a.layers.size(); ++l) {
        const std::string at = "layer " + std::to_string(l);
        expect_same(a.layers[l].x_in, b.layers[l].x_in, at + " x_in");
        ASSERT_EQ(a.layers[l].heads.size(), b.layers[l].heads.size());
        for (size_t h = 0; h < a.layers[l].heads.size(); ++h) {
            const HeadTrace &x = a.layers[l].heads[h], &y = b.layers[l].heads[h];
            const std::string head = at + " head " + std::to_string(h);
            expect_same(x.q, y.q, head + " q");
            expect_same(x.k, y.k, head + " k");
            expect_same(x.v, y.v, head + " v");
            expect_same(x.attn, y.attn, head + " attn");
            expect_same(x.out, y.out, head + " out");
        }
    }
    expect_same(a.last_block_out, b.last_block_out, "last block out");
    expect_same(a.final_tokens, b.final_tokens, "final tokens");
    expect_same(a.logits, b.logits, "logits");
    EXPECT_GT(b.seconds, 0);
    EXPECT_LE(b.linear_seconds + b.attention_seconds, b.seconds);  // not added to the earlier run's
}

Input cat_input(int size) { return preprocess(load_image(testing::asset("chelsea.png")), testing::RealModelFixture::model->config.pre, size); }

TEST_F(TraceStorage, TheSameShapeReusesTheMemoryAndGivesTheSameTrace) {
    const Input cat = cat_input(224);
    Trace storage = forward(*model, *input);  // the dog's trace, no longer needed
    const float* attn = storage.layers[3].heads[1].attn.data();
    const float* q = storage.layers[7].heads[2].q.data();
    const Trace reused = forward(*model, cat, {}, std::move(storage));
    EXPECT_EQ(reused.layers[3].heads[1].attn.data(), attn);
    EXPECT_EQ(reused.layers[7].heads[2].q.data(), q);
    expect_same_trace(forward(*model, cat), reused);
}

TEST_F(TraceStorage, WhateverTheEarlierTraceHeldTheResultIsAFreshRunsTrace) {
    const Input cat = cat_input(224), big = cat_input(448);
    const TraceOptions plain{false, false, false}, weights_only{false, true, false};
    // Larger and everything kept, into a plain run: nothing of it may stay.
    expect_same_trace(forward(*model, cat, plain), forward(*model, cat, plain, forward(*model, big)));
    // Plain, into a full run; and weights only, into a larger run with the what-ifs on.
    expect_same_trace(forward(*model, cat), forward(*model, cat, {}, forward(*model, *input, plain)));
    TraceOptions what_if;
    what_if.position_embeddings = false;
    what_if.ablate_layer = 4;
    what_if.ablate_head = 2;
    expect_same_trace(forward(*model, big, what_if), forward(*model, big, what_if, forward(*model, cat, weights_only)));
}

TEST_F(TraceStorage, TheRecyclerHandsBackTheLastTraceReleased) {
    session::TraceRecycler recycler;
    EXPECT_TRUE(recycler.take().layers.empty());  // nothing released yet
    auto shown = recycler.share(forward(*model, *input));
    const float* attn = shown->layers[0].heads[0].attn.data();
    auto copy = shown;
    shown.reset();
    EXPECT_TRUE(recycler.take().layers.empty());  // still shared
    copy.reset();
    Trace back = recycler.take();
    ASSERT_EQ(back.layers.size(), 12u);
    EXPECT_EQ(back.layers[0].heads[0].attn.data(), attn);
    EXPECT_TRUE(recycler.take().layers.empty());  // taken once

    // A trace released after its recycler is gone is simply freed.
    auto outliving = std::make_unique<session::TraceRecycler>()->share(std::move(back));
    outliving.reset();
}

}  // namespace
}  // namespace vit
