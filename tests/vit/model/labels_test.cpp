// Shipped class names (assets/labels): which models get them, where they are
// looked up, and what happens when the list is missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/scratch_dir.h"
#include "support/synthetic_model.h"
#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"
#include "vit/model/labels.h"
#include "vit/model/model.h"

namespace vit {
namespace {

using testing::ScratchDir;

// A synthetic model with `classes` classes and no names, as a hub timm config leaves it.
Model unnamed(int classes, const std::string& source = "timm") {
    testing::SyntheticSpec spec;
    spec.classes = classes;
    Model m = testing::make_synthetic_model(spec);
    m.config.labels.clear();
    m.config.source = source;
    return m;
}

// dir/imagenet-1k.txt with `count` lines "name 0", "name 1", ...
void write_list(const ScratchDir& dir, int count, const std::string& eol = "\n") {
    std::ofstream out(dir.file("imagenet-1k.txt"), std::ios::binary);
    for (int i = 0; i < count; ++i) out << "name " << i << eol;
}

TEST(ShippedLabels, TimmModelWithAThousandClassesGetsThem) {
    ScratchDir dir("labels");
    write_list(dir, 1000, "\r\n");  // CR LF read as LF
    Model m = unnamed(1000);
    add_shipped_labels(m, dir.str());
    ASSERT_EQ(m.config.labels.size(), 1000u);
    EXPECT_EQ(m.config.labels[0], "name 0");
    EXPECT_EQ(m.config.labels[999], "name 999");
    EXPECT_NE(m.config.labels_source.find(dir.file("imagenet-1k.txt")), std::string::npos) << m.config.labels_source;
}

TEST(ShippedLabels, OnlyWhereTheyApply) {
    ScratchDir dir("labels");
    write_list(dir, 1000);
    for (Model m : {unnamed(21843), unnamed(10), unnamed(0), unnamed(1000, "hf")}) {
        add_shipped_labels(m, dir.str());  // ImageNet-21k, another head, no head, an HF config (keeps id2label)
        EXPECT_TRUE(m.config.labels.empty()) << m.num_classes() << " " << m.config.source;
        EXPECT_EQ(m.config.labels_source, "");
    }
    Model named = unnamed(1000);
    named.config.labels.assign(1000, "own");
    add_shipped_labels(named, dir.str());  // a config's own names win
    EXPECT_EQ(named.config.labels[5], "own");
}

TEST(ShippedLabels, MissingOrShortListLeavesClassNumbersAndSaysWhy) {
    ScratchDir dir("labels");
    Model m = unnamed(1000);
    add_shipped_labels(m, dir.str());
    EXPECT_TRUE(m.config.labels.empty());
    EXPECT_NE(m.config.labels_source.find("ImageNet-1k names are missing"), std::string::npos)
        << m.config.labels_source;
    write_list(dir, 999);
    add_shipped_labels(m, dir.str());
    EXPECT_TRUE(m.config.labels.empty());
    EXPECT_NE(m.config.labels_source.find("holds 999 names, not 1000"), std::string::npos) << m.config.labels_source;
}

TEST(ShippedLabels, LookedUpInTheSourceTreeOrWhereTheEnvironmentSays) {
    ::unsetenv("VITSCOPE_LABELS_DIR");
    // The test binary is not installed: the source tree's list, 1000 names in index order.
    EXPECT_EQ(std::filesystem::path(shipped_labels_dir()),
              std::filesystem::path(VITSCOPE_SOURCE_DIR) / "assets" / "labels");
    const std::vector<std::string> names = read_label_file(shipped_labels_dir() + "/imagenet-1k.txt");
    ASSERT_EQ(names.size(), 1000u);
    EXPECT_EQ(names[0], "tench");
    EXPECT_EQ(names[285], "Egyptian cat");
    EXPECT_EQ(names[999], "toilet tissue");
    ::setenv("VITSCOPE_LABELS_DIR", "/somewhere/else", 1);
    EXPECT_EQ(shipped_labels_dir(), "/somewhere/else");
    ::unsetenv("VITSCOPE_LABELS_DIR");
    EXPECT_THROW(read_label_file("/nonexistent/imagenet-1k.txt"), Error);
}

TEST(ShippedLabels, LoadModelGivesThemToAHubStyleTimmFolder) {
    // A timm folder as the hub serves it: num_classes, no label_names.
    ScratchDir dir("labels-model");
    testing::SyntheticSpec spec;
    spec.classes = 1000;
    testing::write_checkpoint(testing::make_synthetic_model(spec), dir.str(), "timm", DType::F16);
    nlohmann::json config = nlohmann::json::parse(std::ifstream(dir.file("config.json")));
    config.erase("label_names");
    std::ofstream(dir.file("config.json")) << config.dump(2);
    const Model m = load_model(dir.str());
    ASSERT_EQ(m.config.labels.size(), 1000u);
    EXPECT_EQ(m.config.labels[285], "Egyptian cat");
}

TEST(ShippedLabels, NumClassesMustMatchTheClassifier) {
    ScratchDir dir("labels-model");
    testing::write_checkpoint(testing::make_synthetic_model({}), dir.str(), "timm", DType::F16);  // 10 classes
    nlohmann::json config = nlohmann::json::parse(std::ifstream(dir.file("config.json")));
    config["num_classes"] = 1000;
    config.erase("label_names");
    std::ofstream(dir.file("config.json")) << config.dump(2);
    try {
        load_model(dir.str());
        FAIL() << "loaded";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("num_classes 1000 but the classifier has 10"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace vit
