// load_model(dir) must fail with a one-line vit::Error naming every cause.
#pragma once
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"
#include "vit/model/model.h"

namespace vit::testing {

inline void expect_load_error(const std::string& dir, const std::vector<std::string>& causes) {
    try {
        load_model(dir);
        FAIL() << "loaded " << dir;
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
        for (const std::string& c : causes)
            EXPECT_NE(msg.find(c), std::string::npos) << "'" << c << "' not in: " << msg;
    }
}

}  // namespace vit::testing
