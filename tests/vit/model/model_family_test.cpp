// The registry of model families (src/vit/model/model_family.h): each family
// is named once and claims its own model_types, the Hugging Face ViT layout
// is tried last, and what a family says (its image processor, its layer-norm
// eps, its model_type from an architecture name) is what reading a
// config.json of that family gives. The behaviour each family stands for is
// tested where it always was (config_test, checkpoint_test, dinov2_test).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "vit/model/config.h"
#include "vit/model/model_family.h"

using namespace vit;

TEST(ModelFamilies, EachIsNamedOnceAndClaimsItsOwnModelTypes) {
    ASSERT_GE(model_families().size(), 5u);
    std::set<std::string> names, types;
    for (const ModelFamily* f : model_families()) {
        EXPECT_TRUE(names.insert(f->name).second) << "two families called " << f->name;
        EXPECT_TRUE(f->timm_layout || f->hf_layout) << f->name << " has no layout of its own";
        for (const std::string& t : f->hf_model_types) {
            EXPECT_TRUE(types.insert(t).second) << "two families claim model_type " << t;
            EXPECT_EQ(family_of_model_type(t), f);
        }
        if (f->model_type_fixes_layout) {
            EXPECT_FALSE(f->scheme.empty()) << f->name;
        }
    }
    EXPECT_EQ(family_of_model_type("no such type"), nullptr);
}

TEST(ModelFamilies, TheHuggingFaceViTLayoutIsTriedLastAndTakesAnyPrefix) {
    const ModelFamily* last = model_families().back();
    ASSERT_TRUE(last->hf_layout);
    const HasTensor nothing = [](const std::string&) { return false; };
    for (const std::string prefix : {"", "vit.", "something."}) {
        const std::optional<TensorNames> n = last->hf_layout(nothing, prefix);
        ASSERT_TRUE(n) << "prefix '" << prefix << "'";
        EXPECT_EQ(n->cls, prefix + "embeddings.cls_token");
    }
    for (const ModelFamily* f : model_families().first(model_families().size() - 1)) {
        if (f->hf_layout) {
            EXPECT_FALSE(f->hf_layout(nothing, "vit.")) << f->name << " takes a plain ViT's layout";
        }
    }
}

// Each family's model_types read as the family says: its processor, its eps.
TEST(ModelFamilies, AConfigOfEachModelTypeReadsAsItsFamilySays) {
    for (const ModelFamily* f : model_families())
        for (const std::string& t : f->hf_model_types) {
            const ModelConfig c =
                parse_model_config(R"({"model_type": ")" + t + R"(", "hidden_size": 384, "num_attention_heads": 6})",
                                   "");
            ASSERT_TRUE(c.pre.hf) << t;
            EXPECT_EQ(c.pre.hf->name, f->hf_processor) << t;
            EXPECT_FLOAT_EQ(c.ln_eps, f->hf_ln_eps) << t;
        }
}

TEST(ModelFamilies, AnArchitectureNameGivesItsModelType) {
    EXPECT_EQ(model_type_of_architecture("Dinov2WithRegistersModel"), "dinov2_with_registers");
    EXPECT_EQ(model_type_of_architecture("Dinov2ForImageClassification"), "dinov2");
    EXPECT_EQ(model_type_of_architecture("ViTForImageClassification"), "");
    EXPECT_EQ(family_of_timm_architecture("vit_small_patch14_reg4_dinov2"), family_of_model_type("dinov2"));
    EXPECT_EQ(family_of_timm_architecture("vit_tiny_patch16_224"), nullptr);
}
