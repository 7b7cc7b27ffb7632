// A test fixture holding the real default model, dog.jpg's input and its full
// trace, loaded once per test suite: derive a suite from it.
#pragma once
#include <memory>

#include <gtest/gtest.h>

#include "default_model.h"
#include "vit/formats/checkpoint.h"
#include "vit/forward/forward.h"
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/model/model.h"

namespace vit::testing {

struct RealModelFixture : ::testing::Test {
    static void SetUpTestSuite() {
        model = std::make_unique<Model>(load_model(default_model_dir()));
        input = std::make_unique<Input>(preprocess(load_image(asset("dog.jpg")), model->config.pre));
        trace = std::make_unique<Trace>(forward(*model, *input));
    }
    static void TearDownTestSuite() {
        trace.reset();
        input.reset();
        model.reset();
    }
    static inline std::unique_ptr<Model> model;
    static inline std::unique_ptr<Input> input;
    static inline std::unique_ptr<Trace> trace;
};

}  // namespace vit::testing
