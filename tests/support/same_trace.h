// Two traces hold the same floats, bit for bit: every head's q, k, v,
// weights and output, every block's input, the final tokens and the logits.
#pragma once
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "vit/forward/forward.h"

namespace vit::testing {

inline void expect_same_floats(const Mat& a, const Mat& b, const std::string& what) {
    ASSERT_EQ(a.rows(), b.rows()) << what;
    ASSERT_EQ(a.cols(), b.cols()) << what;
    EXPECT_TRUE(a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(float) * a.size()) == 0) << what;
}

inline void expect_same_trace(const Trace& a, const Trace& b) {
    EXPECT_EQ(a.grid, b.grid);
    EXPECT_EQ(a.tokens, b.tokens);
    EXPECT_EQ(a.prefix, b.prefix);
    EXPECT_EQ(a.head_dim, b.head_dim);
    ASSERT_EQ(a.layers.size(), b.layers.size());
    for (size_t l = 0; l < a.layers.size(); ++l) {
        const std::string at = "layer " + std::to_string(l);
        expect_same_floats(a.layers[l].x_in, b.layers[l].x_in, at + " x_in");
        ASSERT_EQ(a.layers[l].heads.size(), b.layers[l].heads.size());
        for (size_t h = 0; h < a.layers[l].heads.size(); ++h) {
            const HeadTrace &x = a.layers[l].heads[h], &y = b.layers[l].heads[h];
            const std::string head = at + " head " + std::to_string(h);
            expect_same_floats(x.q, y.q, head + " q");
            expect_same_floats(x.k, y.k, head + " k");
            expect_same_floats(x.v, y.v, head + " v");
            expect_same_floats(x.attn, y.attn, head + " attn");
            expect_same_floats(x.out, y.out, head + " out");
        }
    }
    expect_same_floats(a.last_block_out, b.last_block_out, "last block out");
    expect_same_floats(a.final_tokens, b.final_tokens, "final tokens");
    expect_same_floats(a.logits, b.logits, "logits");
}

}  // namespace vit::testing
