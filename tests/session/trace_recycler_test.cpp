// A forward pass written into an earlier trace's storage (what the window's
// worker does for every photo) gives the same trace as a fresh one, whatever
// the earlier trace held, and reuses its memory where the shapes match.
#include <gtest/gtest.h>

#include "session/base/trace_recycler.h"
#include "support/real_model_fixture.h"
#include "support/same_trace.h"

namespace vit {
namespace {

struct TraceStorage : testing::RealModelFixture {};

// The same floats as a fresh run's, and the run's own times (not added to the earlier run's).
void expect_same_trace(const Trace& fresh, const Trace& recycled) {
    testing::expect_same_trace(fresh, recycled);
    EXPECT_GT(recycled.seconds, 0);
    EXPECT_LE(recycled.linear_seconds + recycled.attention_seconds, recycled.seconds);
}

Input cat_input(int size) {
    return preprocess(load_image(testing::asset("chelsea.png")), testing::RealModelFixture::model->config.pre, size);
}

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
